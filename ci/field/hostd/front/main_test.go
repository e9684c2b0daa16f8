package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandler: the web app's files come from -dist, the server's paths go
// to -upstream with the browser's Host, and -first-ws-query reaches the
// first /ws/app request only.
func TestHandler(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "upstream "+r.URL.RequestURI()+" host="+r.Host)
	}))
	t.Cleanup(up.Close)
	dist := t.TempDir()
	if err := os.WriteFile(filepath.Join(dist, "index.html"), []byte("the app"), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := handler(dist, strings.Replace(up.URL, "http://", "ws://", 1), "fault=drop-after=15")
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(h)
	t.Cleanup(front.Close)
	host := strings.TrimPrefix(front.URL, "http://")
	tests := []struct{ path, want string }{
		{"/", "the app"},
		{"/health", "upstream /health host=" + host},
		{"/runs", "upstream /runs host=" + host},
		{"/runs/r1/input", "upstream /runs/r1/input host=" + host},
		{"/ws/app?token=t", "upstream /ws/app?token=t&fault=drop-after=15 host=" + host},
		{"/ws/app?token=t", "upstream /ws/app?token=t host=" + host},
		{"/auth/login", "upstream /auth/login host=" + host},
	}
	for _, tc := range tests { // in order: the first /ws/app gets the query
		resp, err := http.Get(front.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != tc.want {
			t.Errorf("GET %s: %q, want %q", tc.path, body, tc.want)
		}
	}
}
