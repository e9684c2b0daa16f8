package proxy

import (
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/reports"
)

// TestNonJSONAndBinaryAreRelayedAndReported: frames no dialect accepts pass
// unchanged, get findings, and the connection goes on.
func TestNonJSONAndBinaryAreRelayedAndReported(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex"})
	c := dial(t, tp.url+"/ws", nil)
	c.sendRaw(websocket.TextMessage, []byte("not json {"))
	c.sendRaw(websocket.BinaryMessage, []byte{0, 1, 2, 0xff})
	c.sendRaw(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`))
	if m := c.next(); string(m.data) != "not json {" {
		t.Fatalf("got %q", m.data)
	}
	if m := c.next(); m.op != websocket.BinaryMessage || len(m.data) != 4 {
		t.Fatalf("got %v", m)
	}
	c.next()
	c.closeWith(1000, "")
	c.closed()
	r := tp.Stop()
	for _, rule := range []string{"frame.json", "frame.binary"} {
		if !hasRule(r, rule) {
			t.Errorf("no %s finding: %s", rule, describeFindings(findings(r)))
		}
	}
}

// TestOversizeMessage: a message over --max-frame, from either side, closes
// both legs with 1009 and is reported.
func TestOversizeMessage(t *testing.T) {
	t.Parallel()
	for _, from := range []string{"client", "upstream"} {
		t.Run(from, func(t *testing.T) {
			t.Parallel()
			up := startEcho(t)
			tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", MaxFrame: 64 << 10})
			c := dial(t, tp.url+"/ws", nil)
			if from == "client" {
				// The proxy answers 1009 as soon as it reads the length,
				// so this write may fail half-way: that is the point.
				_ = c.ws.WriteMessage(websocket.TextMessage, []byte(strings.Repeat("x", 100<<10)))
			} else {
				c.sendRaw(websocket.TextMessage, []byte("big:100000"))
			}
			if code, _ := c.closed(); code != websocket.CloseMessageTooBig {
				t.Errorf("client got %d, want 1009", code)
			}
			if got := up.waitEnd(); got.code != websocket.CloseMessageTooBig {
				t.Errorf("upstream got %d, want 1009", got.code)
			}
			r := tp.Stop()
			if !hasRule(r, RuleFrameTooLarge.ID) {
				t.Errorf("no %s finding: %s", RuleFrameTooLarge.ID, describeFindings(findings(r)))
			}
			if cn := r.Sessions[0].Conns[0]; cn.CloseCode != 1009 || cn.CloseBy != recording.ByProxy {
				t.Errorf("recorded end %+v", cn)
			}
		})
	}
}

// TestUpstreamRefuses: the client gets the upstream's own HTTP answer.
func TestUpstreamRefuses(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex"})
	_, resp, err := tryDial(t, tp.url+"/refuse", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden || resp.Header.Get("X-Why") != "refused" {
		t.Fatalf("dial: %v %+v", err, resp)
	}
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "no entry") {
		t.Errorf("body %q", body)
	}
	r := tp.Stop()
	// Nothing was tested: the verdict is error, never passed, and the
	// report names the status and the body.
	if r.Verdict != reports.Error || len(r.Sessions) != 1 || r.Sessions[0].Verdict != reports.Error {
		t.Fatalf("verdict %s, sessions %+v", r.Verdict, r.Sessions)
	}
	fs := r.Sessions[0].Findings
	if len(fs) != 1 || fs[0].Rule != RuleUpstreamRefused.ID || fs[0].Actual != "403 Forbidden: no entry" || fs[0].Conn != "c1" {
		t.Errorf("findings %s", describeFindings(fs))
	}
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0], "no WebSocket connection was made") {
		t.Errorf("errors %v", r.Errors)
	}
	if !strings.Contains(tp.console.String(), "the upstream refused the WebSocket handshake with 403 Forbidden") {
		t.Errorf("console:\n%s", tp.console.String())
	}
}

// TestUpstreamUnreachable: 502 for the client, an error in the report, and
// the proxy keeps running.
func TestUpstreamUnreachable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	tp := startProxy(t, Config{Upstream: "ws://" + addr, Dialect: "minicodex"})
	for range 2 {
		_, resp, err := tryDial(t, tp.url+"/ws", nil)
		if err == nil || resp == nil || resp.StatusCode != http.StatusBadGateway {
			t.Fatalf("dial: %v %+v", err, resp)
		}
	}
	r := tp.Stop()
	if r.Verdict != reports.Error || len(r.Sessions) != 1 || len(r.Sessions[0].Findings) != 2 {
		t.Fatalf("verdict %s, sessions %+v", r.Verdict, r.Sessions)
	}
	if f := r.Sessions[0].Findings[0]; f.Rule != RuleUpstreamRefused.ID || !strings.Contains(f.Message, "cannot reach the upstream") ||
		!strings.HasPrefix(f.Actual, "502 Bad Gateway") {
		t.Errorf("finding %+v", f.Finding)
	}
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0], "no WebSocket connection was made") {
		t.Errorf("errors %v", r.Errors)
	}
}

// TestUpstreamNeverAnswers: a handshake the upstream never completes ends
// with 504 for the client within the dial timeout.
func TestUpstreamNeverAnswers(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", DialTimeout: 300 * time.Millisecond})
	start := time.Now()
	_, resp, err := tryDial(t, tp.url+"/hang", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusGatewayTimeout {
		t.Fatalf("dial: %v %+v", err, resp)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the client waited %v", d)
	}
	tp.Stop()
}

// TestUpstreamDiesMidSession: the client gets 1011 (never 1006 on the
// wire), or with MirrorDrops its TCP connection is cut too, after the
// messages queued before the drop; the recording says 1006 by network.
func TestUpstreamDiesMidSession(t *testing.T) {
	t.Parallel()
	for _, mirror := range []bool{false, true} {
		t.Run("mirror="+strconv.FormatBool(mirror), func(t *testing.T) {
			t.Parallel()
			up := startEcho(t)
			tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", MirrorDrops: mirror})
			c := dial(t, tp.url+"/ws", nil)
			c.sendRaw(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`))
			c.next()
			c.sendRaw(websocket.TextMessage, []byte("vanish"))
			code, reason := c.closed()
			switch {
			case mirror && code != websocket.CloseAbnormalClosure:
				t.Errorf("client got %d %q (%v), want its TCP connection cut (1006)", code, reason, c.closeErr())
			case !mirror && (code != websocket.CloseInternalServerErr || !strings.Contains(reason, "upstream")):
				t.Errorf("client got %d %q (%v), want 1011", code, reason, c.closeErr())
			}
			r := tp.Stop()
			if cn := r.Sessions[0].Conns[0]; cn.CloseCode != 1006 || cn.CloseBy != recording.ByNetwork {
				t.Errorf("recorded end %+v, want 1006 by network", cn)
			}
		})
	}
}

// TestClientVanishes: the upstream gets 1001 going away, or with
// MirrorDrops (the gate's, so serve --replay's fixture sees what the
// recorded client did) its TCP connection is cut too: 1006.
func TestClientVanishes(t *testing.T) {
	t.Parallel()
	for _, mirror := range []bool{false, true} {
		t.Run("mirror="+strconv.FormatBool(mirror), func(t *testing.T) {
			t.Parallel()
			up := startEcho(t)
			tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", MirrorDrops: mirror})
			c := dial(t, tp.url+"/ws", nil)
			c.sendRaw(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`))
			c.next()
			_ = c.ws.NetConn().Close()
			want := websocket.CloseGoingAway
			if mirror {
				want = websocket.CloseAbnormalClosure
			}
			if got := up.waitEnd(); got.code != want {
				t.Errorf("upstream got %d %q, want %d", got.code, got.text, want)
			}
			r := tp.Stop()
			if cn := r.Sessions[0].Conns[0]; cn.CloseCode != 1006 || cn.CloseBy != recording.ByNetwork {
				t.Errorf("recorded end %+v, want 1006 by network", cn)
			}
		})
	}
}

// TestSlowReader: a client that stops reading while the upstream floods
// is disconnected after the write timeout and reported; the upstream gets
// 1001; another connection keeps relaying meanwhile.
func TestSlowReader(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", WriteTimeout: 300 * time.Millisecond, QueueMessages: 16})
	ws, _, err := (&websocket.Dialer{HandshakeTimeout: timeout}).Dial(tp.url+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.WriteMessage(websocket.TextMessage, []byte("flood:12000")); err != nil {
		t.Fatal(err)
	}
	// A healthy neighbour keeps working while the slow one is stuck.
	healthy := dial(t, tp.url+"/ws", nil)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 50 {
			healthy.sendRaw(websocket.TextMessage, typed("a", i))
			healthy.next()
		}
	}()
	wg.Wait()
	if got := up.waitEnd(); got.code != websocket.CloseGoingAway {
		t.Errorf("upstream of the slow client got %d %q, want 1001", got.code, got.text)
	}
	healthy.closeWith(1000, "")
	healthy.closed()
	r := tp.Stop()
	if !hasRule(r, RuleSlowPeer.ID) {
		t.Fatalf("no %s finding: %s", RuleSlowPeer.ID, describeFindings(findings(r)))
	}
	n := 0
	for _, f := range findings(r) {
		if f.Rule == RuleSlowPeer.ID {
			n++
			if f.Conn != "c1" || f.Dir != "c2s" {
				t.Errorf("slow-peer finding %+v, want it on c1 blaming the client", f.Finding)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d slow-peer findings, want 1", n)
	}
}

// TestSlowUpstream: an upstream that stops reading while the client sends
// is disconnected after the write timeout; the client gets 1013 (try again
// later) and the finding blames the upstream.
func TestSlowUpstream(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", WriteTimeout: 300 * time.Millisecond, QueueMessages: 16})
	c := dial(t, tp.url+"/ws", nil)
	c.sendRaw(websocket.TextMessage, []byte("stall"))
	go func() {
		payload := []byte(`{"type":"send","text":"` + strings.Repeat("x", 1000) + `"}`)
		for range 12000 {
			_ = c.ws.SetWriteDeadline(time.Now().Add(timeout))
			if c.ws.WriteMessage(websocket.TextMessage, payload) != nil {
				return
			}
		}
	}()
	if code, _ := c.closed(); code != websocket.CloseTryAgainLater {
		t.Errorf("client got %d (%v), want 1013", code, c.closeErr())
	}
	r := tp.Stop()
	var found bool
	for _, f := range findings(r) {
		if f.Rule == RuleSlowPeer.ID {
			found = true
			if f.Dir != "s2c" || !strings.Contains(f.Message, "upstream") {
				t.Errorf("slow-peer finding %+v, want it to blame the upstream", f.Finding)
			}
		}
	}
	if !found {
		t.Errorf("no %s finding: %s", RuleSlowPeer.ID, describeFindings(findings(r)))
	}
}

// TestClientLeavesDuringHandshake: a client that goes away while the
// upstream handshake is pending leaves nothing behind (Stop checks).
func TestClientLeavesDuringHandshake(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", DialTimeout: 5 * time.Second})
	host := strings.TrimPrefix(tp.url, "ws://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = conn.Write([]byte("GET /hang HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"))
	// The proxy has logged the request once its dial reaches the upstream.
	select {
	case <-up.hanging:
	case <-time.After(timeout):
		t.Fatalf("the proxy never dialled the upstream for /hang:\n%s", tp.console.String())
	}
	conn.Close()
	// The proxy gives up the upstream handshake by itself, before any Stop.
	const said = "the client went away during the upstream handshake"
	for deadline := time.Now().Add(timeout); !strings.Contains(tp.console.String(), said); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("console does not say %q:\n%s", said, tp.console.String())
		}
	}
	start := time.Now()
	tp.Stop()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("shutdown waited %v for an abandoned handshake", d)
	}
}
