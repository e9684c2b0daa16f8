package coworker

import (
	"context"
	"sync"

	"github.com/wsconform/wsconform/reference/agent"
)

// turn is one running agent turn (one top-level user message).
type turn struct {
	id string // turnId of its model_stream_chunk events
	// provider and model are the config the turn started with (set_model
	// is refused while busy, so they cannot change under it).
	provider, model string
	stop            chan struct{}
	once            sync.Once

	// Guarded by the session's lock.
	next    int64       // index of the next model_stream_chunk
	bent    bool        // an index mutation was committed
	pending *pendingReq // the ask or approval the turn waits on
}

// halt asks the turn to stop (cancel, disconnect). Safe to call twice.
func (t *turn) halt() { t.once.Do(func() { close(t.stop) }) }

// pendingReq is an ask or approval the turn waits on.
type pendingReq struct {
	id    string
	kind  string     // "ask" or "approval"
	reply chan reply // buffered 1: the answering reader never blocks
}

type reply struct {
	answer   string
	approved bool
}

// result is how a turn's script played out.
type result struct {
	end     outcome
	failure string // the error of a failed turn
	reply   string // the reply text streamed
}

// outcome is how a turn ended.
type outcome int

const (
	ended     outcome = iota // ran to its end
	failed                   // the script failed (/fail)
	cancelled                // the client sent cancel
	gone                     // the connection or the server ended
)

// startTurn echoes the user's message, marks the session busy and starts
// the scripted agent on text. The caller holds the lock.
func (s *session) startTurn(echo userMessageEcho, text string) {
	s.emit(echo)
	t := &turn{id: s.env.IDs.UUID(), provider: s.cfg.Provider, model: s.cfg.Model, stop: make(chan struct{})}
	s.turn = t
	s.emit(sessionBusy{head: s.h("session_busy"), Busy: true})
	sc := agent.Plan(text, agent.Pace{Chunk: s.env.Chunk, Slow: s.env.Slow})
	s.env.Go(func(ctx context.Context) {
		defer s.abandon(t)
		r := &runner{s: s, t: t, ctx: ctx, done: s.conn.Done()}
		s.finish(t, r.play(sc))
	})
}

// abandon is the turn goroutine's safety net: a panic (no known input
// causes one) fails the turn with internal_error instead of crashing the
// server or leaving the session busy forever.
func (s *session) abandon(t *turn) {
	v := recover()
	if v == nil {
		return
	}
	s.env.Log.Error("coworker: recovered panic in agent turn", "session", s.id, "panic", v)
	s.finish(t, result{end: failed, failure: "internal error in the agent turn"})
}

// finish ends the turn in one critical section, so nothing of the session
// can come between its last events and session_busy false:
//   - ended:     finish parts were streamed; assistant_message (the legacy
//     event "still emitted for compatibility"), the automatic checkpoint
//     ("after every agent turn completion"), session_busy false.
//   - failed:    error event, the automatic checkpoint, session_busy false.
//   - cancelled: an abort part, session_busy false ("emitted once the
//     cancellation completes").
//   - gone:      nothing: nobody is listening.
func (s *session) finish(t *turn, res result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turn == t {
		s.turn = nil
	}
	t.pending = nil
	switch res.end {
	case gone:
		return
	case cancelled:
		s.emitChunk(t, "abort", part{"reason": "cancelled by the client"})
	case failed:
		s.fail(codeInternalError, srcSession, "Agent turn failed: "+res.failure)
		s.completeTurn()
	case ended:
		s.emit(assistantMessage{head: s.h("assistant_message"), Text: res.reply})
		s.completeTurn()
	}
	s.emit(sessionBusy{head: s.h("session_busy"), Busy: false})
}

// completeTurn takes the automatic checkpoint of a completed turn.
func (s *session) completeTurn() {
	s.completed++
	s.checkpoint("auto")
	s.emitBackup("auto_checkpoint")
}

// emitChunk sends the turn's next model_stream_chunk. The caller holds the
// lock. Indexes count from 0 without gaps (§model_stream_chunk: "index is
// monotonic (0-based)").
func (s *session) emitChunk(t *turn, partType string, p part) {
	idx := t.next
	t.next++
	if idx == 2 && !t.bent {
		switch {
		case s.mutated(mutChunkRepeat):
			t.bent, idx = true, 1
			t.next--
		case s.mutated(mutChunkSkip):
			t.bent, idx = true, 3
			t.next++
		}
	}
	s.emit(streamChunk{
		head: s.h("model_stream_chunk"), TurnID: t.id, Index: idx,
		Provider: t.provider, Model: t.model, PartType: partType, Part: p,
	})
}
