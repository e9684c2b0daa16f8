package reftest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reference/server"
)

// Msg is one message the client received.
type Msg struct {
	Raw  []byte
	Type string
	// Doc is the decoded JSON (nil for a message that is not JSON).
	Doc  any
	Time time.Time
}

// Get returns the member at JSON pointer ptr ("/session_state/session_id")
// and whether it exists.
func (m Msg) Get(ptr string) (any, bool) { return jsonx.Get(m.Doc, ptr) }

// Str returns the string at ptr, or "" when absent or not a string.
func (m Msg) Str(ptr string) string {
	v, _ := m.Get(ptr)
	s, _ := v.(string)
	return s
}

// Int returns the integer at ptr, or -1 when absent or not a number.
func (m Msg) Int(ptr string) int64 {
	v, ok := m.Get(ptr)
	if !ok {
		return -1
	}
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		if err == nil {
			return i
		}
	case float64:
		return int64(n)
	}
	return -1
}

// Has reports whether ptr exists.
func (m Msg) Has(ptr string) bool { _, ok := m.Get(ptr); return ok }

func (m Msg) String() string { return string(m.Raw) }

// DialOption tunes Dial.
type DialOption func(*dialConfig)

type dialConfig struct {
	header http.Header
	group  string
}

// Header sends h with the handshake.
func Header(h http.Header) DialOption { return func(c *dialConfig) { c.header = h } }

// Group puts the connection's frames into the check session named g, for
// tests that run several independent logical sessions on one server.
// Connections of one logical session (a resume, a second tab) share a
// group. The default group is "".
func Group(g string) DialOption { return func(c *dialConfig) { c.group = g } }

// Client is a gorilla client connection whose frames all go through the
// check engine.
type Client struct {
	// ID is the connection's name on the server (c1, …) and Resp the
	// handshake response.
	ID   string
	Resp *http.Response

	t     testing.TB
	srv   *Server
	ws    *websocket.Conn
	url   string
	group string
	in    chan Msg
	// closed is closed when the reader ends; code is the close code the
	// server sent (1006 when the connection just dropped).
	closed    chan struct{}
	code      int
	reason    string
	wmu       sync.Mutex
	closeOnce sync.Once
}

// Dial connects to path (with query) on the server and fails the test if
// the handshake fails.
func (s *Server) Dial(t testing.TB, path string, opts ...DialOption) *Client {
	t.Helper()
	c, resp, err := s.TryDial(t, path, opts...)
	if err != nil {
		status := ""
		if resp != nil {
			status = resp.Status
		}
		t.Fatalf("dial %s: %v %s", path, err, status)
	}
	return c
}

// TryDial connects to path and returns the handshake error instead of
// failing, for tests of rejected handshakes (the response carries the
// status).
func (s *Server) TryDial(t testing.TB, path string, opts ...DialOption) (*Client, *http.Response, error) {
	t.Helper()
	var cfg dialConfig
	for _, o := range opts {
		o(&cfg)
	}
	d := websocket.Dialer{HandshakeTimeout: Timeout}
	ws, resp, err := d.Dial(s.URL+path, cfg.header)
	if err != nil {
		return nil, resp, err
	}
	c := &Client{
		ID: resp.Header.Get(server.ConnHeader), Resp: resp,
		t: t, srv: s, ws: ws, url: path, group: cfg.group,
		in: make(chan Msg, 4096), closed: make(chan struct{}),
	}
	if c.ID == "" {
		c.ID = fmt.Sprintf("client-%p", c)
	}
	s.mu.Lock()
	s.clients = append(s.clients, c)
	s.mu.Unlock()
	go c.read()
	return c, resp, nil
}

func (c *Client) read() {
	defer close(c.closed)
	defer close(c.in)
	c.ws.SetPingHandler(nil)
	for {
		op, data, err := c.ws.ReadMessage()
		now := time.Now()
		if err != nil {
			c.code, c.reason = 1006, err.Error()
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				c.code, c.reason = ce.Code, ce.Text
			}
			c.srv.observe(c.group, wire.Frame{Conn: c.ID, URL: c.url, Dir: wire.ServerToClient, Time: now, Op: wire.OpClose, CloseCode: c.code, Payload: []byte(c.reason)})
			return
		}
		c.srv.observe(c.group, wire.Frame{Conn: c.ID, URL: c.url, Dir: wire.ServerToClient, Time: now, Op: wire.Opcode(op), Payload: data})
		m := Msg{Raw: data, Time: now}
		if doc, _, err := jsonx.Decode(data, 0); err == nil {
			m.Doc = doc
			if obj, ok := doc.(map[string]any); ok {
				m.Type, _ = obj[c.srv.Dialect.TypeField].(string)
			}
		}
		c.in <- m
	}
}

// Send writes v: a string or []byte as is, anything else as JSON. The frame
// goes through the check engine as the client's.
func (c *Client) Send(v any) {
	c.t.Helper()
	var data []byte
	switch x := v.(type) {
	case string:
		data = []byte(x)
	case []byte:
		data = x
	default:
		var err error
		if data, err = json.Marshal(v); err != nil {
			c.t.Fatalf("marshal %T: %v", v, err)
		}
	}
	c.SendFrame(websocket.TextMessage, data)
}

// SendFrame writes one message with opcode op (websocket.TextMessage or
// BinaryMessage).
func (c *Client) SendFrame(op int, data []byte) {
	c.t.Helper()
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.srv.observe(c.group, wire.Frame{Conn: c.ID, URL: c.url, Dir: wire.ClientToServer, Time: time.Now(), Op: wire.Opcode(op), Payload: data})
	_ = c.ws.SetWriteDeadline(time.Now().Add(Timeout))
	if err := c.ws.WriteMessage(op, data); err != nil {
		c.t.Fatalf("%s: send %.80s: %v", c.ID, data, err)
	}
}

// Next returns the next message, failing the test after Timeout or when
// the connection ends.
func (c *Client) Next() Msg {
	c.t.Helper()
	m, ok := c.next(Timeout)
	if !ok {
		c.t.Fatalf("%s: no message within %v (connection closed: %s)", c.ID, Timeout, c.closeState())
	}
	return m
}

func (c *Client) next(d time.Duration) (Msg, bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case m, ok := <-c.in:
		return m, ok
	case <-t.C:
		return Msg{}, false
	}
}

// Expect skips messages until one of type typ arrives and returns it; the
// skipped types are reported if it never comes.
func (c *Client) Expect(typ string) Msg {
	c.t.Helper()
	var skipped []string
	deadline := time.Now().Add(Timeout)
	for {
		m, ok := c.next(time.Until(deadline))
		if !ok {
			c.t.Fatalf("%s: no %q within %v; got instead: %s (connection closed: %s)",
				c.ID, typ, Timeout, strings.Join(skipped, ", "), c.closeState())
		}
		if m.Type == typ {
			return m
		}
		skipped = append(skipped, fmt.Sprintf("%s %.200s", m.Type, m.Raw))
	}
}

// ExpectSeq requires the next messages to have exactly these types, in
// order, and returns them.
func (c *Client) ExpectSeq(types ...string) []Msg {
	c.t.Helper()
	out := make([]Msg, 0, len(types))
	for i, typ := range types {
		m := c.Next()
		if m.Type != typ {
			c.t.Fatalf("%s: message %d of the sequence %v is %q, want %q: %s", c.ID, i+1, types, m.Type, typ, m.Raw)
		}
		out = append(out, m)
	}
	return out
}

// Until collects messages up to and including the first of type typ.
func (c *Client) Until(typ string) []Msg {
	c.t.Helper()
	var out []Msg
	for {
		m := c.Next()
		out = append(out, m)
		if m.Type == typ {
			return out
		}
	}
}

// Closed waits for the server to end the connection and returns the close
// code it sent (1006 when it dropped the connection without one).
func (c *Client) Closed() (code int, reason string) {
	c.t.Helper()
	t := time.NewTimer(Timeout)
	defer t.Stop()
	for {
		select {
		case <-c.closed:
			return c.code, c.reason
		case _, ok := <-c.in:
			if !ok {
				<-c.closed
				return c.code, c.reason
			}
		case <-t.C:
			c.t.Fatalf("%s: server did not close the connection within %v", c.ID, Timeout)
		}
	}
}

// Close closes the connection normally (1000) and waits for the reader.
func (c *Client) Close() {
	c.closeOnce.Do(func() {
		c.wmu.Lock()
		_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		c.wmu.Unlock()
		select {
		case <-c.closed:
		case <-time.After(Timeout):
		}
		_ = c.ws.Close()
		<-c.closed
	})
}

// Drop closes the TCP connection without a close frame, as a browser tab
// that crashed or a network that failed.
func (c *Client) Drop() {
	c.closeOnce.Do(func() {
		_ = c.ws.Close()
		<-c.closed
	})
}

func (c *Client) closeState() string {
	select {
	case <-c.closed:
		return fmt.Sprintf("yes, code %d %q", c.code, c.reason)
	default:
		return "no"
	}
}
