package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
	"github.com/wsconform/wsconform/reports"
)

// timeout bounds every wait in these tests.
const timeout = 10 * time.Second

// syncBuffer is a bytes.Buffer safe for the writer (console, recording)
// and the test that reads it.
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

// testProxy is a Proxy served on an ephemeral loopback port.
type testProxy struct {
	t       testing.TB
	p       *Proxy
	srv     *http.Server
	url     string // ws://127.0.0.1:PORT
	http    string // http://127.0.0.1:PORT
	rec     *syncBuffer
	console *syncBuffer
	once    sync.Once
	report  *reports.Report
}

// startProxy serves a proxy for cfg (Upstream required). It records to a
// buffer and logs to another unless cfg says otherwise; Stop (also run at
// cleanup) shuts it down, returns the report and checks that no goroutine
// of the proxy is left.
func startProxy(t testing.TB, cfg Config) *testProxy {
	t.Helper()
	tp := &testProxy{t: t, rec: &syncBuffer{}, console: &syncBuffer{}}
	if cfg.Record == nil {
		cfg.Record = tp.rec
	}
	if cfg.Console == nil {
		cfg.Console = tp.console
	}
	if cfg.Label == "" {
		cfg.Label = "test-" + t.Name()
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatalf("new proxy: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tp.p = p
	tp.srv = &http.Server{Handler: p, ReadHeaderTimeout: timeout}
	go func() { _ = tp.srv.Serve(ln) }()
	tp.url = "ws://" + ln.Addr().String()
	tp.http = "http://" + ln.Addr().String()
	t.Cleanup(func() { tp.Stop() })
	return tp
}

// Stop shuts the proxy down like SIGINT would and returns its report.
func (tp *testProxy) Stop() *reports.Report {
	tp.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		srvDone := make(chan struct{})
		go func() { _ = tp.srv.Shutdown(ctx); close(srvDone) }()
		if err := tp.p.Shutdown(ctx); err != nil {
			tp.t.Errorf("shutdown: %v", err)
		}
		<-srvDone
		tp.report = tp.p.Report()
		if stacks := reftest.Leaked(GoroutineLabel, tp.p.cfg.Label); stacks != "" {
			tp.t.Errorf("goroutines of the proxy left after Shutdown:\n%s", stacks)
		}
	})
	return tp.report
}

// startRef starts a reference server of dialect name with mutations.
func startRef(t testing.TB, name string, mutate ...string) *reference.Server {
	t.Helper()
	cfg := server.Config{Heartbeat: -1, Slow: 20 * time.Millisecond}
	srv, err := reference.Start(context.Background(), "127.0.0.1:0", reference.Options{Dialects: []string{name}, Mutate: mutate, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv
}

// client is a gorilla client with a reader goroutine, so tests can wait
// for messages with a timeout.
type client struct {
	t    testing.TB
	ws   *websocket.Conn
	in   chan message
	done chan struct{}
	mu   sync.Mutex
	code int
	text string
	err  error
}

type message struct {
	op   int
	data []byte
}

func (m message) doc() map[string]any {
	var d map[string]any
	_ = json.Unmarshal(m.data, &d)
	return d
}

func (m message) str(key string) string {
	s, _ := m.doc()[key].(string)
	return s
}

func dial(t testing.TB, url string, header http.Header) *client {
	t.Helper()
	c, resp, err := tryDial(t, url, header)
	if err != nil {
		status := ""
		if resp != nil {
			status = resp.Status
		}
		t.Fatalf("dial %s: %v %s", url, err, status)
	}
	return c
}

func tryDial(t testing.TB, url string, header http.Header) (*client, *http.Response, error) {
	d := websocket.Dialer{HandshakeTimeout: timeout}
	ws, resp, err := d.Dial(url, header)
	if err != nil {
		return nil, resp, err
	}
	return newClient(t, ws), resp, nil
}

func newClient(t testing.TB, ws *websocket.Conn) *client {
	c := &client{t: t, ws: ws, in: make(chan message, 4096), done: make(chan struct{})}
	go c.read()
	t.Cleanup(func() { _ = ws.Close(); <-c.done })
	return c
}

func (c *client) read() {
	defer close(c.done)
	for {
		op, data, err := c.ws.ReadMessage()
		if err != nil {
			c.mu.Lock()
			c.err = err
			if ce, ok := err.(*websocket.CloseError); ok {
				c.code, c.text = ce.Code, ce.Text
			}
			c.mu.Unlock()
			return
		}
		select {
		case c.in <- message{op, data}:
		default:
			c.t.Errorf("client buffer full")
			return
		}
	}
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(websocket.TextMessage, b)
}

func (c *client) sendRaw(op int, b []byte) {
	c.t.Helper()
	_ = c.ws.SetWriteDeadline(time.Now().Add(timeout))
	if err := c.ws.WriteMessage(op, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *client) next() message {
	c.t.Helper()
	select {
	case m := <-c.in:
		return m
	case <-c.done:
		select {
		case m := <-c.in:
			return m
		default:
		}
		c.t.Fatalf("connection ended while waiting for a message: %v", c.closeErr())
	case <-time.After(timeout):
		c.t.Fatal("no message within the timeout")
	}
	return message{}
}

// until reads messages up to and including one of type typ.
func (c *client) until(typeField, typ string) []message {
	c.t.Helper()
	var out []message
	for {
		m := c.next()
		out = append(out, m)
		if s, _ := m.doc()[typeField].(string); s == typ {
			return out
		}
	}
}

func (c *client) closeErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// closed waits for the connection to end and returns the close code and
// reason it got (1006 when there was no close frame).
func (c *client) closed() (int, string) {
	c.t.Helper()
	select {
	case <-c.done:
	case <-time.After(timeout):
		c.t.Fatal("connection did not end within the timeout")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.code, c.text
}

// closeWith sends a close frame.
func (c *client) closeWith(code int, reason string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(timeout))
}

// findings lists the findings of a report, in session order.
func findings(r *reports.Report) []reports.Finding {
	var out []reports.Finding
	for _, s := range r.Sessions {
		out = append(out, s.Findings...)
	}
	return out
}

func hasRule(r *reports.Report, rule string) bool {
	for _, f := range findings(r) {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

func errorsOf(r *reports.Report) []reports.Finding {
	var out []reports.Finding
	for _, f := range findings(r) {
		if f.Severity == check.Error {
			out = append(out, f)
		}
	}
	return out
}

func describeFindings(fs []reports.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\n  " + f.Rule + " [" + f.Session + "] " + f.Conn + ": " + f.Message)
	}
	return b.String()
}

// waitConns waits (bounded by timeout) until the proxy relays exactly n
// connections: a client that dropped its TCP connection is gone for the
// proxy only once the proxy's reader saw it, which a loaded machine delays.
func (tp *testProxy) waitConns(n int) {
	tp.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		tp.p.mu.Lock()
		got := len(tp.p.conns)
		tp.p.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			tp.t.Fatalf("the proxy relays %d connections after %v, want %d", got, timeout, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
