package redact

import (
	"net/url"
	"testing"
)

func TestURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ws://127.0.0.1:7337/ws", "ws://127.0.0.1:7337/ws"},
		{"ws://h/ws?resumeSessionId=abc&v=1", "ws://h/ws?resumeSessionId=abc&v=1"},
		{"ws://h/ws?token=SECRET1&host_token=SECRET2x", "ws://h/ws?token=redacted(7)&host_token=redacted(8)"},
		{"ws://h/ws?a=1&access_token=abc%20def&b=2#x", "ws://h/ws?a=1&access_token=redacted(7)&b=2#x"},
		{"ws://h/ws?API_KEY=k&key=kk&Password=", "ws://h/ws?API_KEY=redacted(1)&key=redacted(2)&Password="},
		{"ws://h/ws?token", "ws://h/ws?token"},
		{"ws://h/ws?token=redacted(7)", "ws://h/ws?token=redacted(7)"},
		{"https://h/cb#access_token=xyz&state=s", "https://h/cb#access_token=redacted(3)&state=s"},
		{"ws://alice:hunter2@h:1/ws?x=1", "ws://alice:redacted(7)@h:1/ws?x=1"},
		{"ws://alice@h/ws", "ws://alice@h/ws"},
		{"ws://h/ws?to%6Ben=abc", "ws://h/ws?to%6Ben=redacted(3)"},
	} {
		got := URL(tc.in)
		if got != tc.want {
			t.Errorf("URL(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
		if _, err := url.Parse(tc.in); err == nil {
			if _, err := url.Parse(got); err != nil {
				t.Errorf("URL(%q) = %q does not parse: %v", tc.in, got, err)
			}
		}
		if again := URL(got); again != got {
			t.Errorf("URL twice: %q then %q", got, again)
		}
	}
}

func TestScrubberRemembersURLValues(t *testing.T) {
	s := NewScrubber()
	s.URL("ws://h/ws?host_token=abc%2Fdef123")
	if got := s.Text("token abc/def123 and abc%2Fdef123"); got != "token «redacted: 10 chars» and «redacted: 12 chars»" {
		t.Fatalf("Text = %q", got)
	}
}
