package myagent

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/wsconform/wsconform/internal/version"
	"github.com/wsconform/wsconform/reference/server"
)

// capabilities are what system.connected announces.
var capabilities = []string{"seq_ack", "replay", "user_confirm", "cancel", "cancel_task", "restart_task", "request_state", "heartbeat"}

// conn is the server side of one WebSocket connection. sess is touched only
// by the connection's reader goroutine (Message and Closed).
type conn struct {
	srv  *Server
	env  *server.Env
	c    *server.Conn
	id   string // connection_id
	sess *session
	// cur mirrors sess for the connection's writer, which reports
	// backpressure; since is when the send queue passed three quarters
	// (unix ns), 0 while it is not that full.
	cur   atomic.Pointer[session]
	since atomic.Int64
}

// setSession records the connection's session (nil: none).
func (k *conn) setSession(s *session) {
	k.sess = s
	k.cur.Store(s)
}

// pressure is the connection's backpressure callback (server.Conn.
// OnPressure). It runs inside Send and on the writer, so it only touches
// atomics and the session's relief channel.
//
// It follows the queue's state now (server.Conn.Draining), not its
// argument: the writer's "drained" and a sender's "drain" can be called
// in either order when both cross the marks at once, and a stale "drained"
// after a "drain" left a full queue looking free, so the run overflowed a
// client that was reading (TestSlowClient, under load).
func (k *conn) pressure(bool) {
	if k.c.Draining() {
		k.since.Store(time.Now().UnixNano())
		return
	}
	k.since.Store(0)
	if s := k.cur.Load(); s != nil {
		s.relieve()
	}
}

// accept greets a new connection with system.connected (§Connection
// Lifecycle) and starts its heartbeat. A connection belongs to no session
// until it creates or names one.
func (s *Server) accept(c *server.Conn) server.Handler {
	k := &conn{srv: s, env: s.env, c: c, id: s.env.IDs.New("conn_")}
	c.OnPressure(k.pressure)
	if s.env.Mutations.Has(mutConnectedLate) {
		k.reply(&event{Event: evNotice, Content: map[string]any{"message": "welcome"}})
	}
	k.reply(&event{Event: evConnected,
		Content:  map[string]any{"server_version": version.Number(), "capabilities": capabilities},
		Metadata: map[string]any{"connection_id": k.id}})
	k.heartbeat()
	return k
}

// reply sends a connection-scoped event (no seq: it is not part of any
// session's stream and is never replayed).
func (k *conn) reply(ev *event) {
	id := ""
	if k.sess != nil {
		id = k.sess.id
	}
	_ = k.send(ev, id)
}

// replyLocked is reply from code holding s.mu (a session k may not have
// joined yet).
func (k *conn) replyLocked(s *session, ev *event) { _ = k.send(ev, s.id) }

// send marshals and queues a connection-scoped event; it fails once the
// connection has ended.
func (k *conn) send(ev *event, sessionID string) error {
	ev.Timestamp = stamp(k.env)
	ev.SessionID = sessionID
	ev.ConnectionID = k.id
	data, err := server.Marshal(ev)
	if err != nil {
		k.env.Log.Error("myagent: drop reply", "event", ev.Event, "err", err)
		return err
	}
	return k.c.SendRaw(data)
}

// heartbeat sends system.heartbeat every Config.Heartbeat until the
// connection or the server ends (§Connection Lifecycle).
func (k *conn) heartbeat() {
	if k.env.Heartbeat < 0 {
		return
	}
	k.env.Go(func(ctx context.Context) {
		t := time.NewTicker(k.env.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-k.c.Done():
				return
			case <-t.C:
				// No session_id: sess belongs to the reader goroutine.
				if k.send(&event{Event: evHeartbeat, Content: map[string]any{"timestamp": k.env.Stamp()}}, "") != nil {
					return
				}
			}
		}
	})
}

// Message handles one client frame; a refused one is answered with its
// error event and changes nothing.
func (k *conn) Message(in server.Inbound) {
	if k.c.FailInvalidText(in) {
		return // RFC 6455 §8.1: 1007, not a parse error
	}
	m, perr := parse(in, k.env.MaxFrame)
	if perr == nil {
		perr = k.dispatch(m)
	}
	if perr != nil {
		received := ""
		if m != nil {
			received = m.Event
		}
		if k.env.Mutations.Has(mutRefusesAsBusy) {
			perr = &protoError{kind: perr.kind, code: codeRunInProgress,
				msg: "a pipeline is already running in this session; wait for it or send user.cancel"}
		}
		k.reply(perr.event(received))
	}
}

// Closed detaches the connection from its session.
func (k *conn) Closed() {
	if k.sess == nil {
		return
	}
	k.sess.leave(k)
	k.srv.release(k.sess)
	k.setSession(nil)
}

func (k *conn) dispatch(m *message) *protoError {
	switch m.Event {
	case inCreateSession:
		return k.createSession()
	case inReconnect, inReconnectState:
		return k.reconnect(m)
	case inMessage, inSolveTasks:
		return k.start(m)
	}
	sess, err := k.session(m)
	if err != nil {
		return err
	}
	switch m.Event {
	case inResponse:
		return k.respond(sess, m)
	case inCancel:
		return sess.cancelRun()
	case inCancelTask:
		ref, err := m.taskRef()
		if err != nil {
			return err
		}
		return sess.cancelTask(ref)
	case inRestartTask:
		ref, err := m.taskRef()
		if err != nil {
			return err
		}
		return sess.restartTask(ref)
	case inAck:
		seq, ok := m.seq()
		if !ok {
			return missing(m.Event, "seq")
		}
		return sess.ack(k, seq)
	case inRequestState:
		sess.export(k)
	}
	return nil
}
