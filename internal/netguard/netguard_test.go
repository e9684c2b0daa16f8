package netguard

import (
	"slices"
	"testing"
)

func TestOriginsAllowed(t *testing.T) {
	t.Parallel()
	local := Origins{Local: true, Listen: "127.0.0.1:8080"}
	lan := Origins{Local: true, Listen: "192.168.1.5:8080"}
	any := Origins{Local: true, Listen: "0.0.0.0:8080"}
	strict := Origins{} // serve's rule: the request's own host:port only
	for _, tc := range []struct {
		name   string
		o      Origins
		origin string
		host   string
		want   bool
	}{
		{"no origin: not a browser", strict, "", "127.0.0.1:8080", true},
		{"same host:port", strict, "http://127.0.0.1:8080", "127.0.0.1:8080", true},
		{"same host:port, case", strict, "http://LOCALHOST:8080", "localhost:8080", true},
		{"strict: other loopback port", strict, "http://localhost:5173", "127.0.0.1:8080", false},
		{"local: dev server on localhost", local, "http://localhost:5173", "127.0.0.1:8080", true},
		{"local: 127.0.0.2", local, "https://127.0.0.2:3000", "127.0.0.1:8080", true},
		{"local: [::1]", local, "http://[::1]:3000", "127.0.0.1:8080", true},
		{"local: app.localhost", local, "http://app.localhost:3000", "127.0.0.1:8080", true},
		{"local: foreign site", local, "https://evil.example", "127.0.0.1:8080", false},
		{"local: rebinding name", local, "http://evil.example:8080", "127.0.0.1:8080", false},
		{"local: null origin", local, "null", "127.0.0.1:8080", false},
		{"local: extension", local, "chrome-extension://abcdef", "127.0.0.1:8080", false},
		{"local: garbage", local, "::::", "127.0.0.1:8080", false},
		{"listen host, other port", lan, "http://192.168.1.5:3000", "192.168.1.5:8080", true},
		{"other LAN host", lan, "http://192.168.1.6:3000", "192.168.1.5:8080", false},
		{"0.0.0.0 names no origin", any, "http://0.0.0.0:3000", "127.0.0.1:8080", false},
		{"listed", Origins{Allow: []string{"https://app.example"}}, "https://app.example", "127.0.0.1:8080", true},
		{"listed with default port", Origins{Allow: []string{"https://app.example:443/"}}, "https://APP.example", "127.0.0.1:8080", true},
		{"listed, other scheme", Origins{Allow: []string{"https://app.example"}}, "http://app.example", "127.0.0.1:8080", false},
		{"star", Origins{Allow: []string{"*"}}, "https://evil.example", "127.0.0.1:8080", true},
		{"star allows null", Origins{Allow: []string{"*"}}, "null", "127.0.0.1:8080", true},
	} {
		if got := tc.o.Allowed(tc.origin, tc.host); got != tc.want {
			t.Errorf("%s: Allowed(%q, %q) = %v, want %v", tc.name, tc.origin, tc.host, got, tc.want)
		}
	}
}

func TestParseOrigins(t *testing.T) {
	t.Parallel()
	got, err := ParseOrigins("--allow-origin", []string{"https://a.example, http://b.example:3000/", "*"})
	if err != nil || !slices.Equal(got, []string{"https://a.example", "http://b.example:3000", "*"}) {
		t.Errorf("got %q, %v", got, err)
	}
	for _, bad := range []string{"a.example", "https://a.example/app", "https://a.example?x=1", "", "https://u:p@a.example"} {
		if _, err := ParseOrigins("--allow-origin", []string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestHostAllowed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		host, listen string
		allow        []string
		want         bool
	}{
		{"127.0.0.1:8080", "127.0.0.1:8080", nil, true},
		{"[::1]:8080", "127.0.0.1:8080", nil, true},
		{"localhost:8080", "", nil, true},
		{"app.localhost", "", nil, true},
		{"evil.example:8080", "127.0.0.1:8080", nil, false},
		{"dev.test:8080", "dev.test:8080", nil, true},
		{"Dev.Test", "", []string{"dev.test:9"}, true},
		{"evil.example", "", []string{"*"}, true},
		{"", "", []string{"*"}, false},
	} {
		if got := HostAllowed(tc.host, tc.listen, tc.allow); got != tc.want {
			t.Errorf("HostAllowed(%q, %q, %q) = %v, want %v", tc.host, tc.listen, tc.allow, got, tc.want)
		}
	}
}
