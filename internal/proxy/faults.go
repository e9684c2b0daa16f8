package proxy

import (
	"fmt"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// Faults act in the writer of the leg their direction points at, as the
// reference server applies them (reference/server/conn.go): s2c faults
// change what the client receives, c2s faults what the upstream receives.
// They never change what was recorded or judged: the recording holds what
// each peer sent, so a fault never becomes a finding against a peer.
//
//   - delay, jitter, pause: the writer holds the message (the reader keeps
//     queueing behind it until the queue is full, then waits: a paused
//     direction applies backpressure, it is not a stall);
//   - duplicate: the message is written twice;
//   - reorder: the message is held and written after the next one;
//   - close=CODE: the leg gets a close frame with CODE; its peer's answer
//     is relayed to the other leg like any close;
//   - drop-after: both TCP connections are cut without a close frame, as a
//     network failure would (both peers see 1006).

// newInjector builds the injector of one leg: faults of the direction
// that leg receives, seeded per connection and direction.
func newInjector(specs []fault.Spec, side side, seed uint64) *fault.Injector {
	dir := wire.ServerToClient
	if side == sideUpstream {
		dir = wire.ClientToServer
		seed ^= 0x9e3779b97f4a7c15
	}
	return fault.New(specs, dir, seed)
}

// deliver writes a data message as the fault plan says; it reports
// whether the writer goes on.
func (c *conn) deliver(l *leg, m msg, held **msg) bool {
	typ := ""
	if l.inj.NeedsType() && m.op == wire.OpText {
		typ = c.p.tap.typeOf(m.data)
	}
	p := l.inj.Next(typ)
	if p.Wait > 0 && !c.hold(l, p.Wait) {
		return false
	}
	for range p.Copies {
		if !c.send(l, m) {
			return false
		}
	}
	switch {
	case p.Copies == 2:
		c.faultNote(l, "sent frame %d%s twice (duplicate)", m.index, typeSuffix(typ))
	case p.Copies == 0:
		*held = &m
		c.faultNote(l, "holding frame %d%s to send it after the next one (reorder)", m.index, typeSuffix(typ))
	}
	if p.ReleaseHeld && *held != nil {
		h := *held
		*held = nil
		if !c.send(l, *h) {
			return false
		}
		c.faultNote(l, "sent held frame %d after frame %d (reorder)", h.index, m.index)
	}
	if p.End.Ends() {
		c.faultEnd(l, p.End)
		return false
	}
	return true
}

// hold waits d for a delay, jitter or pause fault. A shutdown cuts the
// wait short (the message is still sent); an abort ends the writer.
func (c *conn) hold(l *leg, d time.Duration) bool {
	l.busy.Store(true)
	defer l.busy.Store(false)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-c.p.quit:
	case <-l.abort:
		return false
	}
	return true
}

// faultEnd ends the connection the way a close or drop-after fault asks.
func (c *conn) faultEnd(l *leg, e fault.End) {
	spec := c.faultSpec(l, e)
	if e.Drop {
		c.setEnd(ending{code: websocket.CloseAbnormalClosure, reason: "fault " + spec + ": both TCP connections dropped", by: recording.ByProxy})
		c.faultNote(l, "dropped both TCP connections without a close frame (%s)", spec)
		// Neither peer gets a close frame: not the one the readers would
		// send when they notice the other side is gone either.
		c.client.closeQueued.Store(true)
		c.upstream.closeQueued.Store(true)
		c.abortLeg(c.client)
		c.abortLeg(c.upstream)
		return
	}
	c.setEnd(ending{code: e.Code, reason: "fault " + spec, by: recording.ByProxy})
	c.faultNote(l, "closed the %s with %d (%s)", l.name(), e.Code, spec)
	c.writeClose(l, e.Code, "wsproxy: fault injected")
}

// faultSpec names the spec that ended the connection, for notes.
func (c *conn) faultSpec(l *leg, e fault.End) string {
	kind := fault.Close
	if e.Drop {
		kind = fault.DropAfter
	}
	for _, s := range c.p.cfg.Faults {
		if s.Kind == kind && s.Dir == otherDir(l.readDir()) && (e.Drop || s.Code == e.Code) {
			return s.Text
		}
	}
	return string(kind)
}

// otherDir is the direction of the messages written to a leg: the
// opposite of what its peer sends.
func otherDir(d wire.Direction) wire.Direction {
	if d == wire.ClientToServer {
		return wire.ServerToClient
	}
	return wire.ClientToServer
}

func (c *conn) faultNote(l *leg, format string, args ...any) {
	arrow := otherDir(l.readDir()).Arrow()
	c.p.tap.note(c, fmt.Sprintf("%s %s fault: %s", c.id, arrow, fmt.Sprintf(format, args...)), false)
}

func typeSuffix(typ string) string {
	if typ == "" {
		return ""
	}
	return " (" + typ + ")"
}

// faultList is the faults a connection runs with, for its open line.
func faultList(specs []fault.Spec) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = string(s.Dir) + ":" + strings.TrimPrefix(strings.TrimPrefix(s.Text, "c2s:"), "s2c:")
	}
	return strings.Join(names, ", ")
}
