package proxy

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/recording"
)

func faultProxy(t *testing.T, specs ...string) (*echoServer, *testProxy) {
	t.Helper()
	parsed, err := fault.ParseAll(specs)
	if err != nil {
		t.Fatal(err)
	}
	up := startEcho(t)
	return up, startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", Faults: parsed, Seed: 7})
}

func typed(typ string, n int) []byte { return []byte(fmt.Sprintf(`{"type":%q,"n":%d}`, typ, n)) }

func sendAll(c *client, msgs ...[]byte) {
	for _, m := range msgs {
		c.sendRaw(websocket.TextMessage, m)
	}
}

func readN(c *client, n int) []string {
	var out []string
	for range n {
		out = append(out, string(c.next().data))
	}
	return out
}

// TestFaults drives every fault kind through the proxy against an echo
// upstream: the client sees the misbehaviour, the recording does not.
func TestFaults(t *testing.T) {
	t.Parallel()
	t.Run("duplicate by number", func(t *testing.T) {
		t.Parallel()
		_, tp := faultProxy(t, "duplicate=2")
		c := dial(t, tp.url+"/ws", nil)
		sendAll(c, typed("a", 1), typed("a", 2), typed("a", 3))
		got := readN(c, 4)
		want := []string{string(typed("a", 1)), string(typed("a", 2)), string(typed("a", 2)), string(typed("a", 3))}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("got %v, want %v", got, want)
		}
		c.closeWith(1000, "")
		c.closed()
		r := tp.Stop()
		// The recording holds what the upstream sent: 3 echoes, not 4.
		if n := r.Sessions[0].Conns[0].Frames; n != 8 {
			t.Errorf("recorded %d frames, want 3+3 messages and 2 close frames", n)
		}
		if !strings.Contains(tp.console.String(), "fault: sent frame") {
			t.Errorf("console lacks the fault note:\n%s", tp.console.String())
		}
	})
	t.Run("duplicate and reorder by type", func(t *testing.T) {
		t.Parallel()
		_, tp := faultProxy(t, "duplicate=b", "reorder=c")
		c := dial(t, tp.url+"/ws", nil)
		sendAll(c, typed("a", 1), typed("b", 2), typed("c", 3), typed("d", 4), typed("b", 5))
		got := readN(c, 6)
		want := []string{string(typed("a", 1)), string(typed("b", 2)), string(typed("b", 2)),
			string(typed("d", 4)), string(typed("c", 3)), string(typed("b", 5))}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("got %v\nwant %v", got, want)
		}
	})
	t.Run("client to server duplicate", func(t *testing.T) {
		t.Parallel()
		_, tp := faultProxy(t, "c2s:duplicate=1")
		c := dial(t, tp.url+"/ws", nil)
		sendAll(c, typed("a", 1), typed("a", 2))
		got := readN(c, 3)
		if got[0] != got[1] || got[2] != string(typed("a", 2)) {
			t.Errorf("the upstream should have echoed the first message twice: %v", got)
		}
	})
	t.Run("delay and jitter", func(t *testing.T) {
		t.Parallel()
		_, tp := faultProxy(t, "delay=40ms", "jitter=20ms")
		c := dial(t, tp.url+"/ws", nil)
		start := time.Now()
		for i := range 3 {
			sendAll(c, typed("a", i))
			if m := c.next(); string(m.data) != string(typed("a", i)) {
				t.Fatalf("got %s", m.data)
			}
		}
		if d := time.Since(start); d < 120*time.Millisecond {
			t.Errorf("3 delayed round trips took %v, want at least 120ms", d)
		}
	})
	t.Run("pause", func(t *testing.T) {
		t.Parallel()
		_, tp := faultProxy(t, "pause=150ms@1")
		c := dial(t, tp.url+"/ws", nil)
		sendAll(c, typed("a", 1), typed("a", 2))
		c.next()
		start := time.Now()
		c.next()
		if d := time.Since(start); d < 100*time.Millisecond {
			t.Errorf("second message after %v, want the 150ms pause", d)
		}
	})
	t.Run("close", func(t *testing.T) {
		t.Parallel()
		up, tp := faultProxy(t, "close=4000@2")
		c := dial(t, tp.url+"/ws", nil)
		// Two messages: a third could meet the close already answered by
		// the client's reader ("close sent"), depending on timing.
		sendAll(c, typed("a", 1), typed("a", 2))
		readN(c, 2)
		if code, _ := c.closed(); code != 4000 {
			t.Errorf("client closed with %d, want 4000", code)
		}
		// The client's answer (gorilla echoes the code) is relayed.
		if got := up.waitEnd(); got.code != 4000 {
			t.Errorf("upstream got %d, want the client's answer 4000", got.code)
		}
		r := tp.Stop()
		if cn := r.Sessions[0].Conns[0]; cn.CloseCode != 4000 || cn.CloseBy != recording.ByProxy || !strings.Contains(cn.CloseReason, "close=4000@2") {
			t.Errorf("recorded end %+v", cn)
		}
	})
	t.Run("drop-after", func(t *testing.T) {
		t.Parallel()
		up, tp := faultProxy(t, "drop-after=2")
		c := dial(t, tp.url+"/ws", nil)
		sendAll(c, typed("a", 1), typed("a", 2)) // a third could meet the dropped connection
		readN(c, 2)
		if code, _ := c.closed(); code != websocket.CloseAbnormalClosure {
			t.Errorf("client saw %d, want 1006 (no close frame)", code)
		}
		if got := up.waitEnd(); got.code != websocket.CloseAbnormalClosure {
			t.Errorf("upstream saw %d, want 1006 (no close frame)", got.code)
		}
		r := tp.Stop()
		if cn := r.Sessions[0].Conns[0]; cn.CloseCode != 1006 || cn.CloseBy != recording.ByProxy {
			t.Errorf("recorded end %+v", cn)
		}
	})
}
