package proxy

import (
	"bufio"
	"context"
	"encoding/binary"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/reftest"
)

// rawBurstUpstream speaks minicodex: welcome to hello, and to anything
// else n assistant_text frames written in one TCP write (64 KiB at most
// per write), as a server that batches its frames does. bad, when set,
// makes frame i invalid (its event_id a string).
func rawBurstUpstream(tb testing.TB, n int, bad func(i int) bool) string {
	var sessions atomic.Int64
	pad := strings.Repeat("a", 200)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		var id int
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			if strings.Contains(string(data), `"hello"`) {
				_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"welcome","v":"1.0.0","session_state":{"session_id":"raw`+
					strconv.FormatInt(sessions.Add(1), 10)+`","version":"1.0.0","capabilities":[],"run_counter":0}}`))
				continue
			}
			var buf []byte
			for i := range n {
				id++
				v := strconv.Itoa(id)
				if bad != nil && bad(i) {
					v = `"` + v + `"`
				}
				p := `{"type":"assistant_text","event_id":` + v + `,"text":"` + pad + `"}`
				buf = append(buf, 0x81, 126, 0, 0)
				binary.BigEndian.PutUint16(buf[len(buf)-2:], uint16(len(p)))
				buf = append(buf, p...)
				if len(buf) > 60<<10 {
					if _, err := ws.NetConn().Write(buf); err != nil {
						return
					}
					buf = buf[:0]
				}
			}
			if _, err := ws.NetConn().Write(buf); err != nil {
				return
			}
		}
	}))
	tb.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// countingListener counts the writes made to the connections it accepts.
type countingListener struct {
	net.Listener
	writes atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, n: &l.writes}, nil
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.n.Add(1)
	return c.Conn.Write(p)
}

// TestBurstIsWrittenInBatches: frames that arrive together leave together.
// The upstream writes 1000 frames of 250 bytes in four TCP writes; the
// proxy used to make a write system call per frame towards the client (a
// burst ran at the speed of the system calls); it now writes what it read
// at once (legConn), so the client's connection gets far fewer writes than
// frames, every frame intact and in order.
func TestBurstIsWrittenInBatches(t *testing.T) {
	t.Parallel()
	const n = 1000
	up := rawBurstUpstream(t, n, nil)
	p, err := New(Config{Upstream: up, Dialect: "minicodex", Console: discard{}, Quiet: true, Label: "test-" + t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &countingListener{Listener: inner}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: timeout}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { shutdownProxy(t, srv, p) })

	ws := reftest.RelayDial(t, "ws://"+inner.Addr().String())
	before := ln.writes.Load() // the handshake's and the welcome's
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"send","text":"go"}`)); err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(timeout))
	for i := range n {
		_, data, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		if want := `"event_id":` + strconv.Itoa(i+1) + ","; !strings.Contains(string(data), want) {
			t.Fatalf("frame %d is %.60s…, want %s", i+1, data, want)
		}
	}
	writes := ln.writes.Load() - before
	t.Logf("%d frames relayed to the client in %d writes", n, writes)
	if writes > n/4 {
		t.Errorf("%d frames relayed to the client in %d writes: not batched", n, writes)
	}
}

func shutdownProxy(t *testing.T, srv *http.Server, p *Proxy) {
	t.Helper()
	ctx, cancel := contextTimeout()
	defer cancel()
	go func() { _ = srv.Shutdown(ctx) }()
	if err := p.Shutdown(ctx); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	if stacks := reftest.Leaked(GoroutineLabel, p.cfg.Label); stacks != "" {
		t.Errorf("goroutines of the proxy left after Shutdown:\n%s", stacks)
	}
}

// TestFramesAreRecordedBeforeTheyAreRelayed: the recording is written off
// the reader's path (recorder.go) and flushed once per batch in a burst,
// yet a frame still reaches its peer only once its line is in the file
// (what lets a recording survive kill -9 with every frame a peer got).
// Every frame of a 1000-frame burst is in the recording when the client
// reads it, and the recording ends in frame order.
func TestFramesAreRecordedBeforeTheyAreRelayed(t *testing.T) {
	t.Parallel()
	const n = 1000
	up := rawBurstUpstream(t, n, nil)
	tp := startProxy(t, Config{Upstream: up, Dialect: "minicodex"})
	ws := reftest.RelayDial(t, tp.url) // frames 1 and 2: hello, welcome
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"send","text":"go"}`)); err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(timeout))
	for i := range n {
		if _, _, err := ws.ReadMessage(); err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
		index := 4 + i // after the send (3)
		if i%10 == 0 || i == n-1 {
			if !strings.Contains(tp.rec.String(), `"index":`+strconv.Itoa(index)+",") {
				t.Fatalf("the client got frame %d before the recording held it", index)
			}
		}
	}
	ws.Close()
	tp.Stop()
	var last int
	sc := bufio.NewScanner(strings.NewReader(tp.rec.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if !strings.Contains(l, `"kind":"frame"`) {
			continue
		}
		k := strings.Index(l, `"index":`)
		index, _ := strconv.Atoi(strings.SplitN(l[k+len(`"index":`):], ",", 2)[0])
		if index != last+1 {
			t.Fatalf("frame line %d follows frame line %d", index, last)
		}
		last = index
	}
	if last < 3+n {
		t.Errorf("the recording ends at frame %d, want at least %d", last, 3+n)
	}
}

// TestBurstJudgedAsOffline: a burst that reaches the validator in large
// batches is prejudged on several goroutines (prejudge.go); the findings
// are exactly those `wsconform validate` makes of the recording, the
// planted ones included, and no frame goes unchecked.
func TestBurstJudgedAsOffline(t *testing.T) {
	t.Parallel()
	const n = 2000
	up := rawBurstUpstream(t, n, func(i int) bool { return i%300 == 7 })
	tp := startProxy(t, Config{Upstream: up, Dialect: "minicodex", ValidationFrames: 4 * n})
	ws := reftest.RelayDial(t, tp.url)
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"send","text":"go"}`)); err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(timeout))
	for i := range n {
		if _, _, err := ws.ReadMessage(); err != nil {
			t.Fatalf("frame %d: %v", i+1, err)
		}
	}
	ws.Close()
	r := tp.Stop()
	if hasRule(r, RuleValidationGap.ID) {
		t.Fatalf("frames went unchecked: %s", describeFindings(findings(r)))
	}
	if len(findings(r)) == 0 {
		t.Fatal("the planted string event_ids were not found")
	}
	sameOffline(t, tp, r)
}

func contextTimeout() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), timeout)
}
