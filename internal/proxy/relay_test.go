package proxy

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/recording"
)

// TestRelayFidelity: text and binary messages arrive byte for byte and in
// order both ways; the upstream sees the client's end-to-end headers and
// subprotocols; the client gets the upstream's choice and cookies; pings
// and pongs pass through; close codes and reasons pass both ways.
func TestRelayFidelity(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	// --path: judged whatever its first frames (random bytes) look like.
	// --allow-origin: the page's origin is another site's
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", Paths: []string{"/ws/*"}, AllowOrigins: []string{"http://ui.example:5173"}})
	h := http.Header{
		"Origin":                 {"http://ui.example:5173"},
		"Cookie":                 {"sid=abc"},
		"Authorization":          {"Bearer t0ken"},
		"X-Custom":               {"kept"},
		"Sec-Websocket-Protocol": {"v1.wsconform, v2.wsconform"},
	}
	ws, resp, err := (&websocket.Dialer{HandshakeTimeout: timeout}).Dial(tp.url+"/ws/path?x=1&y=%20z", h)
	if err != nil {
		t.Fatal(err)
	}
	if ws.Subprotocol() != "v2.wsconform" {
		t.Errorf("client got subprotocol %q, want the upstream's choice v2.wsconform", ws.Subprotocol())
	}
	if got := resp.Header.Get("Set-Cookie"); got != "up=1; Path=/" {
		t.Errorf("Set-Cookie from the upstream handshake = %q", got)
	}
	pongs := make(chan string, 10)
	ws.SetPongHandler(func(s string) error { pongs <- s; return nil })
	pings := make(chan string, 10)
	ws.SetPingHandler(func(s string) error {
		pings <- s
		return ws.WriteControl(websocket.PongMessage, []byte(s), time.Now().Add(time.Second))
	})
	c := newClient(t, ws)

	rng := rand.New(rand.NewPCG(1, 2))
	var sent [][]byte
	var ops []int
	for i := range 200 {
		op := websocket.TextMessage
		n := rng.IntN(3000)
		b := make([]byte, n)
		for j := range b {
			b[j] = byte('a' + rng.IntN(26))
		}
		if i%3 == 0 {
			op = websocket.BinaryMessage
			for j := range b {
				b[j] = byte(rng.IntN(256)) // not UTF-8
			}
		}
		if i == 7 {
			b = []byte(`{"type":"hello","html":"<b>&amp;</b>","u":"\u00e9\ud83d\ude00"}`)
		}
		c.sendRaw(op, b)
		sent, ops = append(sent, b), append(ops, op)
	}
	for i := range sent {
		m := c.next()
		if m.op != ops[i] || !bytes.Equal(m.data, sent[i]) {
			t.Fatalf("message %d: got op %d %d bytes, want op %d %d bytes", i, m.op, len(m.data), ops[i], len(sent[i]))
		}
	}
	// Ping from the client reaches the upstream; its pong comes back.
	if err := ws.WriteControl(websocket.PingMessage, []byte("p1"), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-pongs:
		if s != "p1" {
			t.Errorf("pong %q, want p1", s)
		}
	case <-time.After(timeout):
		t.Fatal("no pong for the client's ping")
	}
	// Ping from the upstream reaches the client; its pong goes back.
	c.sendRaw(websocket.TextMessage, []byte("ping:p2"))
	select {
	case s := <-pings:
		if s != "p2" {
			t.Errorf("ping %q, want p2", s)
		}
	case <-time.After(timeout):
		t.Fatal("the upstream's ping did not reach the client")
	}
	deadline := time.Now().Add(timeout)
	for {
		_, _, upPings, upPongs := up.snapshot()
		if len(upPongs) == 1 && upPongs[0] == "p2" && len(upPings) == 1 && upPings[0] == "p1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("upstream saw pings %q pongs %q", upPings, upPongs)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The client closes with 4001 "bye": the upstream sees exactly that and
	// its answer reaches the client.
	c.closeWith(4001, "bye")
	if got := up.waitEnd(); got.code != 4001 || got.text != "bye" {
		t.Errorf("upstream saw close %d %q, want 4001 bye", got.code, got.text)
	}
	if code, _ := c.closed(); code != 4001 {
		t.Errorf("client got close %d, want the upstream's echo 4001", code)
	}

	headers, subs, _, _ := up.snapshot()
	got := headers[0]
	for _, k := range []string{"Origin", "Cookie", "Authorization", "X-Custom"} {
		if got.Get(k) != h.Get(k) {
			t.Errorf("upstream got %s %q, want %q", k, got.Get(k), h.Get(k))
		}
	}
	if got.Get("Sec-Websocket-Protocol") != "v1.wsconform, v2.wsconform" || subs[0] != "v2.wsconform" {
		t.Errorf("upstream got subprotocols %q and chose %q", got.Get("Sec-Websocket-Protocol"), subs[0])
	}
	if got.Get("X-Forwarded-For") != "127.0.0.1" || got.Get("Sec-Websocket-Extensions") != "" {
		t.Errorf("upstream headers %v", got)
	}

	r := tp.Stop()
	if len(r.Sessions) != 1 || r.Sessions[0].Conns[0].CloseCode != 4001 || r.Sessions[0].Conns[0].CloseBy != recording.ByClient {
		t.Fatalf("report sessions %+v", r.Sessions)
	}
	conn := r.Sessions[0].Conns[0]
	if !strings.HasSuffix(conn.URL, "/ws/path") {
		t.Errorf("connection URL %q, want the upstream URL without its query", conn.URL)
	}
	// 200 messages each way, the ping:p2 command, 2 pings, 2 pongs, 2 close frames.
	if conn.Frames != 407 {
		t.Errorf("frames = %d, want 407", conn.Frames)
	}
}

// TestUpstreamCloseReachesClient: the upstream's close code and reason
// reach the client, and the client's answer reaches the upstream.
func TestUpstreamCloseReachesClient(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex"})
	c := dial(t, tp.url+"/ws", nil)
	c.sendRaw(websocket.TextMessage, []byte("close:4321:going for lunch"))
	if code, text := c.closed(); code != 4321 || text != "going for lunch" {
		t.Errorf("client got %d %q, want 4321 going for lunch", code, text)
	}
	if got := up.waitEnd(); got.code != 4321 {
		t.Errorf("upstream got the answer %d, want 4321", got.code)
	}
	r := tp.Stop()
	if cn := r.Sessions[0].Conns[0]; cn.CloseCode != 4321 || cn.CloseBy != recording.ByServer || cn.CloseReason != "going for lunch" {
		t.Errorf("recorded end %+v", cn)
	}
}

// TestCloseWithoutStatus: a close frame without a status code passes on
// without one (1005 is never put on the wire).
func TestCloseWithoutStatus(t *testing.T) {
	t.Parallel()
	up := startEcho(t)
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex"})
	c := dial(t, tp.url+"/ws", nil)
	_ = c.ws.WriteControl(websocket.CloseMessage, nil, time.Now().Add(time.Second))
	if got := up.waitEnd(); got.code != websocket.CloseNoStatusReceived {
		t.Errorf("upstream saw %d, want 1005 (a close frame without status)", got.code)
	}
	if code, _ := c.closed(); code != websocket.CloseNoStatusReceived {
		t.Errorf("client saw %d, want 1005", code)
	}
	tp.Stop()
}
