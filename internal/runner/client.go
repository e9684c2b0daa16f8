package runner

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// maxMessage bounds what a scenario's client reads in one message.
const maxMessage = 64 << 20

// message is one message a client received.
type message struct {
	op    wire.Opcode
	raw   []byte
	doc   any // nil when not JSON
	typ   string
	index int64
}

// client is one WebSocket connection of a scenario. Its reader goroutine
// is the only reader; the scenario's step goroutine is the only writer.
type client struct {
	w    *World
	name string
	id   string // connection id in the check session: name#n
	url  string
	conn *websocket.Conn

	mu     sync.Mutex
	msgs   []message
	cursor int // messages before it were consumed by an expectation
	// answered counts the messages answerPrompts has looked at.
	answered int
	// sentTypes are the types of the JSON messages the client sent (the
	// step goroutine's only): a missed answer names an opening not sent.
	sentTypes map[string]bool
	notify    chan struct{}
	ended     bool
	code      int // close code the server sent, 1006 when none
	reason    string
	done      chan struct{}
}

// dial opens a connection. A refused handshake (an HTTP status) and a
// server that does not speak WebSocket are failures of the target; a
// network that does not reach it, or a certificate it does not trust, is
// a harness error.
func (w *World) dial(ctx context.Context, name, url string) (*client, *http.Response, error) {
	d := websocket.Dialer{
		HandshakeTimeout: w.to.scaled(w.to.Connect),
		TLSClientConfig:  &tls.Config{InsecureSkipVerify: w.sc.run.opts.Insecure},
		Proxy:            nil,
	}
	ctx, cancel := context.WithTimeout(ctx, w.to.scaled(w.to.Connect))
	defer cancel()
	conn, resp, err := d.DialContext(ctx, url, w.headers.Clone())
	if err != nil {
		if limitStatus(resp) {
			env := limitError(url, resp)
			w.sc.run.halt(w.sc.target, env)
			return nil, resp, &HarnessError{Err: env}
		}
		return nil, resp, classifyDial(url, resp, err)
	}
	conn.SetReadLimit(maxMessage)
	w.conns[name]++
	c := &client{w: w, name: name, id: fmt.Sprintf("%s#%d", name, w.conns[name]), url: url, conn: conn,
		notify: make(chan struct{}), done: make(chan struct{}), code: 1006}
	go c.readLoop()
	return c, resp, nil
}

func classifyDial(url string, resp *http.Response, err error) error {
	if resp != nil {
		return failf("101 Switching Protocols", fmt.Sprintf("HTTP %d", resp.StatusCode),
			"handshake to %s refused", url)
	}
	if advice := tlsAdvice(url, err); advice != "" {
		return harnessf("connect %s: %v (%s)", url, err, advice)
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return harnessf("connect %s: target unreachable: %v", url, err)
	}
	if errors.Is(err, context.Canceled) {
		return harnessf("connect %s: %v", url, err)
	}
	return failf("a WebSocket handshake", err.Error(), "handshake to %s failed", url)
}

// readLoop reads until the connection ends, judging and queueing every
// message.
func (c *client) readLoop() {
	defer close(c.done)
	for {
		op, data, err := c.conn.ReadMessage()
		if err != nil {
			c.end(err)
			return
		}
		f := c.w.record(c.id, c.url, wire.ServerToClient, wire.Opcode(op), data, 0)
		m := message{op: f.Op, raw: data, index: f.Index}
		if f.Op == wire.OpText {
			if doc, _, err := jsonx.Decode(data, jsonx.DefaultMaxDepth); err == nil {
				m.doc, m.typ = doc, c.w.typeOf(doc)
			}
		}
		c.mu.Lock()
		c.msgs = append(c.msgs, m)
		c.wake()
		c.mu.Unlock()
	}
}

// end records how the connection ended.
func (c *client) end(err error) {
	var ce *websocket.CloseError
	code, reason := 1006, ""
	if errors.As(err, &ce) {
		code, reason = ce.Code, ce.Text
	}
	if code != 1006 && code != 1005 {
		c.w.record(c.id, c.url, wire.ServerToClient, wire.OpClose, []byte(reason), code)
	} else {
		c.w.closed(c.id)
	}
	c.mu.Lock()
	c.ended, c.code, c.reason = true, code, reason
	c.wake()
	c.mu.Unlock()
}

// wake tells waiters something changed. Caller holds mu.
func (c *client) wake() {
	close(c.notify)
	c.notify = make(chan struct{})
}

// send writes one message; the step goroutine is the only writer.
func (c *client) send(op wire.Opcode, data []byte) error {
	c.mu.Lock()
	ended, code := c.ended, c.code
	c.mu.Unlock()
	if ended {
		return failf("an open connection", fmt.Sprintf("closed with %d", code), "client %q cannot send", c.name)
	}
	f := c.w.record(c.id, c.url, wire.ClientToServer, op, data, 0)
	if typ, _ := c.w.describe(f); typ != "" {
		if c.sentTypes == nil {
			c.sentTypes = map[string]bool{}
		}
		c.sentTypes[typ] = true
	}
	_ = c.conn.SetWriteDeadline(time.Now().Add(c.w.to.scaled(c.w.to.Receive)))
	if err := c.conn.WriteMessage(int(op), data); err != nil {
		return failf("an open connection", err.Error(), "client %q cannot send", c.name)
	}
	return nil
}

// closeWith sends a close frame and waits (bounded) for the server's.
func (c *client) closeWith(code int, reason string) {
	c.w.record(c.id, c.url, wire.ClientToServer, wire.OpClose, []byte(reason), code)
	msg := websocket.FormatCloseMessage(code, reason)
	_ = c.conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
	select {
	case <-c.done:
	case <-time.After(c.w.to.scaled(time.Second)):
	}
	c.drop()
}

// drop closes the TCP connection without a close frame, as a browser tab
// that is refreshed or killed does.
func (c *client) drop() {
	_ = c.conn.Close()
	<-c.done
}

// waitFor scans the unconsumed messages with match until it returns done,
// the connection ends, or the timeout passes. match sees each message once
// and says whether to consume through it.
func (c *client) waitFor(ctx context.Context, timeout time.Duration, match func(m message) (consume, done bool, err error)) (message, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	seen := c.cursor
	for {
		if err := c.answerPrompts(); err != nil {
			return message{}, err
		}
		c.mu.Lock()
		for ; seen < len(c.msgs); seen++ {
			m := c.msgs[seen]
			consume, done, err := match(m)
			if consume {
				c.cursor = seen + 1
			}
			if err != nil || done {
				c.mu.Unlock()
				return m, err
			}
		}
		ended, code, reason, notify := c.ended, c.code, c.reason, c.notify
		c.mu.Unlock()
		if ended {
			return message{}, &closedError{code: code, reason: reason}
		}
		select {
		case <-notify:
		case <-deadline.C:
			return message{}, errTimeout
		case <-ctx.Done():
			return message{}, harnessf("scenario stopped: %v", ctx.Err())
		}
	}
}

// waitUntil waits until cond (called with c.mu held) holds, the
// connection ends or the timeout passes; only a stopped scenario is an
// error: the caller judges what arrived. Prompts are answered meanwhile,
// as in waitFor.
func (c *client) waitUntil(ctx context.Context, timeout time.Duration, cond func() bool) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		if err := c.answerPrompts(); err != nil {
			return err
		}
		c.mu.Lock()
		ok, ended, notify := cond(), c.ended, c.notify
		c.mu.Unlock()
		if ok || ended {
			return nil
		}
		select {
		case <-notify:
		case <-deadline.C:
			return nil
		case <-ctx.Done():
			return harnessf("scenario stopped: %v", ctx.Err())
		}
	}
}

// errTimeout says an expectation was not met in time.
var errTimeout = errors.New("timed out")

// closedError says the connection ended while a step was waiting.
type closedError struct {
	code   int
	reason string
}

func (e *closedError) Error() string { return closeText(e.code, e.reason) }

func closeText(code int, reason string) string {
	s := fmt.Sprintf("connection closed with %d", code)
	if code == 1006 {
		s = "connection dropped without a close frame (1006)"
	}
	if reason != "" {
		s += fmt.Sprintf(" %q", reason)
	}
	return s
}

// recent lists the types of the last messages from index from, for
// failure messages, leaving out periodic messages of types other than
// named (periodic.go): the wire log keeps them.
func (c *client) recent(from int, named string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if from < 0 {
		from = 0
	}
	var types []string
	for _, m := range c.msgs[min(from, len(c.msgs)):] {
		if c.w != nil && c.w.unnamedPeriodic(m, named) {
			continue
		}
		types = append(types, describeMsg(m))
	}
	if len(types) > 12 {
		types = append([]string{fmt.Sprintf("…%d more", len(types)-12)}, types[len(types)-12:]...)
	}
	if len(types) == 0 {
		return "no message"
	}
	return strings.Join(types, ", ")
}

func describeMsg(m message) string {
	switch {
	case m.typ != "" && strings.Contains(m.typ, "error"):
		if text := errorText(m.doc); text != "" {
			return fmt.Sprintf("%s(%q)", m.typ, text)
		}
		return m.typ
	case m.typ != "":
		return m.typ
	case m.op == wire.OpBinary:
		return fmt.Sprintf("binary(%d bytes)", len(m.raw))
	case m.doc == nil:
		return "non-JSON text"
	}
	return "untyped JSON"
}

// errorText is the server's own words in an error message, so that a
// failure line says "prompt already in progress", not only "error".
func errorText(doc any) string {
	for _, p := range []string{"/message", "/error", "/content", "/data/message", "/data/error", "/content/error", "/content/message"} {
		if v, ok := jsonx.Get(doc, p); ok {
			if s, ok := v.(string); ok && s != "" {
				if r := []rune(s); len(r) > 100 {
					s = string(r[:100]) + "…"
				}
				return s
			}
		}
	}
	return ""
}
