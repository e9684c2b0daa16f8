package minicodex

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/wsconform/wsconform/reference/server"
)

// client is one connection's side of the protocol. Message and Closed run
// on the connection's reader goroutine; hub is only touched there.
type client struct {
	srv  *service
	conn *server.Conn
	// query is the ?session_id= of the upgrade request, "" when absent.
	query string
	// lineage is the client's lineage cookie (see lineage.go).
	lineage string
	hub     *hub
	// draining is set while the send queue is above its high-water mark;
	// room gets a token when it drained (see hub.waitRoom).
	draining atomic.Bool
	room     chan struct{}
}

func (s *service) newClient(conn *server.Conn, query, lineage string) server.Handler {
	c := &client{srv: s, conn: conn, query: query, lineage: lineage, room: make(chan struct{}, 1)}
	conn.OnPressure(c.pressure)
	if s.env.Heartbeat > 0 {
		s.env.Go(c.heartbeat)
	}
	return c
}

// pressure tells the client about backpressure: drain when its send queue
// passed three quarters, ok when it drained below a quarter.
func (c *client) pressure(drain bool) {
	c.draining.Store(drain)
	state := "ok"
	if drain {
		state = "drain"
	}
	_ = c.conn.Send(backpressureMsg{Type: "backpressure", State: state})
	if !drain {
		select {
		case c.room <- struct{}{}:
		default:
		}
	}
}

// heartbeat sends {type: heartbeat, interval_ms} every Heartbeat until the
// connection or the server ends.
func (c *client) heartbeat(ctx context.Context) {
	every := c.srv.env.Heartbeat
	t := time.NewTicker(every)
	defer t.Stop()
	msg := heartbeatMsg{Type: "heartbeat", IntervalMS: every.Milliseconds()}
	for {
		select {
		case <-t.C:
			if c.conn.Send(msg) != nil {
				return
			}
		case <-c.conn.Done():
			return
		case <-ctx.Done():
			return
		}
	}
}

// ended reports whether the connection has ended.
func (c *client) ended() bool {
	select {
	case <-c.conn.Done():
		return true
	default:
		return false
	}
}

// Message handles one client message; a refused one is answered with an
// error and changes nothing.
func (c *client) Message(in server.Inbound) {
	if c.conn.FailInvalidText(in) {
		return
	}
	cmd, reqID, err := decode(in, c.srv.env.MaxFrame)
	switch {
	case cmd.Type == "send" && c.hub != nil && c.srv.has(mutSendBusy):
		err = &cmdError{Code: codeBusy, Message: "a run is already active: wait for it to finish or abort it"}
	case err == nil:
		err = c.dispatch(cmd)
	}
	if err != nil {
		_ = c.conn.Send(errorMsg{Type: "error", Code: err.Code, Message: err.Message, Details: err.Details, ReqID: reqID})
	}
}

// Closed detaches the connection from its session; the session and its
// run live on for other clients and for a resume.
func (c *client) Closed() {
	if c.hub != nil {
		c.srv.leave(c.hub, c)
	}
}

func (c *client) dispatch(cmd command) *cmdError {
	switch cmd.Type {
	case "ping":
		return c.ping(cmd)
	case "hello", "resume":
		return c.handshake(cmd)
	}
	if c.hub == nil {
		return invalid("%s before hello or resume: the connection is not attached to a session", cmd.Type)
	}
	if cmd.SessionID != "" && cmd.SessionID != c.hub.id {
		return badArg("session_id", "session_id %q is not this connection's session %q", cmd.SessionID, c.hub.id)
	}
	switch cmd.Type {
	case "send":
		return c.hub.send(c, cmd)
	case "approve", "deny":
		return c.hub.approve(c, cmd)
	case "abort":
		return c.hub.abort(c, cmd)
	default: // get_snapshot
		return c.hub.getSnapshot(c, cmd)
	}
}

// ping is answered with accepted: the spec names no pong. req_id is
// echoed, or the nonce when there is no req_id.
func (c *client) ping(cmd command) *cmdError {
	id := cmd.ReqID
	if id == "" {
		id = cmd.Nonce
	}
	_ = c.conn.Send(acceptedMsg{Type: "accepted", ReqID: id})
	return nil
}

// handshake attaches the connection to a session: hello starts one (or
// joins the one named), resume rejoins the one named and replays.
func (c *client) handshake(cmd command) *cmdError {
	if c.hub != nil {
		return invalid("%s on a connection already attached to session %q", cmd.Type, c.hub.id)
	}
	if cmd.Type == "hello" && !supported(cmd.V) {
		e := badArg("v", "protocol version %q is not supported", cmd.V)
		e.Details["supported"] = protocolVersion
		return e
	}
	sid, err := c.sessionID(cmd)
	if err != nil {
		return err
	}
	if sid == "" && cmd.Type == "resume" {
		if sid, err = c.srv.resumeTarget(c.lineage); err != nil {
			return err
		}
	}
	if sid == "" {
		h := c.srv.create(c)
		h.hello(c, cmd.ReqID)
		c.hub = h
		c.srv.remember(c.lineage, h.id)
		return nil
	}
	h := c.srv.join(sid, c)
	if h == nil {
		e := badArg("session_id", "unknown session %q: start a new one with hello", sid)
		e.Details["session_id"] = sid
		return e
	}
	if cmd.Type == "hello" {
		h.hello(c, cmd.ReqID)
	} else if err := h.resume(c, cmd); err != nil {
		c.srv.leave(h, c)
		return err
	}
	c.hub = h
	c.srv.remember(c.lineage, h.id)
	return nil
}

// sessionID is the session a handshake names: the envelope's session_id or
// the ?session_id= query, which must agree when both are given.
func (c *client) sessionID(cmd command) (string, *cmdError) {
	if c.query != "" && cmd.SessionID != "" && c.query != cmd.SessionID {
		return "", badArg("session_id", "session_id %q differs from the ?session_id=%s of the connection", cmd.SessionID, c.query)
	}
	if cmd.SessionID != "" {
		return cmd.SessionID, nil
	}
	return c.query, nil
}

// supported accepts every 1.x version: minor versions only add.
func supported(v string) bool { return v == "1" || strings.HasPrefix(v, "1.") }
