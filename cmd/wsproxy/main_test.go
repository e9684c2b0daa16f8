package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/server"
	"github.com/wsconform/wsconform/reports"
)

const timeout = 10 * time.Second

// syncBuffer collects stderr while run writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// proxying runs wsproxy in-process with args (plus --listen on a free
// port) and returns its listening line; stop ends it like SIGINT and
// returns the exit code, stdout after the listening line, and stderr.
func proxying(t *testing.T, args ...string) (l listening, stop func() (int, string, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	errb := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		err := run(ctx, append([]string{"--listen", "127.0.0.1:0"}, args...), pw, errb)
		pw.Close()
		done <- exitCode(err, errb)
	}()
	br := bufio.NewReader(pr)
	line, err := br.ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no listening line: %v; stderr:\n%s", err, errb.String())
	}
	if err := json.Unmarshal([]byte(line), &l); err != nil || l.Type != "listening" {
		t.Fatalf("listening line %q: %v", line, err)
	}
	rest := make(chan string, 1)
	go func() { b, _ := io.ReadAll(br); rest <- string(b) }()
	var once sync.Once
	var code int
	var out string
	stop = func() (int, string, string) {
		once.Do(func() {
			cancel()
			select {
			case code = <-done:
			case <-time.After(2 * timeout):
				t.Fatal("wsproxy did not stop within 20s of the signal")
			}
			out = <-rest
		})
		return code, out, errb.String()
	}
	t.Cleanup(func() { stop() })
	return l, stop
}

func startRef(t *testing.T, name string, mutate ...string) *reference.Server {
	t.Helper()
	srv, err := reference.Start(context.Background(), "127.0.0.1:0", reference.Options{Dialects: []string{name}, Mutate: mutate,
		Config: server.Config{Heartbeat: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	return srv
}

func dialWS(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := (&websocket.Dialer{HandshakeTimeout: timeout}).Dial(url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	t.Cleanup(func() { ws.Close() })
	_ = ws.SetReadDeadline(time.Now().Add(timeout))
	return ws
}

func sendJSON(t *testing.T, ws *websocket.Conn, v any) {
	t.Helper()
	if err := ws.WriteJSON(v); err != nil {
		t.Fatal(err)
	}
}

// readUntil reads until a message of type typ; each message may take up to
// timeout (a wait per message, not for the whole exchange, so a loaded
// machine slows the test instead of failing it).
func readUntil(t *testing.T, ws *websocket.Conn, typ string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for {
		_ = ws.SetReadDeadline(time.Now().Add(timeout))
		var m map[string]any
		if err := ws.ReadJSON(&m); err != nil {
			t.Fatalf("read: %v", err)
		}
		out = append(out, m)
		if m["type"] == typ {
			return out
		}
	}
}

// closeCode reads until the connection ends and returns its close code.
func closeCode(ws *websocket.Conn) int {
	_ = ws.SetReadDeadline(time.Now().Add(timeout))
	for {
		if _, _, err := ws.ReadMessage(); err != nil {
			if ce, ok := err.(*websocket.CloseError); ok {
				return ce.Code
			}
			return -1
		}
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := exitCode(run(context.Background(), []string{"--help"}, &out, &errb), &errb); code != 0 {
		t.Fatalf("--help exited %d: %s", code, errb.String())
	}
	for _, flag := range []string{"--upstream", "--listen", "--dialect", "--record", "--html", "--junit", "--json", "--fault",
		"--seed", "--quiet", "--strict", "--insecure", "--tls-cert", "--tls-key", "--max-frame", "--write-timeout",
		"--dial-timeout", "--queue", "--validation-queue", "--color", "--version", "drop-after=N", "Exit codes",
		"--path", "--host", "--origin", "--allow-host", "--allow-origin", "--markdown", "-q, --quiet", "-k, --insecure", "--memory-budget", "--max-conns", "--idle-timeout", "keep (the client's", "--web", "--web-allow-remote"} {
		if !strings.Contains(out.String(), flag) {
			t.Errorf("--help lacks %s", flag)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{},
		{"--upstream", "ws://127.0.0.1:1", "--bogus"},
		{"--upstream", "ws://127.0.0.1:1", "--dialect", "klingon"},
		{"--upstream", "ws://127.0.0.1:1", "--fault", "explode=1"},
		{"--upstream", "ws://127.0.0.1:1", "--tls-cert", "x.pem"},
		{"--upstream", "ws://127.0.0.1:1", "--host", "rewrite"},
		{"--upstream", "ws://127.0.0.1:1", "--origin", "proxy"},
		{"--upstream", "ws://127.0.0.1:1", "--path", "ws"},
		{"--upstream", "ws://127.0.0.1:1", "--path", "/ws/["},
		{"--upstream", "ws://127.0.0.1:1", "--max-conns", "0"},
		{"--upstream", "ws://127.0.0.1:1", "--allow-origin", "evil.example"},
		{"--upstream", "ws://127.0.0.1:1", "--record", "/tmp/x.jsonl", "--max-frame", "16777217"},
		{"--upstream", "ws://127.0.0.1:1", "--allow-origin", "https://a.example,https://b.example/app"},
		{"--upstream", "ftp://127.0.0.1:1"},
		{"--upstream", "ws://127.0.0.1:1", "--color", "purple"},
		{"--upstream", "ws://127.0.0.1:1", "extra"},
	} {
		var out, errb bytes.Buffer
		code := exitCode(run(context.Background(), args, &out, &errb), &errb)
		if code != exitUsage || !strings.Contains(errb.String(), "Run 'wsproxy --help'") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

func TestListenAddressInUse(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out, errb bytes.Buffer
	code := exitCode(run(context.Background(), []string{"--upstream", "ws://127.0.0.1:1", "--listen", ln.Addr().String()}, &out, &errb), &errb)
	if code != exitHarness || !strings.Contains(errb.String(), "listen on") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestRunEndToEnd: wsproxy in front of a reference server that commits a
// planted violation: the live log shows it, SIGINT (context cancel) closes
// the client with 1001, every report is written, --strict exits 1, and the
// recording judged offline gives the same finding.
func TestRunEndToEnd(t *testing.T) {
	t.Parallel()
	ref := startRef(t, "minicodex", "minicodex-event-id-repeats")
	dir := t.TempDir()
	rec, js, html, junit := filepath.Join(dir, "rec.jsonl"), filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html"), filepath.Join(dir, "r.xml")
	md := filepath.Join(dir, "r.md")
	l, stop := proxying(t, "--upstream", ref.URL, "--record", rec, "--json", js, "--html", html, "--junit", junit, "--markdown", md, "--strict", "--color", "never")
	if !strings.HasPrefix(l.URL, "ws://127.0.0.1:") || l.Upstream != ref.URL || l.Dialect != "auto" {
		t.Errorf("listening line %+v", l)
	}
	ws := dialWS(t, l.URL+"/ws")
	sendJSON(t, ws, map[string]any{"type": "hello", "v": "1.0.0"})
	readUntil(t, ws, "snapshot")
	sendJSON(t, ws, map[string]any{"type": "send", "text": "hi"})
	readUntil(t, ws, "turn_done")
	code, stdout, stderr := stop()
	if testing.Verbose() {
		t.Logf("stderr:\n%s\nstdout:\n%s", stderr, stdout)
	}
	if got := closeCode(ws); got != websocket.CloseGoingAway {
		t.Errorf("client got %d at shutdown, want 1001", got)
	}
	if code != exitFail {
		t.Errorf("exit %d, want 1 (--strict with an error finding); stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"minicodex.event-id-order", "expected:", "FAIL", "dialect minicodex",
		"wrote the HTML report to " + html + "\n", "wrote the Markdown summary to " + md + "\n", "wrote the recording to " + rec} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	var fin finished
	if err := json.Unmarshal([]byte(strings.TrimSpace(stdout)), &fin); err != nil || fin.Type != "finished" || fin.Verdict != reports.Failed || fin.Errors == 0 {
		t.Errorf("finished line %q: %v", stdout, err)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var r reports.Report
	if err := json.Unmarshal(b, &r); err != nil || r.Kind != reports.KindProxy || r.Verdict != reports.Failed || len(r.Sessions) != 1 {
		t.Errorf("JSON report: %v %+v", err, r)
	}
	for _, p := range []string{html, junit, md} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("report %s: %v", p, err)
		}
	}
	res, err := validate.File(context.Background(), rec, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) == 0 || res.Findings[0].Rule != "minicodex.event-id-order" || res.Dialect != "minicodex" {
		t.Errorf("offline: %s %+v", res.Dialect, res.Findings)
	}
}

// TestQuietAndNoStrict: --quiet prints findings and the summary, not
// frames; without --strict findings exit 0.
func TestQuietAndNoStrict(t *testing.T) {
	t.Parallel()
	ref := startRef(t, "minicodex", "minicodex-event-id-repeats")
	l, stop := proxying(t, "--upstream", ref.URL, "--dialect", "minicodex", "--quiet")
	ws := dialWS(t, l.URL+"/ws")
	sendJSON(t, ws, map[string]any{"type": "hello", "v": "1.0.0"})
	sendJSON(t, ws, map[string]any{"type": "send", "text": "hi"})
	readUntil(t, ws, "turn_done")
	code, _, stderr := stop()
	if code != exitOK {
		t.Errorf("exit %d without --strict", code)
	}
	if strings.Contains(stderr, "→ hello") || !strings.Contains(stderr, "minicodex.event-id-order") || !strings.Contains(stderr, "FAIL") {
		t.Errorf("--quiet stderr:\n%s", stderr)
	}
}

// TestUpstreamDownAtStart: an unreachable upstream is a warning, not a
// failure; connections get 502 and the proxy keeps running.
func TestUpstreamDownAtStart(t *testing.T) {
	t.Parallel()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	l, stop := proxying(t, "--upstream", "ws://"+addr)
	_, resp, err := (&websocket.Dialer{HandshakeTimeout: timeout}).Dial(l.URL+"/ws", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusBadGateway {
		t.Errorf("dial: %v %+v", err, resp)
	}
	code, _, stderr := stop()
	if code != exitOK || !strings.Contains(stderr, "not reachable yet") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}
