package redact

import (
	"net/http"
	"testing"
)

func TestHeader(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"Authorization", "Bearer abcdef0123456789", "Bearer «redacted: 16 chars»"},
		{"authorization", "Basic YWxpY2U6cHc=", "Basic «redacted: 12 chars»"},
		{"Authorization", "abcdef", "«redacted: 6 chars»"},
		{"Proxy-Authorization", "Digest username=x, response=y", "Digest «redacted: 22 chars»"},
		{"Cookie", "sid=abc123; theme=dark", "sid=«redacted: 6 chars»; theme=«redacted: 4 chars»"},
		{"Set-Cookie", "sid=abc123; Path=/; HttpOnly", "sid=«redacted: 6 chars»; Path=/; HttpOnly"},
		{"X-Api-Key", "k-123", "«redacted: 5 chars»"},
		{"X-Auth-Token", "t", "«redacted: 1 char»"},
		{"Origin", "http://h", "http://h"},
		{"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==", "dGhlIHNhbXBsZSBub25jZQ=="},
		{"Authorization", "Bearer «redacted: 16 chars»", "Bearer «redacted: 16 chars»"},
		{"Authorization", "«redacted: 1 char»", "«redacted: 1 char»"}, // found by FuzzText
		{"Authorization", "", ""},
	} {
		if got := Header(tc.name, tc.in); got != tc.want {
			t.Errorf("Header(%q, %q)\n got %q\nwant %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestHTTPHeader(t *testing.T) {
	h := http.Header{"Origin": {"http://h"}}
	if got := HTTPHeader(h); got["Origin"][0] != "http://h" {
		t.Fatal(got)
	}
	h.Set("Authorization", "Bearer SECRET3-abc")
	h.Add("Cookie", "a=SECRET5")
	got := HTTPHeader(h)
	if got.Get("Authorization") != "Bearer «redacted: 11 chars»" || got.Get("Cookie") != "a=«redacted: 7 chars»" {
		t.Fatal(got)
	}
	if h.Get("Authorization") != "Bearer SECRET3-abc" {
		t.Fatal("the original was changed")
	}
}
