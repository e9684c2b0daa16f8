package proxy

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// echoServer is a small upstream for relay tests: it echoes every message
// and obeys a few text commands, and remembers what it saw.
//
//	close:CODE:REASON  close with CODE and REASON
//	vanish             drop the TCP connection without a close frame
//	flood:N            send N 1 KiB text messages as fast as it can (not reading meanwhile)
//	big:N              send one text message of N bytes
//	ping:DATA          send a ping with DATA
//	stall              stop reading for the test's timeout
type echoServer struct {
	t   testing.TB
	srv *httptest.Server
	url string

	mu      sync.Mutex
	headers []http.Header
	subs    []string
	closes  []closeSeen
	pings   []string
	pongs   []string
	ended   chan closeSeen
	done    chan struct{}
	// hanging gets one value per /hang request, when it arrives.
	hanging chan struct{}
}

type closeSeen struct {
	code int
	text string
}

func startEcho(t testing.TB) *echoServer {
	t.Helper()
	e := &echoServer{t: t, ended: make(chan closeSeen, 1024), done: make(chan struct{}), hanging: make(chan struct{}, 16)}
	e.srv = httptest.NewServer(http.HandlerFunc(e.serve))
	e.url = "ws" + strings.TrimPrefix(e.srv.URL, "http")
	t.Cleanup(func() { close(e.done); e.srv.Close() })
	return e
}

func (e *echoServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/refuse" {
		w.Header().Set("X-Why", "refused")
		http.Error(w, "no entry", http.StatusForbidden)
		return
	}
	if r.URL.Path == "/hang" {
		// Never answers the handshake (until the test ends).
		select {
		case e.hanging <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
		case <-time.After(timeout):
		}
		return
	}
	if !websocket.IsWebSocketUpgrade(r) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("plain " + r.Method + " " + r.URL.RequestURI()))
		return
	}
	up := websocket.Upgrader{Subprotocols: []string{"v2.wsconform"}, CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, http.Header{"Set-Cookie": {"up=1; Path=/"}})
	if err != nil {
		return
	}
	defer ws.Close()
	e.mu.Lock()
	e.headers = append(e.headers, r.Header.Clone())
	e.subs = append(e.subs, ws.Subprotocol())
	e.mu.Unlock()
	ws.SetPingHandler(func(data string) error {
		e.mu.Lock()
		e.pings = append(e.pings, data)
		e.mu.Unlock()
		return ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	ws.SetPongHandler(func(data string) error {
		e.mu.Lock()
		e.pongs = append(e.pongs, data)
		e.mu.Unlock()
		return nil
	})
	for {
		op, data, err := ws.ReadMessage()
		if err != nil {
			seen := closeSeen{code: websocket.CloseAbnormalClosure, text: err.Error()}
			if ce, ok := err.(*websocket.CloseError); ok {
				seen = closeSeen{ce.Code, ce.Text}
			}
			e.mu.Lock()
			e.closes = append(e.closes, seen)
			e.mu.Unlock()
			e.ended <- seen
			return
		}
		if op == websocket.TextMessage && e.command(ws, string(data)) {
			continue
		}
		if err := ws.WriteMessage(op, data); err != nil {
			return
		}
	}
}

// command runs a text command; it reports whether data was one.
func (e *echoServer) command(ws *websocket.Conn, s string) bool {
	switch {
	case strings.HasPrefix(s, "close:"):
		parts := strings.SplitN(s, ":", 3)
		code, _ := strconv.Atoi(parts[1])
		_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, parts[2]), time.Now().Add(time.Second))
	case s == "vanish":
		_ = ws.NetConn().(*net.TCPConn).SetLinger(0)
		_ = ws.NetConn().Close()
	case strings.HasPrefix(s, "flood:"):
		n, _ := strconv.Atoi(strings.TrimPrefix(s, "flood:"))
		payload := []byte(`{"type":"flood","pad":"` + strings.Repeat("x", 1000) + `"}`)
		for range n {
			_ = ws.SetWriteDeadline(time.Now().Add(timeout))
			if ws.WriteMessage(websocket.TextMessage, payload) != nil {
				break
			}
		}
	case s == "stall":
		// Stop reading (until the proxy gives up on us).
		_ = ws.SetReadDeadline(time.Time{})
		select {
		case <-time.After(timeout):
		case <-e.done:
		}
	case strings.HasPrefix(s, "big:"):
		n, _ := strconv.Atoi(strings.TrimPrefix(s, "big:"))
		_ = ws.WriteMessage(websocket.TextMessage, []byte(strings.Repeat("b", n)))
	case strings.HasPrefix(s, "ping:"):
		_ = ws.WriteControl(websocket.PingMessage, []byte(strings.TrimPrefix(s, "ping:")), time.Now().Add(time.Second))
	default:
		return false
	}
	return true
}

// waitEnd returns how the next upstream connection ended.
func (e *echoServer) waitEnd() closeSeen {
	e.t.Helper()
	select {
	case s := <-e.ended:
		return s
	case <-time.After(timeout):
		e.t.Fatal("upstream connection did not end within the timeout")
	}
	return closeSeen{}
}

func (e *echoServer) snapshot() (headers []http.Header, subs, pings, pongs []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]http.Header(nil), e.headers...), append([]string(nil), e.subs...),
		append([]string(nil), e.pings...), append([]string(nil), e.pongs...)
}
