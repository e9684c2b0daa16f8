package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/dialect"
)

// serving starts `wsconform serve args...` in-process on an ephemeral
// port and returns its listening line; stop ends it like SIGINT would and
// returns the exit code and stderr.
func serving(t *testing.T, args ...string) (l listening, stop func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		err := run(ctx, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...), pw, &errb)
		pw.Close()
		done <- exitCode(err, &errb)
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no listening line: %v; stderr:\n%s", err, errb.String())
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if err := json.Unmarshal([]byte(line), &l); err != nil {
		t.Fatalf("listening line is not JSON: %v: %s", err, line)
	}
	var (
		stopped bool
		code    int
	)
	stop = func() (int, string) {
		if stopped {
			return code, errb.String()
		}
		stopped = true
		cancel()
		select {
		case code = <-done:
			return code, errb.String()
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop within 10s of the signal")
			return 0, ""
		}
	}
	t.Cleanup(func() { stop() })
	return l, stop
}

func TestServeAllDialects(t *testing.T) {
	t.Parallel()
	l, stop := serving(t)
	if l.Type != "listening" || !strings.HasPrefix(l.URL, "ws://127.0.0.1:") {
		t.Fatalf("listening line %+v", l)
	}
	if strings.Join(l.Dialects, ",") != strings.Join(dialect.Names(), ",") {
		t.Errorf("dialects %v, want every dialect", l.Dialects)
	}
	for _, name := range dialect.Names() {
		eps := l.Endpoints[name]
		if len(eps) == 0 {
			t.Errorf("%s: no endpoints", name)
		}
		for _, ep := range eps {
			if !strings.HasPrefix(ep, l.URL+"/"+name+"/") {
				t.Errorf("%s endpoint %s is not mounted under /%s/", name, ep, name)
			}
			// A plain GET reaches the WebSocket handler, which refuses it
			// (400 or 401), rather than falling through to 404.
			resp, err := http.Get("http" + strings.TrimPrefix(ep, "ws"))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusNotFound {
				t.Errorf("%s: GET %s is 404: the path is not served", name, ep)
			}
		}
	}
	if code, stderr := stop(); code != exitOK {
		t.Errorf("exit %d after the signal, want 0:\n%s", code, stderr)
	}
}

func TestServeOneDialectAtRootAndShutdown(t *testing.T) {
	t.Parallel()
	l, stop := serving(t, "--dialect", "minicodex")
	if len(l.Dialects) != 1 || l.Endpoints["minicodex"][0] != l.URL+"/ws" {
		t.Fatalf("one dialect must be served at the root: %+v", l)
	}
	ws, _, err := websocket.DefaultDialer.Dial(l.URL+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	code, stderr := stop()
	if code != exitOK {
		t.Errorf("exit %d, want 0:\n%s", code, stderr)
	}
	_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, _, err := ws.ReadMessage(); err != nil {
			if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
				t.Errorf("client saw %v, want close 1001", err)
			}
			break
		}
	}
}

func TestServeUsage(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { taken.Close() })
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown dialect", []string{"serve", "--dialect", "nope"}, exitUsage, `unknown dialect "nope"`},
		{"bad fault", []string{"serve", "--fault", "drop-after=x"}, exitUsage, "syntax: drop-after=N"},
		{"unknown mutation", []string{"serve", "--mutate", "nope"}, exitUsage, `unknown mutation "nope"`},
		{"wrong flag", []string{"serve", "--dialekt", "x"}, exitUsage, "unknown flag: --dialekt"},
		{"argument", []string{"serve", "extra"}, exitUsage, `unexpected argument "extra"`},
		{"port taken", []string{"serve", "--listen", taken.Addr().String()}, exitHarness, "address already in use"},
		{"help", []string{"serve", "--help"}, exitOK, "/slow N"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := wsconform(t, c.args...)
			if code != c.code || !strings.Contains(stdout+stderr, c.msg) {
				t.Errorf("exit %d, want %d with %q in:\n%s%s", code, c.code, c.msg, stdout, stderr)
			}
		})
	}
}
