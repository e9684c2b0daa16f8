package proxy

import (
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/sessionize"
	"github.com/wsconform/wsconform/internal/wire"
)

// side names the two legs of a proxied connection.
type side int

const (
	sideClient   side = iota // the browser (or other client) that dialled the proxy
	sideUpstream             // the connection the proxy dialled to the server
)

// leg is one WebSocket of a proxied connection. Gorilla allows one reader
// and one writer per socket, so each leg has exactly one of each: the
// reader is the other leg's source (it pushes into the other leg's queue)
// and the writer drains this leg's queue.
type leg struct {
	c    *conn
	side side
	ws   *websocket.Conn
	out  *queue
	inj  *fault.Injector

	abort     chan struct{}
	abortOnce sync.Once
	// wmu is held by whoever writes to ws: the writer goroutine, or the
	// other leg's reader taking the fast path (see forward).
	wmu sync.Mutex
	// busy is set while the writer holds messages back on purpose (a
	// fault's delay or pause): a full queue is then not a stall.
	busy atomic.Bool
	// closeQueued is set once a close frame is queued for (or sent to)
	// this peer, so it gets exactly one.
	closeQueued atomic.Bool
	// closeRecv is the code of the close frame this peer sent, 0 if none.
	closeRecv atomic.Int32
	// tap sees the close frame this peer sent as sent (nil when the
	// connection could not be tapped: closetap.go).
	tap *closeTap
	// lc holds writes to this peer back while more follow (legconn.go);
	// nil when gorilla dialled the connection itself.
	lc *legConn
	// owes is the other leg when this leg's reader wrote to it on the
	// fast path and left the write held back: the reader flushes it
	// before it waits for its own peer. Only this leg's reader uses it.
	owes *leg
}

// closeFrame is the close frame this peer sent, as sent.
func (l *leg) closeFrame() (closeFrame, bool) {
	if l.tap == nil {
		return closeFrame{}, false
	}
	return l.tap.closeFrame()
}

func (l *leg) name() string {
	if l.side == sideClient {
		return "client"
	}
	return "upstream"
}

// readDir is the direction of the messages this leg's peer sends.
func (l *leg) readDir() wire.Direction {
	if l.side == sideClient {
		return wire.ClientToServer
	}
	return wire.ServerToClient
}

// by is how a close this peer started is recorded.
func (l *leg) by() string {
	if l.side == sideClient {
		return recording.ByClient
	}
	return recording.ByServer
}

// conn is one proxied connection: the client leg, the upstream leg and the
// four pumps between them.
type conn struct {
	p           *Proxy
	id          string
	url         string
	path        string
	subprotocol string
	opened      time.Time
	client      *leg
	upstream    *leg
	// unjudged: outside --path; relayed and recorded, never judged.
	unjudged bool
	// spoke is set by the first frame either peer sends (--idle-timeout).
	spoke atomic.Bool
	// rec is the recorder (nil: not recording), which has a frame's line
	// in the file before the frame reaches a peer.
	rec *recorder

	endMu sync.Mutex
	end   ending
	ended bool
	// slowOnce makes a slow peer one finding, though both its writer (a
	// write deadline) and the other leg's reader (a stalled queue) notice.
	slowOnce sync.Once

	// Guarded by the tap's lock.
	sc      sessionize.Conn
	skipped int
	frames  int64
}

func (c *conn) other(l *leg) *leg {
	if l == c.client {
		return c.upstream
	}
	return c.client
}

// setEnd records the first thing that ended the connection; later causes
// (the peers' answers, timeouts while closing) do not overwrite it.
func (c *conn) setEnd(e ending) {
	c.endMu.Lock()
	defer c.endMu.Unlock()
	if !c.ended {
		c.end, c.ended = e, true
	}
}

func (c *conn) ending() ending {
	c.endMu.Lock()
	defer c.endMu.Unlock()
	return c.end
}

// run relays until both legs are done, then records how it ended. The
// caller's goroutine becomes the client leg's reader.
func (c *conn) run() {
	c.p.tap.open(c)
	if d := c.p.cfg.IdleTimeout; d > 0 {
		idle := time.AfterFunc(d, c.idle)
		defer idle.Stop()
	}
	var readers, writers sync.WaitGroup
	writers.Add(2)
	go func() { defer writers.Done(); c.writePump(c.client) }()
	go func() { defer writers.Done(); c.writePump(c.upstream) }()
	readers.Add(1)
	go func() { defer readers.Done(); c.readPump(c.upstream) }()
	c.readPump(c.client)
	readers.Wait()
	// Both peers are done sending; a writer may still owe its peer the
	// answer to a close. Give it the grace a peer gets, then cut.
	if !waitTimeout(&writers, c.p.cfg.CloseGrace+c.p.cfg.WriteTimeout) {
		c.abortLeg(c.client)
		c.abortLeg(c.upstream)
		writers.Wait()
	}
	_ = c.client.ws.Close()
	_ = c.upstream.ws.Close()
	c.setEnd(ending{code: websocket.CloseAbnormalClosure, reason: "connection ended", by: recording.ByNetwork})
	c.p.tap.closed(c, c.ending())
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// readPump reads messages from leg a's peer, hands each to the tap and
// queues it for the other leg, until a close frame or an error.
func (c *conn) readPump(a *leg) {
	b := c.other(a)
	a.ws.SetReadLimit(c.p.cfg.MaxFrame)
	// Control frames pass through: gorilla's defaults would answer pings
	// and echo closes itself, hiding them from the other peer.
	a.ws.SetPingHandler(func(data string) error { return c.control(a, b, wire.OpPing, data) })
	a.ws.SetPongHandler(func(data string) error { return c.control(a, b, wire.OpPong, data) })
	a.ws.SetCloseHandler(func(int, string) error { return nil })
	for {
		op, data, err := readMessage(a.ws)
		if err != nil {
			c.readEnded(a, b, err)
			return
		}
		if !c.spoke.Load() {
			c.spoke.Store(true)
		}
		f := c.p.tap.frame(c, a.readDir(), wire.Opcode(op), data, 0, a.owes == nil)
		if err := c.forward(b, msg{op: wire.Opcode(op), data: data, index: f.Index}); err != nil {
			c.readEnded(a, b, err)
			return
		}
		if c.p.tap.behind() {
			runtime.Gosched()
		}
	}
}

// errSlow ends a reader whose message could not be queued.
var errSlow = errors.New("relay queue stalled")

func (c *conn) control(a, b *leg, op wire.Opcode, data string) error {
	c.spoke.Store(true)
	payload := []byte(data)
	f := c.p.tap.frame(c, a.readDir(), op, payload, 0, a.owes == nil)
	return c.forward(b, msg{op: op, data: payload, index: f.Index})
}

// forward queues a message for leg b. A message for a leg whose writer is
// gone (the connection is closing) is dropped; it was recorded.
//
// Fast path: when b's queue is empty, its writer idle and no fault acts on
// b, the reader writes the message itself, under b's write lock, saving a
// hand-off between goroutines on every message of an interactive session.
// The writer pops only under the same lock, so order is kept. The write is
// held back (legConn) until the reader has parsed what it has read: a
// burst that arrived in one read goes out in one write, and a lone message
// goes out as soon as the reader waits for the next one.
func (c *conn) forward(b *leg, m msg) error {
	if b.inj == nil && b.out.len() == 0 && b.wmu.TryLock() {
		if b.out.len() == 0 && !b.closeQueued.Load() && !b.aborted() {
			a := c.other(b)
			held := b.lc != nil && a.lc != nil && m.op != wire.OpClose
			if held {
				b.lc.hold(true)
			}
			c.write(b, m, nil)
			if held {
				b.lc.hold(false)
				a.owes = b
			}
			b.wmu.Unlock()
			return nil
		}
		b.wmu.Unlock()
	}
	err := b.out.push(m, b.abort, c.p.cfg.WriteTimeout, b.busy.Load)
	switch {
	case err == nil, errors.Is(err, errQueueClosed):
		return nil
	case errors.Is(err, errBudget):
		c.overBudget(b)
		return errSlow
	default:
		c.slow(b, "its relay queue stayed full for "+c.p.cfg.WriteTimeout.String())
		return errSlow
	}
}

// flushOwed writes out what leg a's reader left held back for the other
// leg (forward), before the reader waits for more from its peer. When the
// recorder has not written those frames yet (a burst), the flush is left
// to b's writer, which waits for the recorder while the reader goes on
// reading: reading, recording and writing then overlap.
func (c *conn) flushOwed(a *leg) {
	b := a.owes
	if b == nil {
		return
	}
	a.owes = nil
	if !b.lc.recorded() {
		err := b.out.push(msg{op: opFlush}, b.abort, c.p.cfg.WriteTimeout, b.busy.Load)
		if errors.Is(err, errStalled) {
			c.slow(b, "its relay queue stayed full for "+c.p.cfg.WriteTimeout.String())
		}
		return
	}
	b.wmu.Lock()
	err := b.lc.flush()
	b.wmu.Unlock()
	if err != nil && !b.aborted() {
		c.writeFailed(b, err)
	}
}

// readEnded handles the end of leg a's reader.
func (c *conn) readEnded(a, b *leg, err error) {
	c.flushOwed(a)
	var ce *websocket.CloseError
	switch {
	case errors.Is(err, errSlow):
		// slow() already ended the connection.
	case errors.As(err, &ce) && ce.Code != websocket.CloseAbnormalClosure:
		// A close frame: record it as sent and pass it on with its code
		// and reason (gorilla read 1014 as 1011, and an invalid UTF-8
		// reason with '?': closetap.go).
		code, raw := ce.Code, []byte(ce.Text)
		if cf, ok := a.closeFrame(); ok && code != websocket.CloseNoStatusReceived {
			code, raw = cf.code, cf.reason
		}
		reason := string(raw)
		c.p.tap.frame(c, a.readDir(), wire.OpClose, raw, code, false)
		if !utf8.Valid(raw) {
			reason = strings.ToValidUTF8(reason, "\uFFFD")
			c.p.tap.finding(c, badCloseFinding(c.id, a.readDir(), fmt.Sprintf(
				"the %s's close reason is not UTF-8; it was passed on with U+FFFD in place of the invalid bytes (recorded as sent)", a.name()),
				fmt.Sprintf("close %d with a reason of %d bytes that is not UTF-8", code, len(raw))))
		}
		a.closeRecv.Store(int32(code))
		c.setEnd(ending{code: code, reason: reason, by: a.by()})
		c.sendClose(b, code, reason)
	case errors.Is(err, websocket.ErrReadLimit):
		// Gorilla has told a's peer 1009 already. Its TCP connection is
		// closed when the connection ends, not now: closing a socket with
		// the rest of the big message unread would reset it, and the peer
		// could lose the close frame.
		a.closeQueued.Store(true)
		c.p.tap.finding(c, tooLargeFinding(c.id, a.readDir(), c.p.cfg.MaxFrame))
		c.setEnd(ending{code: websocket.CloseMessageTooBig, reason: "the " + a.name() + " sent a message larger than --max-frame", by: recording.ByProxy})
		c.stopWriter(a)
		c.sendClose(b, websocket.CloseMessageTooBig, "wsproxy: the "+a.name()+" sent a message larger than --max-frame")
	default:
		if cf, ok := a.closeFrame(); ok && !wire.SendableCloseCode(cf.code) {
			c.badCloseCode(a, b, cf)
			return
		}
		// The peer vanished (no close frame), broke the protocol, or did
		// not answer our close in time.
		c.setEnd(ending{code: websocket.CloseAbnormalClosure, reason: describe(a, err), by: recording.ByNetwork})
		c.stopWriter(a)
		if c.p.cfg.MirrorDrops && b.closeRecv.Load() == 0 {
			c.sendClose(b, websocket.CloseAbnormalClosure, "") // a drop, after what is queued
			return
		}
		code, reason := c.lostCode(b, false)
		c.sendClose(b, code, reason)
	}
}

// badCloseCode ends a connection whose leg a's peer sent a close code no
// endpoint may send (RFC 6455 §7.4.1: 1004-1006, 1015, 0-999,
// 1016-2999, 5000 and up): gorilla has failed its connection with 1002,
// as the RFC asks; the frame is recorded as sent, and the other peer gets
// 1002 with the reason.
func (c *conn) badCloseCode(a, b *leg, cf closeFrame) {
	c.p.tap.frame(c, a.readDir(), wire.OpClose, cf.reason, cf.code, false)
	why := fmt.Sprintf("the %s sent close code %d, which no endpoint may send", a.name(), cf.code)
	c.p.tap.finding(c, badCloseFinding(c.id, a.readDir(), why+"; both legs were closed with 1002 (protocol error)",
		fmt.Sprintf("close code %d", cf.code)))
	c.setEnd(ending{code: websocket.CloseProtocolError, reason: why, by: recording.ByProxy})
	c.stopWriter(a)
	c.sendClose(b, websocket.CloseProtocolError, "wsproxy: "+why)
}

// lostCode is the close code leg b gets when the other leg is gone: the
// echo of b's own close if b started closing, else a code its peer would
// expect from its counterpart (without Config.MirrorDrops, or when the
// proxy itself ends the connection). 1006 is never sent: a client gets 1011
// (internal error; 1014 "bad gateway" would fit better, but gorilla's and
// other client libraries' readers refuse it) or 1013 (try again later)
// for a slow upstream, an upstream gets 1001 (going away).
func (c *conn) lostCode(b *leg, slow bool) (int, string) {
	if k := b.closeRecv.Load(); k != 0 {
		return int(k), ""
	}
	if b.side == sideClient {
		if slow {
			return websocket.CloseTryAgainLater, "wsproxy: the upstream reads too slowly; try again later"
		}
		return websocket.CloseInternalServerErr, "wsproxy: upstream connection lost"
	}
	if slow {
		return websocket.CloseGoingAway, "wsproxy: the client reads too slowly"
	}
	return websocket.CloseGoingAway, "wsproxy: the client went away"
}

// sendClose queues a close frame for leg b after what is queued, unless b
// already has one.
func (c *conn) sendClose(b *leg, code int, reason string) {
	if !b.closeQueued.CompareAndSwap(false, true) {
		return
	}
	m := msg{op: wire.OpClose, code: code, data: []byte(reason)}
	if err := b.out.push(m, b.abort, c.p.cfg.WriteTimeout, b.busy.Load); err != nil {
		c.abortLeg(b)
	}
}

// slow ends the connection because leg b's peer does not accept messages.
// The other leg's close is queued before b is cut, so that it says why
// (1013 or 1001) rather than what b's reader sees next (a lost peer).
func (c *conn) slow(b *leg, why string) {
	first := false
	c.slowOnce.Do(func() { first = true })
	if !first {
		return
	}
	c.p.tap.finding(c, slowFinding(c.id, b.readDir(), why))
	c.setEnd(ending{code: websocket.CloseAbnormalClosure, reason: "the " + b.name() + " did not accept messages: " + why, by: recording.ByProxy})
	a := c.other(b)
	code, reason := c.lostCode(a, true)
	c.sendClose(a, code, reason)
	c.abortLeg(b)
}

// overBudget ends the connection whose backlog for leg b would bring the
// proxy's buffers over --memory-budget: the backlog is dropped (it was
// recorded), the client gets 1013 (try again later), the upstream 1001.
func (c *conn) overBudget(b *leg) {
	first := false
	c.slowOnce.Do(func() { first = true })
	if !first {
		return
	}
	c.p.tap.finding(c, budgetFinding(c.id, b.readDir(), c.p.cfg.MemoryBudget))
	c.setEnd(ending{code: websocket.CloseTryAgainLater, reason: "wsproxy: memory budget exceeded (messages waiting for the " + b.name() + ")", by: recording.ByProxy})
	b.out.dropAll()
	for _, l := range []*leg{c.client, c.upstream} {
		code := websocket.CloseTryAgainLater
		if l.side == sideUpstream {
			code = websocket.CloseGoingAway
		}
		c.sendClose(l, code, "wsproxy: memory budget exceeded; try again later")
	}
}

// idle closes a connection on which neither peer has sent a frame within
// --idle-timeout.
func (c *conn) idle() {
	if c.spoke.Load() {
		return
	}
	after := c.p.cfg.IdleTimeout.String()
	c.p.tap.finding(c, idleFinding(c.id, after))
	c.setEnd(ending{code: websocket.CloseGoingAway, reason: "wsproxy: no frame within --idle-timeout " + after, by: recording.ByProxy})
	for _, l := range []*leg{c.client, c.upstream} {
		c.sendClose(l, websocket.CloseGoingAway, "wsproxy: idle for "+after)
	}
}

// abortLeg drops a leg: its writer stops, its queue refuses messages and
// its TCP connection closes without a close frame (which also ends a write
// or a read blocked on it).
func (c *conn) abortLeg(l *leg) {
	c.stopWriter(l)
	_ = l.ws.NetConn().Close()
}

// stopWriter stops a leg's writer and makes its queue refuse messages;
// its socket is closed when the connection ends.
func (c *conn) stopWriter(l *leg) {
	l.abortOnce.Do(func() {
		close(l.abort)
		l.out.close()
	})
}

// writePump owns every write to leg l (gorilla allows one writer).
func (c *conn) writePump(l *leg) {
	defer l.out.close()
	if l.inj != nil {
		if e := l.inj.Start(); e.Ends() {
			c.faultEnd(l, e)
			return
		}
	}
	var held *msg
	for {
		ok, quit := l.out.wait(l.abort, c.p.quit)
		if quit {
			l.wmu.Lock()
			c.drain(l)
			l.wmu.Unlock()
			return
		}
		if !ok {
			return
		}
		l.wmu.Lock()
		m, popped := l.out.tryPop()
		// Hold the write back while more messages are queued; the last
		// one of a burst writes them all (legconn.go).
		batch := popped && l.lc != nil && l.inj == nil && m.op != wire.OpClose && m.op != opFlush
		if batch {
			l.lc.hold(true)
		}
		goOn := !popped || c.write(l, m, &held)
		if batch {
			l.lc.hold(false)
			if goOn && l.out.len() == 0 {
				if err := l.lc.flush(); err != nil {
					c.writeFailed(l, err)
					goOn = false
				}
			}
		}
		l.wmu.Unlock()
		if !goOn {
			return
		}
	}
}

func (l *leg) aborted() bool {
	select {
	case <-l.abort:
		return true
	default:
		return false
	}
}

// write sends one message, applying the faults of l's direction to data
// messages. It reports whether the writer goes on.
func (c *conn) write(l *leg, m msg, held **msg) bool {
	c.mark(l, m)
	switch m.op {
	case opFlush:
		if err := l.lc.flush(); err != nil {
			c.writeFailed(l, err)
			return false
		}
		return true
	case wire.OpClose:
		c.writeClose(l, m.code, string(m.data))
		return false
	case wire.OpPing, wire.OpPong:
		err := l.ws.WriteControl(int(m.op), m.data, time.Now().Add(c.p.cfg.WriteTimeout))
		if err != nil {
			c.writeFailed(l, err)
			return false
		}
		return true
	}
	if l.inj == nil {
		return c.send(l, m)
	}
	return c.deliver(l, m, held)
}

// mark names the frame whose bytes l's connection is about to carry, so
// that they reach the peer only once the recording holds it.
func (c *conn) mark(l *leg, m msg) {
	if l.lc != nil {
		l.lc.setIndex(m.index)
	} else if c.rec != nil {
		c.rec.awaitFlushed(m.index)
	}
}

// send writes one data message with the write deadline.
func (c *conn) send(l *leg, m msg) bool {
	_ = l.ws.SetWriteDeadline(time.Now().Add(c.p.cfg.WriteTimeout))
	if err := l.ws.WriteMessage(int(m.op), m.data); err != nil {
		c.writeFailed(l, err)
		return false
	}
	return true
}

// shutdownGrace is how long peers have to answer the proxy's 1001 when it
// shuts down: a developer pressing Ctrl-C should not wait long for a tab
// that does not answer.
const shutdownGrace = time.Second

// writeClose sends a close frame (1005 sends one without a status code)
// and gives the peer CloseGrace to answer before its reader gives up.
//
// Code 1006 is never sent (RFC 6455 §7.4.1): it stands for a drop
// (Config.MirrorDrops), and the leg's TCP connection is cut instead.
func (c *conn) writeClose(l *leg, code int, reason string) {
	l.closeQueued.Store(true)
	if code == websocket.CloseAbnormalClosure {
		c.abortLeg(l)
		return
	}
	payload := websocket.FormatCloseMessage(code, truncateReason(reason))
	if code == websocket.CloseNoStatusReceived {
		payload = nil
	}
	now := time.Now()
	if err := l.ws.WriteControl(websocket.CloseMessage, payload, now.Add(c.p.cfg.WriteTimeout)); err != nil {
		c.abortLeg(l)
		return
	}
	grace := c.p.cfg.CloseGrace
	select {
	case <-c.p.quit:
		grace = min(grace, shutdownGrace)
	default:
	}
	_ = l.ws.SetReadDeadline(now.Add(grace))
}

// truncateReason keeps a close reason within the 123 bytes a close frame
// has room for, without splitting a UTF-8 sequence.
func truncateReason(s string) string {
	const max = 123
	if len(s) <= max {
		return s
	}
	s = s[:max]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// writeFailed ends the connection after a failed write to leg l: a write
// that timed out means a slow peer, anything else a lost one.
func (c *conn) writeFailed(l *leg, err error) {
	if isTimeout(err) {
		c.slow(l, "a write did not complete within "+c.p.cfg.WriteTimeout.String())
		return
	}
	c.setEnd(ending{code: websocket.CloseAbnormalClosure, reason: "write to the " + l.name() + " failed: " + err.Error(), by: recording.ByNetwork})
	a := c.other(l)
	code, reason := c.lostCode(a, false)
	c.sendClose(a, code, reason)
	c.abortLeg(l)
}

// drain delivers what is queued for leg l when the proxy shuts down, then
// closes it with 1001. Faults no longer delay anything.
func (c *conn) drain(l *leg) {
	c.setEnd(ending{code: websocket.CloseGoingAway, reason: "wsproxy shutting down", by: recording.ByProxy})
	for range l.out.len() {
		m, ok := l.out.tryPop()
		if !ok {
			break
		}
		c.mark(l, m)
		if m.op == opFlush {
			continue // the next write carries what is held
		}
		if m.op == wire.OpClose {
			c.writeClose(l, m.code, string(m.data))
			return
		}
		if m.op == wire.OpPing || m.op == wire.OpPong {
			if l.ws.WriteControl(int(m.op), m.data, time.Now().Add(c.p.cfg.WriteTimeout)) != nil {
				c.abortLeg(l)
				return
			}
			continue
		}
		if !c.send(l, m) {
			return
		}
	}
	if l.closeQueued.CompareAndSwap(false, true) {
		c.writeClose(l, websocket.CloseGoingAway, "wsproxy shutting down")
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// describe says in a few words why a reader ended without a close frame.
func describe(l *leg, err error) string {
	var ce *websocket.CloseError
	switch {
	case errors.As(err, &ce):
		return "the " + l.name() + " closed the TCP connection without a close frame"
	case isTimeout(err):
		return "the " + l.name() + " did not answer the close in time"
	default:
		return "the " + l.name() + " connection failed: " + err.Error()
	}
}
