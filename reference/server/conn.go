package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/wire"
)

// ConnHeader is the response header that names the connection on the
// server (c1, c2, …), so tests and benchmarks can match both ends.
const ConnHeader = "X-Wsconform-Conn"

// ErrClosed is returned by Send on a connection that has ended.
var ErrClosed = errors.New("connection closed")

// errRefused is returned by Serve for a handshake the Guard refused.
var errRefused = errors.New("handshake refused")

// Inbound is one message a client sent.
type Inbound struct {
	Data   []byte
	Binary bool
	// Oversize is set when the message was larger than Config.MaxFrame: it
	// was read and discarded, Data is nil and Size says how big it was.
	Oversize bool
	Size     int64
}

// Handler is a dialect's side of one connection. Both methods run on the
// connection's reader goroutine, in order. Message must not block for long:
// start agent runs and timers with Env.Go.
type Handler interface {
	Message(in Inbound)
	// Closed is called once, after the last Message, however the
	// connection ended.
	Closed()
}

// Conn is one accepted WebSocket connection: a reader (the goroutine that
// called Serve) and a writer goroutine draining a bounded send queue, as in
// gorilla's chat example. Send is safe from any goroutine and never blocks.
type Conn struct {
	// ID names the connection on this server: c1, c2, … in accept order.
	ID string
	// URL and Header are those of the upgrade request.
	URL    *url.URL
	Header http.Header

	env *Env
	ws  *websocket.Conn
	// sendMu makes a SendAll's messages adjacent in out.
	sendMu sync.Mutex
	out    chan outMsg
	kill   chan int // close code; the writer ends the connection at once
	done   chan struct{}
	// wend is closed when the writer has stopped: a reader waiting for
	// room in the send queue stops waiting.
	wend chan struct{}
	// stall fires when a write has blocked for WriteTimeout and sets slow:
	// the client stopped reading, and is closed with 1013 once the write
	// under way completes.
	stall *time.Timer
	slow  atomic.Bool
	// ended is set once the writer stopped writing; Send refuses then.
	ended atomic.Bool
	inj   *fault.Injector

	onPressure func(drain bool)
	draining   atomic.Bool
	waiting    atomic.Bool
	lowWater   chan struct{}
	trace      *connTrace
	// failed is set once the connection was failed (FailInvalidText): the
	// reader discards what still arrives until the close handshake ends.
	failed atomic.Bool
	// spoke is set by the client's first frame (Guard.IdleTimeout).
	spoke atomic.Bool
}

type outMsg struct {
	data  []byte
	typ   string
	close *closeMsg
}

type closeMsg struct {
	code   int
	reason string
}

// Serve upgrades the request, hands the connection to the Handler that
// attach returns, and runs it until it ends. Headers the caller set on w
// (a Set-Cookie) are sent with the 101 response. Faults come from the Env and
// from the request's fault query parameters; a bad one is answered with 400
// before the upgrade. Serve returns when both pumps have stopped.
func Serve(w http.ResponseWriter, r *http.Request, env *Env, attach func(*Conn) Handler) error {
	specs, err := fault.ParseAll(r.URL.Query()["fault"])
	if err != nil {
		refuse(w, http.StatusBadRequest, "bad_fault", err.Error())
		return err
	}
	if !env.AdmitHost(w, r) {
		return errRefused
	}
	if !env.Guard.OriginAllowed(r) {
		refuse(w, http.StatusForbidden, "bad_origin", fmt.Sprintf("Origin %q is not this server's (--allow-origin allows it)", r.Header.Get("Origin")))
		return errRefused
	}
	if n := env.live.Add(1); env.Guard.MaxConns > 0 && n > int64(env.Guard.MaxConns) {
		env.served()
		refuse(w, http.StatusServiceUnavailable, "too_many_connections", fmt.Sprintf("the server serves %d connections at most (--max-conns)", env.Guard.MaxConns))
		return errRefused
	}
	defer env.served()
	if !env.enter() {
		refuse(w, http.StatusServiceUnavailable, "shutting_down", "server shutting down")
		return ErrClosed
	}
	defer env.wg.Done()
	// Label this goroutine (and so the writer it starts) as the server's,
	// for leak checks; net/http owns the goroutine, so restore it after.
	defer pprof.SetGoroutineLabels(r.Context())
	pprof.SetGoroutineLabels(pprof.WithLabels(r.Context(), env.Labels()))
	id := env.nextConnID()
	up := websocket.Upgrader{
		ReadBufferSize:  4096,
		WriteBufferSize: 4096,
		// The reference server is a development and CI peer on loopback:
		// browsers from any origin may talk to it.
		CheckOrigin: func(*http.Request) bool { return true },
	}
	// Headers the dialect set on w before Serve (a cookie) go on the 101.
	hdr := w.Header().Clone()
	hdr.Set(ConnHeader, id)
	ws, err := up.Upgrade(w, r, hdr)
	if err != nil {
		return fmt.Errorf("upgrade %s: %w", r.URL.Path, err)
	}
	c := &Conn{
		ID: id, URL: r.URL, Header: r.Header,
		env:      env,
		ws:       ws,
		out:      make(chan outMsg, env.QueueSize),
		kill:     make(chan int, 1),
		done:     make(chan struct{}),
		wend:     make(chan struct{}),
		lowWater: make(chan struct{}, 1),
		inj:      fault.New(append(append([]fault.Spec(nil), env.Faults...), specs...), wire.ServerToClient, env.Seed+env.seeds.Add(1)),
		trace:    env.trace.conn(id),
	}
	// Past MaxFrame a message is drained and answered; past 16× it gorilla
	// closes the connection with 1009 rather than read forever.
	ws.SetReadLimit(16 * env.MaxFrame)
	// The path only: queries carry tokens (hostd) and must not reach logs.
	env.Log.Info("connection opened", "conn", id, "path", r.URL.Path, "faults", len(specs)+len(env.Faults))
	c.stall = time.AfterFunc(time.Hour, c.stalled)
	c.stall.Stop()
	defer c.stall.Stop()
	h := attach(c)
	if d := env.Guard.IdleTimeout; d > 0 {
		idle := time.AfterFunc(d, func() {
			if !c.spoke.Load() {
				env.Log.Info("idle connection closed", "conn", id, "after", d)
				c.Close(websocket.CloseGoingAway, "no message within the idle timeout")
			}
		})
		defer idle.Stop()
	}
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		c.writePump()
	}()
	c.readPump(h)
	close(c.done)
	<-wrote
	_ = ws.Close()
	h.Closed()
	env.Log.Info("connection closed", "conn", id)
	return nil
}

// refuse answers a request Serve will not upgrade with a JSON body,
// {"error": CODE, "message": TEXT}: the shape hostd's HTTP errors use, and
// one a client can parse whatever the dialect.
func refuse(w http.ResponseWriter, status int, code, msg string) {
	body, _ := Marshal(map[string]string{"error": code, "message": msg})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// OnPressure registers f to be called with true when the send queue passes
// three quarters full and with false when it drains below a quarter: the
// moments to tell a client about backpressure (minicodex). Set it before
// the first Send.
func (c *Conn) OnPressure(f func(drain bool)) { c.onPressure = f }

// Draining reports whether the send queue is in its drain phase now:
// passed three quarters and not yet back below a quarter. The callbacks
// of OnPressure can run in either order when the writer and a sender
// cross the marks at once; a callback that needs the state reads it here.
func (c *Conn) Draining() bool { return c.draining.Load() }

// Send queues v, marshalled as JSON, for the client.
func (c *Conn) Send(v any) error {
	data, err := Marshal(v)
	if err != nil {
		return err
	}
	return c.SendRaw(data)
}

// SendRaw queues bytes that are already a message (a replayed event is sent
// exactly as it was the first time). A client that lets the queue fill up
// is disconnected: with 1013 (try again later), after which it may resume,
// when the close frame can still be written to it; a client that does not
// read at all cannot be sent one, and sees 1006.
func (c *Conn) SendRaw(data []byte) error { return c.SendAll(data) }

// SendAll queues messages back to back: nothing else sent on this
// connection (an answer its reader sends meanwhile) comes between them. A
// run's terminal status and its turn_done are one such pair: a client
// that answers the first with a ping must not see the ping answered
// before the second.
func (c *Conn) SendAll(data ...[]byte) error {
	if c.ended.Load() || c.slow.Load() {
		return ErrClosed
	}
	c.sendMu.Lock()
	for _, d := range data {
		m := outMsg{data: d}
		if c.inj != nil && c.inj.NeedsType() {
			m.typ = typeOf(d)
		}
		select {
		case c.out <- m:
			c.trace.queued()
		default:
			c.sendMu.Unlock()
			c.abort(websocket.CloseTryAgainLater)
			return fmt.Errorf("send queue of %s full (%d messages): %w", c.ID, cap(c.out), ErrClosed)
		}
	}
	c.sendMu.Unlock()
	if len(c.out) >= c.high() && c.onPressure != nil && c.draining.CompareAndSwap(false, true) {
		c.onPressure(true)
	}
	return nil
}

// Close queues a close frame after the messages already queued.
func (c *Conn) Close(code int, reason string) {
	if c.ended.Load() {
		return
	}
	select {
	case c.out <- outMsg{close: &closeMsg{code, reason}}:
	default:
		c.abort(code)
	}
}

// FailInvalidText fails the connection with 1007 (invalid frame payload
// data) when in is a text message that is not valid UTF-8, as RFC 6455
// §8.1 requires of an endpoint that finds a text frame is not UTF-8, and
// reports whether it did. Messages that arrive after it are not handed to
// the Handler. A dialect calls it first thing in Message.
func (c *Conn) FailInvalidText(in Inbound) bool {
	if in.Binary || in.Oversize || utf8.Valid(in.Data) {
		return false
	}
	c.failed.Store(true)
	c.env.Log.Info("text frame is not UTF-8: failing the connection", "conn", c.ID)
	c.Close(websocket.CloseInvalidFramePayloadData, "text frame is not valid UTF-8")
	return true
}

// Done is closed when the connection has ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

func (c *Conn) abort(code int) {
	select {
	case c.kill <- code:
	default:
	}
}

func (c *Conn) high() int { return cap(c.out) * 3 / 4 }
func (c *Conn) low() int  { return cap(c.out) / 4 }

// Marshal encodes v as compact JSON without HTML escaping, so text reads
// on the wire as it was written.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("marshal %T: %w", v, err)
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// typeOf reads the discriminator of a message for faults that match by
// type: "type" in every dialect but myagent, which calls it "event".
func typeOf(data []byte) string {
	var m struct {
		Type  string `json:"type"`
		Event string `json:"event"`
	}
	_ = json.Unmarshal(data, &m)
	if m.Type != "" {
		return m.Type
	}
	return m.Event
}

// readPump reads until the connection fails or closes.
func (c *Conn) readPump(h Handler) {
	c.ws.SetPingHandler(func(data string) error {
		c.spoke.Store(true)
		err := c.ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(c.env.WriteTimeout))
		if errors.Is(err, websocket.ErrCloseSent) {
			return nil
		}
		return err
	})
	for {
		op, r, err := c.ws.NextReader()
		if err != nil {
			return
		}
		c.spoke.Store(true)
		in, err := c.readMessage(op, r)
		if err != nil {
			return
		}
		if !c.failed.Load() {
			h.Message(in)
		}
		c.waitForRoom()
	}
}

func (c *Conn) readMessage(op int, r io.Reader) (Inbound, error) {
	in := Inbound{Binary: op == websocket.BinaryMessage}
	data, err := io.ReadAll(io.LimitReader(r, c.env.MaxFrame+1))
	if err != nil {
		return in, err
	}
	in.Size = int64(len(data))
	if in.Size <= c.env.MaxFrame {
		in.Data = data
		return in, nil
	}
	rest, err := io.Copy(io.Discard, r)
	in.Oversize, in.Size = true, in.Size+rest
	return in, err
}

// waitForRoom pushes back on a client that sends faster than it reads: the
// reader stops reading while the send queue is above three quarters, so TCP
// flow control slows the client instead of the queue growing.
func (c *Conn) waitForRoom() {
	if len(c.out) < c.high() {
		return
	}
	c.waiting.Store(true)
	defer c.waiting.Store(false)
	for len(c.out) > c.low() {
		select {
		case <-c.lowWater:
		case <-c.done:
			return
		case <-c.wend:
			return
		case <-c.env.ctx.Done():
			return
		}
	}
}

// writePump owns every write to the socket (gorilla allows one writer).
func (c *Conn) writePump() {
	defer close(c.wend)
	defer c.ended.Store(true)
	if c.inj != nil && c.end(c.inj.Start()) {
		return
	}
	var held *outMsg
	for {
		// A full queue ends the connection before anything queued is sent.
		select {
		case code := <-c.kill:
			c.closeWith(code, "send queue full: client reads too slowly")
			return
		default:
		}
		select {
		case m := <-c.out:
			if m.close != nil {
				c.closeWith(m.close.code, m.close.reason)
				return
			}
			stop, err := c.deliver(m, &held)
			if err != nil || stop {
				if err != nil {
					_ = c.ws.UnderlyingConn().Close()
				}
				return
			}
			if c.slow.Load() {
				c.closeWith(websocket.CloseTryAgainLater, "client stopped reading: try again later")
				return
			}
			c.afterWrite()
		case code := <-c.kill:
			c.closeWith(code, "send queue full: client reads too slowly")
			return
		case <-c.env.ctx.Done():
			c.closeWith(websocket.CloseGoingAway, "server shutting down")
			return
		case <-c.done:
			return
		}
	}
}

// deliver writes one message as the fault plan says; stop reports that a
// fault ended the connection.
func (c *Conn) deliver(m outMsg, held **outMsg) (stop bool, err error) {
	if c.inj == nil {
		return false, c.write(m.data)
	}
	p := c.inj.Next(m.typ)
	if p.Wait > 0 && !c.sleep(p.Wait) {
		return true, nil
	}
	for i := 0; i < p.Copies; i++ {
		if err := c.write(m.data); err != nil {
			return true, err
		}
	}
	if p.Copies == 0 {
		*held = &m
	}
	if p.ReleaseHeld && *held != nil {
		if err := c.write((*held).data); err != nil {
			return true, err
		}
		*held = nil
	}
	return c.end(p.End), nil
}

// end carries out a fault that ends the connection.
func (c *Conn) end(e fault.End) bool {
	switch {
	case e.Drop:
		_ = c.ws.UnderlyingConn().Close()
	case e.Code != 0:
		c.closeWith(e.Code, "fault injected")
	default:
		return false
	}
	return true
}

func (c *Conn) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-c.done:
	case <-c.env.ctx.Done():
	}
	return false
}

// write sends one message. A write that blocks for WriteTimeout marks the
// client as not reading (stalled), but it is not cut there: it has
// CloseGrace more to complete, so that a frame is never cut in the middle
// and the 1013 that follows it reaches a client that reads again. Only a
// client that does not read within both loses the connection without a
// close frame (it reads nothing either way).
func (c *Conn) write(data []byte) error {
	_ = c.ws.SetWriteDeadline(time.Now().Add(c.env.WriteTimeout + c.env.CloseGrace))
	c.stall.Reset(c.env.WriteTimeout)
	err := c.ws.WriteMessage(websocket.TextMessage, data)
	c.stall.Stop()
	if err != nil {
		return fmt.Errorf("write to %s: %w", c.ID, err)
	}
	c.trace.sent()
	return nil
}

// stalled runs when a write blocked for WriteTimeout: the client stopped
// reading. Send refuses from now on; the writer closes with 1013 once the
// write completes.
func (c *Conn) stalled() {
	if c.slow.CompareAndSwap(false, true) {
		c.env.Log.Info(LogStalled, "conn", c.ID, "after", c.env.WriteTimeout)
	}
}

// LogStalled is the message the server logs when a client stopped reading
// and will be closed with 1013 (tests wait for it).
const LogStalled = "client stopped reading: closing with 1013"

// closeWith sends a close frame (within WriteTimeout) and gives the
// client closeAnswer to answer before the reader gives up on it. The socket is closed when the reader
// is done, after it read what the client sent: closing with unread input
// would reset the connection and could destroy the close frame still on
// its way to the client.
func (c *Conn) closeWith(code int, reason string) {
	msg := websocket.FormatCloseMessage(code, reason)
	now := time.Now()
	if err := c.ws.WriteControl(websocket.CloseMessage, msg, now.Add(c.env.WriteTimeout)); err != nil {
		_ = c.ws.UnderlyingConn().Close()
		return
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(closeAnswer))
}

// closeAnswer bounds how long a client has to answer the server's close
// frame: a shutdown waits for it. The frame is on its way by then; the
// socket closes gracefully behind it.
const closeAnswer = 2 * time.Second

func (c *Conn) afterWrite() {
	if len(c.out) > c.low() {
		return
	}
	if c.waiting.Load() {
		select {
		case c.lowWater <- struct{}{}:
		default:
		}
	}
	if c.onPressure != nil && c.draining.CompareAndSwap(true, false) {
		c.onPressure(false)
	}
}
