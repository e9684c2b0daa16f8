package proxy

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/recording"
)

// TestShutdownClosesBothLegs: Shutdown closes every connection with 1001
// on both legs, drains, flushes the recording (with a close line per
// connection) and leaves no goroutine behind (Stop checks).
func TestShutdownClosesBothLegs(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex"})
	var clients []*client
	for range 3 {
		c := dial(t, tp.url+"/ws", nil)
		c.sendRaw(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`))
		c.next()
		clients = append(clients, c)
	}
	r := tp.Stop()
	for i, c := range clients {
		if code, _ := c.closed(); code != websocket.CloseGoingAway {
			t.Errorf("client %d got %d, want 1001", i, code)
		}
		if got := up.waitEnd(); got.code != websocket.CloseGoingAway {
			t.Errorf("upstream got %d, want 1001", got.code)
		}
	}
	closes := strings.Count(tp.rec.String(), `"kind":"close"`)
	if closes != 3 {
		t.Errorf("%d close lines, want 3", closes)
	}
	for _, s := range r.Sessions {
		for _, cn := range s.Conns {
			if cn.CloseCode != 1001 || cn.CloseBy != recording.ByProxy {
				t.Errorf("%s ended %d by %s, want 1001 by proxy", cn.ID, cn.CloseCode, cn.CloseBy)
			}
		}
	}
	// After shutdown, new connections are refused.
	if _, _, err := tryDial(t, tp.url+"/ws", nil); err == nil {
		t.Error("a connection after shutdown was accepted")
	}
}

// TestValidationGap: with a validation queue of one frame, a burst is
// relayed and recorded in full, and the frames not checked are reported.
func TestValidationGap(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", ValidationFrames: 1})
	c := dial(t, tp.url+"/ws", nil)
	c.sendRaw(websocket.TextMessage, []byte("flood:3000"))
	for range 3000 {
		c.next()
	}
	c.closeWith(1000, "")
	c.closed()
	r := tp.Stop()
	var gap int
	for _, f := range findings(r) {
		if f.Rule == RuleValidationGap.ID {
			var n int
			if _, err := fmt.Sscanf(f.Actual, "%d not checked", &n); err != nil {
				t.Fatalf("gap finding %+v", f.Finding)
			}
			gap += n
		}
	}
	if gap == 0 {
		t.Fatalf("no %s finding: %s", RuleValidationGap.ID, describeFindings(findings(r)))
	}
	if got := tp.p.tap.uncheckedFrames(); int64(gap) != got {
		t.Errorf("gap findings count %d frames, the tap skipped %d", gap, got)
	}
	if n := strings.Count(tp.rec.String(), `"kind":"frame"`); n != 3003 {
		t.Errorf("recorded %d frames, want all 3003", n)
	}
	if !strings.Contains(tp.console.String(), "not checked") {
		t.Errorf("console does not mention the gap")
	}
}

// TestManyConnections: a few hundred concurrent connections all relay,
// each in a session of its own.
func TestManyConnections(t *testing.T) {
	t.Parallel()
	const n = 300
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "coworker"})
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, _, err := (&websocket.Dialer{HandshakeTimeout: timeout}).Dial(tp.url+"/ws", nil)
			if err != nil {
				errs <- err
				return
			}
			defer ws.Close()
			_ = ws.SetReadDeadline(time.Now().Add(timeout))
			for j := range 5 {
				want := fmt.Sprintf(`{"type":"ping","sessionId":"s%d","n":%d}`, i, j)
				if err := ws.WriteMessage(websocket.TextMessage, []byte(want)); err != nil {
					errs <- err
					return
				}
				_, got, err := ws.ReadMessage()
				if err != nil || string(got) != want {
					errs <- fmt.Errorf("conn %d message %d: %q %v", i, j, got, err)
					return
				}
			}
			_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1000, ""), time.Now().Add(timeout))
			_, _, _ = ws.ReadMessage()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	r := tp.Stop()
	if len(r.Sessions) != n {
		t.Errorf("%d sessions, want %d (coworker: one per connection)", len(r.Sessions), n)
	}
}
