package myagent

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/wsconform/wsconform/reference/server"
)

// session is the server-authoritative state of one MyAgent session: its
// numbered event stream (seq, replay buffer), the connections attached to
// it, the running pipeline and the open confirmations. Connections attach
// and detach; the session outlives them for resumption.
type session struct {
	id      string
	created string
	env     *server.Env

	// refs counts attached connections; guarded by Server.mu, which decides
	// when a session with none is forgotten.
	refs int

	mu sync.Mutex
	// seq is the last seq assigned.
	seq int64
	// hole is a seq skipped on purpose (mutation only), given to the next
	// event.
	hole int64
	// log holds the unacknowledged events for replay (bounded by
	// Config.ReplayWindow).
	log *server.ReplayLog
	// conns are the attached connections with the highest seq each
	// acknowledged.
	conns map[*conn]int64
	// lastAck is the most recent user.ack of the session: the replay
	// cursor of a user.reconnect_with_state without last_seq.
	lastAck int64
	run     *run
	// steps are the open agent.user_confirm requests by step_id.
	steps map[string]*step
	// closedSteps remembers why recent steps closed, for the error a late
	// user.response gets.
	closedSteps *recent
	// tasks are the tasks of the latest run (cancel_task, restart_task).
	tasks      []*task
	transcript []turn
	forgotten  bool
	// relief wakes a run held back by a client's full send queue.
	relief chan struct{}
}

// turn is one line of the bounded transcript in the state snapshot.
type turn struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

func newSession(env *server.Env, id string) *session {
	return &session{
		id: id, created: env.Stamp(), env: env,
		log:         server.NewReplayLog(env.ReplayWindow),
		conns:       map[*conn]int64{},
		steps:       map[string]*step{},
		closedSteps: newRecent(64),
		relief:      make(chan struct{}, 1),
	}
}

// stamp is the timestamp of a new event; the timestamp mutation leaves it
// out.
func stamp(env *server.Env) string {
	if env.Mutations.Has(mutNoTimestamp) {
		return ""
	}
	return env.Stamp()
}

// emitLocked numbers ev, logs it for replay and sends the same bytes to
// every attached connection. The caller holds s.mu, so every client sees
// seqs in order.
func (s *session) emitLocked(ev *event) {
	ev.Seq = s.nextSeqLocked(ev.Event)
	ev.SessionID = s.id
	ev.Timestamp = stamp(s.env)
	data, err := server.Marshal(ev)
	if err != nil {
		s.env.Log.Error("myagent: drop event", "event", ev.Event, "err", err)
		return
	}
	s.log.Append(ev.Seq, data)
	if ev.Event == evPartial && s.env.Mutations.Has(mutBeatOvertakes) {
		s.beatLocked()
	}
	for k := range s.conns {
		_ = k.c.SendRaw(data)
	}
}

// beatLocked numbers a system.heartbeat in the session's stream and sends
// it at once (the heartbeat-overtakes-partial mutation: emitLocked sends
// it before the partial answer numbered just before it).
func (s *session) beatLocked() {
	ev := &event{Event: evHeartbeat, Content: map[string]any{"timestamp": s.env.Stamp()}}
	ev.Seq = s.nextSeqLocked(ev.Event)
	ev.SessionID = s.id
	ev.Timestamp = stamp(s.env)
	data, err := server.Marshal(ev)
	if err != nil {
		return
	}
	s.log.Append(ev.Seq, data)
	for k := range s.conns {
		_ = k.c.SendRaw(data)
	}
}

// nextSeqLocked assigns the next seq: one more than the last. The
// seq-regresses mutation numbers solver.start one further and gives the
// number it skipped to the event after it.
func (s *session) nextSeqLocked(typ string) int64 {
	if s.hole > 0 {
		h := s.hole
		s.hole = 0
		return h
	}
	s.seq++
	if typ == evSolverStart && s.env.Mutations.Has(mutSeqRegresses) {
		s.hole = s.seq
		s.seq++
	}
	return s.seq
}

// join attaches k (idempotent).
func (s *session) join(k *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.joinLocked(k)
}

func (s *session) joinLocked(k *conn) {
	if _, ok := s.conns[k]; !ok {
		s.conns[k] = 0
	}
}

// leave detaches k; what only k held back may now be pruned.
func (s *session) leave(k *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, k)
	s.pruneLocked()
}

// ack records user.ack{seq} from k and prunes the replay buffer.
func (s *session) ack(k *conn, seq int64) *protoError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if seq > s.seq {
		return invalid(codeAckUnsent, "user.ack of seq %d, but the session's last seq is %d", seq, s.seq).
			with("field", "seq").with("last_seq", s.seq)
	}
	if s.env.Mutations.Has(mutIgnoresAcks) {
		return nil
	}
	if s.env.Mutations.Has(mutRedeliveryAfterAck) {
		if evs, _ := s.log.After(seq - 1); len(evs) > 0 && evs[0].ID == seq {
			_ = k.c.SendRaw(evs[0].Data)
		}
	}
	if seq > s.conns[k] {
		s.conns[k] = seq
	}
	s.lastAck = seq
	s.pruneLocked()
	return nil
}

// pruneLocked drops the events every attached connection acknowledged:
// "ACK tracking prevents duplicate deliveries" (§Buffer Management). A
// connection that acknowledged nothing keeps the buffer whole.
func (s *session) pruneLocked() {
	if len(s.conns) == 0 {
		return
	}
	low := int64(-1)
	for _, a := range s.conns {
		if low < 0 || a < low {
			low = a
		}
	}
	if low > 0 {
		s.log.Prune(low)
	}
}

// resume replays to k the buffered events after last (after the session's
// last ack when the request names no last_seq) and attaches k, all under
// s.mu so no live event overtakes the replay.
func (s *session) resume(k *conn, last int64, hasLast bool) *protoError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !hasLast {
		last = s.lastAck
		if s.env.Mutations.Has(mutNoReplayNoLastSeq) {
			last = s.seq
		}
	}
	if last > s.seq {
		return &protoError{kind: evRecoveryFailed, code: codeSeqAhead,
			msg:  "last_seq " + itoa(last) + " is ahead of the session's last seq " + itoa(s.seq) + "; create a new session",
			meta: map[string]any{"field": "last_seq", "session_id": s.id, "session_last_seq": s.seq, "recovery_action": inCreateSession}}
	}
	from := last
	if s.env.Mutations.Has(mutReplayDuplicates) && from > 1 {
		from -= 2 // replays seq last-1, which the client already had
	}
	evs, complete := s.log.After(from)
	s.joinLocked(k)
	if !complete {
		oldest := s.seq + 1
		if len(evs) > 0 {
			oldest = evs[0].ID
		}
		return &protoError{kind: evRecoveryFailed, code: codeReplayGone,
			msg:  "events after seq " + itoa(last) + " are no longer buffered; request the state with user.request_state",
			meta: map[string]any{"recovery_action": "request_state", "last_seq": last, "oldest_buffered_seq": oldest}}
	}
	k.replyLocked(s, &event{Event: evNotice,
		Content: map[string]any{"message": "replaying " + itoa(int64(len(evs))) + " event(s) after seq " + itoa(last),
			"replay_count": len(evs), "last_seq": last}})
	for i, e := range evs {
		data := e.Data
		switch {
		case i == 1 && s.env.Mutations.Has(mutReplaySkips):
			continue
		case i == 0 && s.env.Mutations.Has(mutReplayAlters):
			data = altered(data)
		}
		_ = k.c.SendRaw(data)
	}
	k.replyLocked(s, &event{Event: evStateRestored, Content: "session restored",
		Metadata: map[string]any{"last_seq": last, "replayed": len(evs), "state": s.snapshotLocked()}})
	return nil
}

// altered re-encodes a logged event with another show_content (the
// replay-alters mutation).
func altered(data []byte) []byte {
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return data
	}
	m["show_content"] = "replayed"
	out, err := server.Marshal(m)
	if err != nil {
		return data
	}
	return out
}

// restore attaches k without replay (user.reconnect) and tells it where
// the session stands.
func (s *session) restore(k *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.joinLocked(k)
	k.replyLocked(s, &event{Event: evStateRestored, Content: "session reconnected",
		Metadata: map[string]any{"last_seq": s.seq, "replayed": 0, "state": s.snapshotLocked()}})
}

// export answers user.request_state with the state snapshot.
func (s *session) export(k *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k.replyLocked(s, &event{Event: evStateExported, Content: "session state exported",
		Metadata: map[string]any{"state": s.snapshotLocked(), "signed_state": s.signedLocked()}})
}

// signedLocked is the token a client may hand back in
// user.reconnect_with_state as signed_state. The spec does not say how an
// exported state travels back; JasonDZS/myagent requires its signed
// snapshot there (RECONNECT_CLARIFICATION.md), so clients that follow it
// send it and the features do too. This server needs no state from the
// client (its sessions outlive their connections) and ignores the member.
func (s *session) signedLocked() map[string]any {
	return map[string]any{"session_id": s.id, "last_seq": s.seq, "signature": "unsigned: the reference server keeps its sessions"}
}

// snapshotLocked is the session state agent.state_exported and
// agent.state_restored carry.
func (s *session) snapshotLocked() map[string]any {
	st := map[string]any{
		"session_id":      s.id,
		"created_at":      s.created,
		"last_seq":        s.seq,
		"acked_seq":       s.lastAck,
		"buffered_events": s.log.Len(),
		"connections":     len(s.conns),
		"status":          s.statusLocked(),
		"tasks":           tasksState(s.tasks),
		"transcript":      append([]turn{}, s.transcript...),
	}
	for _, p := range s.steps {
		st["pending_confirmation"] = map[string]any{"step_id": p.id, "scope": p.scope, "task_id": p.task.ID}
	}
	return st
}

// statusLocked names the session's stage for the snapshot.
func (s *session) statusLocked() string {
	switch {
	case s.run == nil:
		return "idle"
	case len(s.steps) > 0:
		return "awaiting_confirmation"
	}
	return s.run.stage
}

// note appends to the bounded transcript.
func (s *session) noteLocked(role, text string) {
	if len(text) > maxTextInState {
		text = strings.ToValidUTF8(text[:maxTextInState], "") + "…"
	}
	s.transcript = append(s.transcript, turn{role, text})
	if len(s.transcript) > maxTranscriptKept {
		s.transcript = append(s.transcript[:0], s.transcript[len(s.transcript)-maxTranscriptKept:]...)
	}
}

// forget ends the session when the server drops it: its run stops without
// events (nobody is attached to see them).
func (s *session) forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forgotten = true
	if s.run != nil {
		s.run.cancel()
	}
}

// relieve wakes a run waiting in throttle; safe from any goroutine.
func (s *session) relieve() {
	select {
	case s.relief <- struct{}{}:
	default:
	}
}

// congestion is how long a run should still wait for the slowest client
// whose send queue is more than three quarters full: a client may hold
// the stream back for at most Config.WriteTimeout, after which it is left
// to overflow (and be closed with 1013). Zero when no client lags.
func (s *session) congestion() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	var wait time.Duration
	for k := range s.conns {
		since := k.since.Load()
		if since == 0 {
			continue
		}
		if left := s.env.WriteTimeout - now.Sub(time.Unix(0, since)); left > wait {
			wait = left
		}
	}
	return wait
}
