package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/server"
	"github.com/wsconform/wsconform/reports"
)

// timeout bounds every wait of a test, so a broken test fails instead of
// hanging; no assertion is about time.
const timeout = 30 * time.Second

// stack is a reference server, the proxy in front of it recording to a
// file, and the live view of the proxy, each on its own loopback port.
type stack struct {
	t        testing.TB
	ref      *reference.Server
	p        *proxy.Proxy
	web      *Server
	proxyURL string // ws://host:port
	webURL   string // http://host:port/
	rec      string
	srv      *http.Server
	cancel   context.CancelFunc
	served   chan error
	once     sync.Once
	report   *reports.Report
}

// startStack serves minicodex (with mutations) through a proxy with a
// live view.
func startStack(t testing.TB, wcfg Config, mutate ...string) *stack {
	t.Helper()
	ref, err := reference.Start(context.Background(), "127.0.0.1:0", reference.Options{Dialects: []string{"minicodex"},
		Mutate: mutate, Config: server.Config{Heartbeat: -1, Slow: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		_ = ref.Shutdown(ctx)
	})
	s := &stack{t: t, ref: ref, rec: filepath.Join(t.TempDir(), "rec.jsonl")}
	f, err := os.Create(s.rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	wln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	wcfg.Listen, wcfg.Recording = wln.Addr().String(), s.rec
	if wcfg.Title == "" {
		wcfg.Title = "wsproxy → " + ref.URL
	}
	if s.web, err = New(wcfg); err != nil {
		t.Fatal(err)
	}
	s.p, err = proxy.New(proxy.Config{Upstream: ref.URL, Dialect: "minicodex", Record: f, Live: s.web.Observer(),
		Label: "web-" + t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	s.web.Attach(s.p)
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel, s.served = cancel, make(chan error, 1)
	go func() { s.served <- s.web.Serve(ctx, wln) }()
	pln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.srv = &http.Server{Handler: s.p, ReadHeaderTimeout: timeout}
	go func() { _ = s.srv.Serve(pln) }()
	s.proxyURL, s.webURL = "ws://"+pln.Addr().String(), "http://"+wln.Addr().String()+"/"
	t.Cleanup(func() { s.stop() })
	return s
}

// stop shuts the proxy down and then the live view; it returns the
// proxy's report.
func (s *stack) stop() *reports.Report {
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		go func() { _ = s.srv.Shutdown(ctx) }()
		if err := s.p.Shutdown(ctx); err != nil {
			s.t.Errorf("shutdown: %v", err)
		}
		s.report = s.p.Report()
		s.cancel()
		if err := <-s.served; err != nil {
			s.t.Errorf("web view: %v", err)
		}
	})
	return s.report
}

// wsClient is a minicodex client talking through the proxy, one reader
// (the test goroutine) and one writer.
type wsClient struct {
	t  testing.TB
	ws *websocket.Conn
}

func dialClient(t testing.TB, url string) *wsClient {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(url+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &wsClient{t: t, ws: ws}
	t.Cleanup(func() { ws.Close() })
	c.send(map[string]any{"type": "hello", "v": "1.0.0", "client_capabilities": []string{}})
	c.until("welcome")
	return c
}

func (c *wsClient) send(v any) {
	c.t.Helper()
	_ = c.ws.SetWriteDeadline(time.Now().Add(timeout))
	if err := c.ws.WriteJSON(v); err != nil {
		c.t.Fatal(err)
	}
}

// until reads messages up to one of type typ and returns how many it read.
func (c *wsClient) until(typ string) int {
	c.t.Helper()
	n := 0
	for {
		_ = c.ws.SetReadDeadline(time.Now().Add(timeout))
		var m struct {
			Type string `json:"type"`
		}
		if err := c.ws.ReadJSON(&m); err != nil {
			c.t.Fatalf("reading up to %s: %v", typ, err)
		}
		n++
		if m.Type == typ {
			return n
		}
	}
}

// turn sends text and reads up to turn_done.
func (c *wsClient) turn(text string) int {
	c.send(map[string]any{"type": "send", "text": text, "req_id": "r1"})
	return c.until("turn_done") + 1
}

func (c *wsClient) close() {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1000, "done"), time.Now().Add(timeout))
	_ = c.ws.SetReadDeadline(time.Now().Add(timeout))
	for {
		if _, _, err := c.ws.ReadMessage(); err != nil {
			return
		}
	}
}

// sseReader reads a page's event stream like a browser's EventSource.
type sseReader struct {
	t      testing.TB
	resp   *http.Response
	events chan sseEvent
	cancel context.CancelFunc
}

type sseEvent struct {
	id   string
	data map[string]any
	raw  string
}

func openSSE(t testing.TB, url, lastID string) *sseReader {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		t.Fatalf("events: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	r := &sseReader{t: t, resp: resp, events: make(chan sseEvent, 1<<16), cancel: cancel}
	go r.read()
	t.Cleanup(r.close)
	return r
}

func (r *sseReader) read() {
	defer close(r.events)
	sc := bufio.NewScanner(r.resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			r.emit(ev)
			ev = sseEvent{}
		case strings.HasPrefix(line, "id: "):
			ev.id = line[4:]
		case strings.HasPrefix(line, "data: "):
			if ev.raw != "" {
				r.t.Errorf("two data lines in one event: %q", ev.raw)
			}
			ev.raw = line[6:]
		}
	}
}

// emit passes on one message's events: a batch (a JSON array) is one
// event per element, each with the message's id.
func (r *sseReader) emit(msg sseEvent) {
	if msg.raw == "" {
		return
	}
	if !strings.HasPrefix(msg.raw, "[") {
		_ = json.Unmarshal([]byte(msg.raw), &msg.data)
		r.events <- msg
		return
	}
	var batch []json.RawMessage
	if err := json.Unmarshal([]byte(msg.raw), &batch); err != nil {
		r.t.Errorf("batch %q: %v", msg.raw, err)
		return
	}
	for _, raw := range batch {
		ev := sseEvent{id: msg.id, raw: string(raw)}
		_ = json.Unmarshal(raw, &ev.data)
		r.events <- ev
	}
}

func (r *sseReader) close() {
	r.cancel()
	r.resp.Body.Close()
}

// next returns the next event, failing after timeout.
func (r *sseReader) next() sseEvent {
	r.t.Helper()
	select {
	case ev, ok := <-r.events:
		if !ok {
			r.t.Fatal("the event stream ended")
		}
		return ev
	case <-time.After(timeout):
		r.t.Fatal("no event within the timeout")
	}
	return sseEvent{}
}

// until returns events up to the first for which pred is true.
func (r *sseReader) until(pred func(sseEvent) bool) []sseEvent {
	r.t.Helper()
	var out []sseEvent
	for {
		ev := r.next()
		out = append(out, ev)
		if pred(ev) {
			return out
		}
	}
}

func kind(k string) func(sseEvent) bool {
	return func(ev sseEvent) bool { return ev.data["k"] == k }
}
