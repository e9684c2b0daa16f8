package redact

import "testing"

func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"nothing here", "nothing here"},
		{"wsconform run --target ws://h/ws?token=SECRET1 --var host_token=SECRET2 --var user=me",
			"wsconform run --target ws://h/ws?token=redacted(7) --var host_token=redacted(7) --var user=me"},
		{"wsconform run --header 'Authorization: Bearer SECRET3' --header 'Origin: http://h'",
			"wsconform run --header 'Authorization: Bearer «redacted: 7 chars»' --header 'Origin: http://h'"},
		{"Cookie: sid=abc; x=y\nnext line", "Cookie: sid=«redacted: 3 chars»; x=«redacted: 1 char»\nnext line"},
		{`actual {"type":"hello","apiKey":"SECRET4-long-enough-for-marker"}`,
			`actual {"type":"hello","apiKey":"«redacted: 30 chars»"}`},
		{"WSCONFORM_PASSWORD=pw go test", "WSCONFORM_PASSWORD=redacted(2) go test"},
		{"dial ws://alice:hunter2@h/ws: refused", "dial ws://alice:redacted(7)@h/ws: refused"},
		{"x=1, y=2; token_type=Bearer", "x=1, y=2; token_type=Bearer"},
	} {
		got := Text(tc.in)
		if got != tc.want {
			t.Errorf("Text(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
		if again := Text(got); again != got {
			t.Errorf("Text twice: %q then %q", got, again)
		}
	}
}

func TestScrubberLiterals(t *testing.T) {
	s := NewScrubber()
	s.Add("SECRET2-host")
	s.Add("pw") // too short to replace wherever it appears
	s.Add("SECRET2-host-longer")
	got := s.Text(`step: the host "SECRET2-host-longer" connects with SECRET2-host; pw stays`)
	want := `step: the host "«redacted: 19 chars»" connects with «redacted: 12 chars»; pw stays`
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestTextKeepsPunctuation(t *testing.T) {
	for in, want := range map[string]string{
		"dial ws://h/ws?token=abc: refused": "dial ws://h/ws?token=redacted(3): refused",
		"(token=abc).":                      "(token=redacted(3)).",
		"token=a.b.c.":                      "token=redacted(5).",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzText: redacting a text twice changes nothing more than once.
func FuzzText(f *testing.F) {
	for _, s := range []string{"Authorization: Bearer abcdef0123456789", "dial ws://a:pw@h/?token=x: refused",
		"use ghp_0123456789abcdefghijABCDEFGHIJklmnop now", `{"apiKey":"sk-0123456789abcdefghijKLMN"}`,
		"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		once := Text(in)
		if twice := Text(once); twice != once {
			t.Fatalf("not idempotent:\n in    %q\n once  %q\n twice %q", in, once, twice)
		}
	})
}
