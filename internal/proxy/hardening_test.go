package proxy

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/reports"
)

// TestJudgeOnlyTheProtocol: an app's notifications socket beside the
// agent's. Without --path, its frames (not minicodex messages) are
// relayed and recorded but not judged; with --path /ws it is not judged
// from the start. Either way the report says so once, with the path,
// and has no finding about it.
func TestJudgeOnlyTheProtocol(t *testing.T) {
	t.Parallel()
	up := startSameOrigin(t, "")
	for _, paths := range [][]string{nil, {"/ws"}} {
		tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", Paths: paths})
		for range 2 {
			n := dial(t, tp.url+"/ws/notifications", http.Header{"Origin": {tp.http}})
			for i := range 5 {
				n.send(map[string]any{"type": "notification", "id": i, "text": "build finished"})
				n.next()
			}
			n.closeWith(1000, "")
			n.closed()
		}
		c := dial(t, tp.url+"/ws", http.Header{"Origin": {tp.http}})
		c.send(map[string]any{"type": "hello", "v": "1.0.0"})
		c.next()
		c.closeWith(1000, "")
		c.closed()
		r := tp.Stop()
		if fs := findings(r); len(fs) != 0 || r.Verdict != reports.Passed {
			t.Errorf("paths %v: verdict %s, findings %s", paths, r.Verdict, describeFindings(fs))
		}
		if len(r.Sessions) != 1 || r.Sessions[0].ID != "sess_same" {
			t.Errorf("paths %v: sessions %+v", paths, r.Sessions)
		}
		want := "not judged: not minicodex traffic: /ws/notifications (c1, c2; "
		if len(r.Notes) != 1 || !strings.HasPrefix(r.Notes[0], want) {
			t.Fatalf("paths %v: notes %q, want one starting %q", paths, r.Notes, want)
		}
		reason := "its first 4 data frames are not minicodex messages (notification)"
		if paths != nil {
			reason = "outside --path /ws"
		}
		if !strings.Contains(r.Notes[0], reason) {
			t.Errorf("paths %v: note %q lacks %q", paths, r.Notes[0], reason)
		}
		if n := countFrames(tp.rec.String(), "c1"); n < 10 {
			t.Errorf("paths %v: %d frames of c1 recorded, want every one", paths, n)
		}
	}
}

// countFrames counts the frame lines of conn in a recording.
func countFrames(rec, conn string) int {
	n := 0
	for _, line := range strings.Split(rec, "\n") {
		if strings.Contains(line, `"kind":"frame"`) && strings.Contains(line, `"conn":"`+conn+`"`) {
			n++
		}
	}
	return n
}

// TestGateJudgesBrokenDialectTraffic: a connection off the spec's path
// whose first message is a dialect message is judged, findings and all.
func TestGateJudgesBrokenDialectTraffic(t *testing.T) {
	t.Parallel()
	up := startSameOrigin(t, "")
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex"})
	c := dial(t, tp.url+"/ws/notifications", http.Header{"Origin": {tp.http}})
	c.send(map[string]any{"type": "hello", "v": "1.0.0"})
	c.next() // the echo: a hello from the server, the wrong direction
	c.closeWith(1000, "")
	c.closed()
	r := tp.Stop()
	if len(r.Notes) != 0 || len(findings(r)) == 0 {
		t.Errorf("notes %q, findings %s", r.Notes, describeFindings(findings(r)))
	}
}

// floodUpstream sends 64 KiB messages as fast as it can; closed gets what
// its reader saw at the end.
func floodUpstream(t *testing.T) (string, chan error) {
	closed := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		go func() {
			for {
				if _, _, err := ws.ReadMessage(); err != nil {
					closed <- err
					return
				}
			}
		}()
		msg := []byte(strings.Repeat("x", 64<<10))
		for range 2000 {
			_ = ws.SetWriteDeadline(time.Now().Add(timeout))
			if ws.WriteMessage(websocket.TextMessage, msg) != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http"), closed
}

// TestMemoryBudget: a client that does not read while the upstream
// floods it. Its backlog reaches the global budget long before the
// per-connection queue limit: the connection is closed, the client with
// 1013, the upstream with 1001, a finding says why, and the budget is
// given back.
func TestMemoryBudget(t *testing.T) {
	t.Parallel()
	upURL, upClosed := floodUpstream(t)
	// The client's writer holds messages for a second (a pause fault, as a
	// client stuck in a long render would): the backlog grows in the
	// proxy's queue, as it does behind any slow client while the upstream
	// keeps sending.
	pause, err := fault.ParseAll([]string{"s2c:pause=1s@1"})
	if err != nil {
		t.Fatal(err)
	}
	tp := startProxy(t, Config{Upstream: upURL, Dialect: "minicodex", MemoryBudget: 1 << 20, Paths: []string{"/*"}, Faults: pause})
	ws, _, err := websocket.DefaultDialer.Dial(tp.url+"/flood", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	var ce *websocket.CloseError
	select {
	case err := <-upClosed:
		if !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
			t.Fatalf("upstream: %v, want close 1001", err)
		}
	case <-time.After(timeout):
		t.Fatal("the proxy did not close the flooding connection")
	}
	_ = ws.SetReadDeadline(time.Now().Add(timeout))
	for {
		if _, _, err = ws.ReadMessage(); err != nil {
			break
		}
	}
	if !errors.As(err, &ce) || ce.Code != websocket.CloseTryAgainLater {
		t.Fatalf("client: %v, want close 1013", err)
	}
	r := tp.Stop()
	if !hasRule(r, RuleMemoryBudget.ID) {
		t.Errorf("findings %s", describeFindings(findings(r)))
	}
	if cl := r.Sessions[0].Conns[0]; cl.CloseCode != websocket.CloseTryAgainLater || cl.CloseBy != "proxy" {
		t.Errorf("connection %+v", cl)
	}
	if n := tp.p.budget.Load(); n != 0 {
		t.Errorf("%d bytes still counted against the budget", n)
	}
}

// TestConnectionLimit: beyond --max-conns a client gets 503 and the
// refusal is a finding; next to the judged connection it is a warning
// (non-strict), not an error of the run (TestRefusalVerdicts).
func TestConnectionLimit(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", MaxConns: 1})
	c := dial(t, tp.url+"/ws", nil)
	_, resp, err := tryDial(t, tp.url+"/ws", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("second connection: %v %+v", err, resp)
	}
	c.closeWith(1000, "")
	c.closed()
	r := tp.Stop()
	fs := findings(r)
	if r.Verdict != reports.NonStrict || len(fs) != 1 || fs[0].Rule != RuleUpstreamRefused.ID || !strings.Contains(fs[0].Message, "--max-conns") {
		t.Errorf("verdict %s, findings %s", r.Verdict, describeFindings(fs))
	}
}

// TestIdleTimeout: a connection on which nobody speaks is closed with
// 1001 after --idle-timeout; one that speaks is not.
func TestIdleTimeout(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", IdleTimeout: 300 * time.Millisecond})
	silent := dial(t, tp.url+"/ws", nil)
	talker := dial(t, tp.url+"/ws", nil)
	talker.sendRaw(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`))
	talker.next()
	start := time.Now()
	if code, _ := silent.closed(); code != websocket.CloseGoingAway {
		t.Errorf("silent connection closed %d, want 1001", code)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("closed after %v", d)
	}
	time.Sleep(300 * time.Millisecond)
	talker.sendRaw(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`))
	talker.next()
	talker.closeWith(1000, "")
	talker.closed()
	r := tp.Stop()
	if !hasRule(r, RuleIdle.ID) {
		t.Errorf("findings %s", describeFindings(findings(r)))
	}
}

// TestDNSRebinding: a request naming another host than the proxy's
// address is refused (403) and reported once; localhost and IP literals
// pass, and --allow-host admits a name.
func TestDNSRebinding(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	for _, allow := range [][]string{nil, {"evil.example"}} {
		tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", AllowHosts: allow})
		_, port, _ := net.SplitHostPort(strings.TrimPrefix(tp.http, "http://"))
		get := func(host string) int {
			req, _ := http.NewRequest(http.MethodGet, tp.http+"/x", nil)
			req.Host = host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port, "app.localhost:" + port} {
			if got := get(host); got != http.StatusOK {
				t.Errorf("Host %s: %d", host, got)
			}
		}
		want := http.StatusForbidden
		if allow != nil {
			want = http.StatusOK
		}
		for range 2 {
			if got := get("evil.example:" + port); got != want {
				t.Errorf("allow %v: Host evil.example: %d, want %d", allow, got, want)
			}
		}
		ws, resp, _ := websocket.DefaultDialer.Dial(tp.url+"/ws", http.Header{"Host": {"evil.example"}})
		if ws != nil {
			ws.Close()
		}
		_ = resp
		r := tp.Stop()
		if allow == nil && (len(r.Errors) < 1 || !strings.Contains(r.Errors[0], "DNS rebinding") || r.Verdict != reports.Error) {
			t.Errorf("errors %q verdict %s", r.Errors, r.Verdict)
		}
	}
}

// TestUnjudgedReasonBounded: the message types an unjudged connection's
// reason quotes come from the peer; a type of 1 MiB is cut, in the report's
// note and in the recording's session line (which `wsconform validate`
// must still read).
func TestUnjudgedReasonBounded(t *testing.T) {
	t.Parallel()
	up := startSameOrigin(t, "")
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex"})
	n := dial(t, tp.url+"/ws/notifications", http.Header{"Origin": {tp.http}})
	for i := range 4 {
		n.send(map[string]any{"type": strings.Repeat(string(rune('a'+i)), 1<<20)})
		n.next()
	}
	n.closeWith(1000, "")
	n.closed()
	r := tp.Stop()
	if len(r.Notes) != 1 || len(r.Notes[0]) > 1000 || !strings.Contains(r.Notes[0], strings.Repeat("a", maxNotedType)+"…") {
		t.Errorf("note of %d bytes: %.300q", len(r.Notes[0]), r.Notes)
	}
	for _, line := range strings.Split(tp.rec.String(), "\n") {
		if strings.Contains(line, `"unjudged"`) && len(line) > 2000 {
			t.Errorf("session line of %d bytes", len(line))
		}
	}
}
