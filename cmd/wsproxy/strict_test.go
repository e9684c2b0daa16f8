package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// finishedLine parses the "finished" line of stdout.
func finishedLine(t *testing.T, out string) finished {
	t.Helper()
	var f finished
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if json.Unmarshal([]byte(line), &f) == nil && f.Type == "finished" {
			return f
		}
	}
	t.Fatalf("no finished line in %q", out)
	return f
}

// TestStrictUpstreamDown: every connection got 502; that is an error
// verdict, and --strict exits 3 (it used to exit 0).
func TestStrictUpstreamDown(t *testing.T) {
	t.Parallel()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	l, stop := proxying(t, "--upstream", "ws://"+addr, "--strict", "--color", "never")
	for range 2 {
		if _, resp, err := (&websocket.Dialer{HandshakeTimeout: timeout}).Dial(l.URL+"/ws", nil); err == nil || resp == nil || resp.StatusCode != http.StatusBadGateway {
			t.Fatalf("dial: %v %+v", err, resp)
		}
	}
	code, out, stderr := stop()
	if f := finishedLine(t, out); f.Verdict != "error" {
		t.Errorf("finished %+v", f)
	}
	if code != exitHarness || !strings.Contains(stderr, "verdict error") || !strings.Contains(stderr, "proxy.upstream-refused") ||
		!strings.Contains(stderr, "ERROR") || strings.Contains(stderr, "PASS") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestStrictRefusedAndNothingSeen: a 403 to every handshake, and a run
// with no connection at all: error verdicts, never PASS; without --strict
// the exit is 0 but the verdict still says error.
func TestStrictRefusedAndNothingSeen(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "origin not allowed", http.StatusForbidden)
	}))
	t.Cleanup(up.Close)
	l, stop := proxying(t, "--upstream", up.URL, "--strict", "--color", "never")
	_, resp, err := (&websocket.Dialer{HandshakeTimeout: timeout}).Dial(l.URL+"/ws", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("dial: %v %+v", err, resp)
	}
	code, out, stderr := stop()
	if f := finishedLine(t, out); f.Verdict != "error" || code != exitHarness {
		t.Errorf("exit %d, finished %+v", code, f)
	}
	for _, want := range []string{"403 Forbidden: origin not allowed", "no WebSocket connection was made", "✗ error"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	l2, stop2 := proxying(t, "--upstream", up.URL, "--color", "never")
	_ = l2
	code, out, stderr = stop2()
	if f := finishedLine(t, out); f.Verdict != "error" || code != exitOK || !strings.Contains(stderr, "no WebSocket connection was made") {
		t.Errorf("nothing seen: exit %d, finished %+v, stderr:\n%s", code, f, stderr)
	}
}
