package minicodex

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wsconform/wsconform/reference/agent"
)

// Why a run stopped before its script ended.
var (
	errAborted  = errors.New("run aborted")
	errShutdown = errors.New("server shutting down")
)

// run is one agent turn. Its fields are guarded by the hub's mutex, except
// script (read-only) and the channels.
type run struct {
	id          string
	startedAt   string
	finishedAt  string // "" while the run is active
	status      string
	pending     []approvalBrief
	lastEventID int64
	// hadOutput says a function_call_output was emitted: the run then ends
	// without turn_done (§Semantics: Run completion).
	hadOutput bool
	aborting  bool
	script    agent.Script
	// abort is closed when the run is aborted; decision carries the one
	// decision on the run's tool call to the run goroutine.
	abort    chan struct{}
	decision chan string
}

// state is the RunState model now. h.mu held.
func (r *run) state() *runState {
	st := &runState{RunID: r.id, Status: r.status, StartedAt: r.startedAt,
		PendingApprovals: append([]approvalBrief{}, r.pending...)}
	if r.finishedAt != "" {
		at := r.finishedAt
		st.FinishedAt = &at
	}
	if r.lastEventID > 0 {
		id := r.lastEventID
		st.LastEventID = &id
	}
	return st
}

// startRun makes the run a send asked for the active one. h.mu held.
func (h *hub) startRun(cmd command) *run {
	r := &run{
		id:        h.env.IDs.UUID(),
		startedAt: h.env.Stamp(),
		script:    agent.Plan(cmd.Text, agent.Pace{Chunk: h.env.Chunk, Slow: h.env.Slow}),
		abort:     make(chan struct{}),
		decision:  make(chan string, 1),
	}
	h.runCounter++
	h.active, h.last = r, r
	if cmd.ClientMsgID != "" {
		h.msgIDs.put(cmd.ClientMsgID, r.id)
	}
	return r
}

// emitRun emits an event of run r; the run's last_event_id follows.
// h.mu held.
func (h *hub) emitRun(r *run, build func(id int64, ts string) any) []byte {
	return h.emit(func(id int64, ts string) any {
		r.lastEventID = id
		return build(id, ts)
	})
}

// setStatus moves r to status and emits run_status. h.mu held.
func (h *hub) setStatus(r *run, status string) {
	r.status = status
	if status == "finished" || status == "error" {
		r.finishedAt = h.env.Stamp()
	}
	data := h.emitRun(r, func(id int64, ts string) any {
		ev := runStatusEvt{Type: "run_status", RunID: r.id, EventID: id, TS: ts, RunState: r.state()}
		if h.srv.has(mutStatusWithoutRunState) {
			ev.RunState = nil
		}
		return ev
	})
	if status == "starting" && h.srv.has(mutEventIDRepeats) {
		h.broadcast(data)
	}
}

// drive plays r's script on its own goroutine and ends the run, however
// the script stopped; on shutdown it just returns.
func (h *hub) drive(ctx context.Context, r *run) {
	err := h.play(ctx, r)
	if errors.Is(err, errShutdown) {
		return
	}
	fail := ""
	if err == nil {
		fail = r.script.Fail
	}
	h.end(r, fail)
}

// play maps the script onto events: running, reasoning chunks, the tool
// call (and its approval) or the question, then the reply chunks.
func (h *hub) play(ctx context.Context, r *run) error {
	s := r.script
	if err := h.step(r, func() { h.setStatus(r, "running") }); err != nil {
		return err
	}
	if err := h.stream(ctx, r, "reasoning", s.Reasoning); err != nil {
		return err
	}
	chunks := s.Chunks
	switch {
	case s.Tool != nil:
		var err error
		if chunks, err = h.tool(ctx, r, s.Tool); err != nil {
			return err
		}
	case s.Question != nil:
		chunks = words(questionText(s.Question))
	}
	return h.stream(ctx, r, "assistant_text", chunks)
}

// questionText poses a /ask question as assistant text: the protocol has
// no question message, so the user answers with the next send.
func questionText(q *agent.Question) string {
	if len(q.Options) == 0 {
		return q.Text
	}
	return fmt.Sprintf("%s (%s)", q.Text, strings.Join(q.Options, " / "))
}

// step runs f under the hub's mutex unless r was aborted meanwhile.
func (h *hub) step(r *run, f func()) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.aborting {
		return errAborted
	}
	f()
	return nil
}

// stream emits chunks of kind (assistant_text or reasoning) with the
// script's pause between them, waiting for slow clients to drain.
func (h *hub) stream(ctx context.Context, r *run, kind string, chunks []string) error {
	for i, text := range chunks {
		if i > 0 {
			if err := h.pause(ctx, r, r.script.Pause); err != nil {
				return err
			}
		}
		if err := h.waitRoom(ctx, r); err != nil {
			return err
		}
		if err := h.step(r, func() { h.text(r, kind, text) }); err != nil {
			return err
		}
	}
	return nil
}

// text emits one chunk and adds it to the transcript. h.mu held.
func (h *hub) text(r *run, kind, text string) {
	h.emitRun(r, func(id int64, ts string) any {
		return textEvt{Type: kind, Text: text, RunID: r.id, EventID: id, TS: ts}
	})
	h.transcript.add(item{kind: kind, run: r.id, text: text})
}

// pause sleeps d unless the run is aborted or the server shuts down.
// Without a pause it still stops at a shutdown: a /stream of 100000
// chunks with no client left to slow it emitted them all first, past the
// shutdown's deadline on a loaded machine.
func (h *hub) pause(ctx context.Context, r *run, d time.Duration) error {
	if d <= 0 {
		if ctx.Err() != nil {
			return errShutdown
		}
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-r.abort:
		return errAborted
	case <-ctx.Done():
		return errShutdown
	}
}

// waitRoom holds the run while a live client's send queue is draining
// (backpressure), so a long stream goes as fast as the slowest client
// reads instead of overflowing its queue.
func (h *hub) waitRoom(ctx context.Context, r *run) error {
	for {
		c := h.congested()
		if c == nil {
			return nil
		}
		select {
		case <-c.room:
		case <-c.conn.Done():
		case <-r.abort:
			return errAborted
		case <-ctx.Done():
			return errShutdown
		}
	}
}

// congested returns a live client whose queue is draining, or nil.
func (h *hub) congested() *client {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c, live := range h.clients {
		if live && c.draining.Load() && !c.ended() {
			return c
		}
	}
	return nil
}

// tool emits the tool call, waits for the decision when it needs approval,
// and returns the reply chunks: the script's after the tool ran, the denial
// reply otherwise.
func (h *hub) tool(ctx context.Context, r *run, t *agent.Tool) ([]string, error) {
	var callID string
	err := h.step(r, func() {
		callID = h.env.IDs.New("call_")
		h.emitRun(r, func(id int64, ts string) any {
			return toolCallEvt{Type: "tool_call", Name: t.Name, Args: t.Args, CallID: callID, RunID: r.id, EventID: id, TS: ts}
		})
		h.transcript.add(item{kind: "tool_call", run: r.id, name: t.Name, args: t.Args, callID: callID})
		if t.NeedsApproval {
			h.requestApproval(r, callID, t)
		}
	})
	if err != nil {
		return nil, err
	}
	if t.NeedsApproval {
		d, err := h.awaitDecision(ctx, r, callID)
		if err != nil {
			return nil, err
		}
		if d != "approve" {
			return words(agent.DeniedReply(t)), nil
		}
	}
	if err := h.step(r, func() { h.output(r, callID, t.Output) }); err != nil {
		return nil, err
	}
	return r.script.Chunks, nil
}

// requestApproval announces the call and waits in awaiting_approval.
// h.mu held.
func (h *hub) requestApproval(r *run, callID string, t *agent.Tool) {
	r.pending = append(r.pending, approvalBrief{CallID: callID, ToolKey: t.Name, Args: t.Args})
	h.calls.put(callID, &call{run: r.id})
	h.emitRun(r, func(id int64, ts string) any {
		return approvalPendingEvt{Type: "approval_pending", CallID: callID, ToolKey: t.Name,
			ArgsJSON: argsJSON(t.Args), RunID: r.id, EventID: id, TS: ts}
	})
	h.setStatus(r, "awaiting_approval")
}

// awaitDecision waits for approve/deny; after PromptTimeout the server
// decides deny_continue itself.
func (h *hub) awaitDecision(ctx context.Context, r *run, callID string) (string, error) {
	t := time.NewTimer(h.env.PromptTimeout)
	defer t.Stop()
	select {
	case d := <-r.decision:
		if d == "deny_abort" {
			return "", errAborted
		}
		return d, nil
	case <-r.abort:
		return "", errAborted
	case <-ctx.Done():
		return "", errShutdown
	case <-t.C:
	}
	err := h.step(r, func() {
		if cl, ok := h.calls.get(callID); !ok || cl.decision == "" {
			h.decide(r, callID, "deny_continue")
		}
	})
	if err != nil {
		return "", err
	}
	return <-r.decision, nil
}

// decide records the decision on a pending call, emits approval_decision
// and, unless the run is being aborted, resumes running. h.mu held.
func (h *hub) decide(r *run, callID, decision string) {
	if cl, ok := h.calls.get(callID); ok {
		cl.decision = decision
	}
	for i, p := range r.pending {
		if p.CallID == callID {
			r.pending = append(r.pending[:i:i], r.pending[i+1:]...)
			break
		}
	}
	named := callID
	if h.srv.has(mutDecisionUnknown) {
		named += "-x"
	}
	h.emitRun(r, func(id int64, ts string) any {
		return approvalDecisionEvt{Type: "approval_decision", CallID: named, Decision: decision, RunID: r.id, EventID: id, TS: ts}
	})
	if decision != "deny_abort" {
		h.setStatus(r, "running")
	}
	select {
	case r.decision <- decision:
	default:
	}
}

// output emits the tool's result. h.mu held.
func (h *hub) output(r *run, callID, output string) {
	h.emitRun(r, func(id int64, ts string) any {
		return outputEvt{Type: "function_call_output", CallID: callID, Result: toolResult(output), Output: output,
			RunID: r.id, EventID: id, TS: ts}
	})
	h.transcript.add(item{kind: "function_call_output", run: r.id, callID: callID, output: output})
	r.hadOutput = true
}

// end finishes r: finished (also after an abort) or, with fail, a
// RUN_FAILED error event and error; then turn_done when the run produced
// no function_call_output; then the session is idle. The run's last events
// go out together, so a client's ping answered after the first is
// answered after the last too.
func (h *hub) end(r *run, fail string) {
	h.mu.Lock()
	h.together(func() {
		switch {
		case r.aborting || fail == "":
			h.setStatus(r, "finished")
		default:
			h.emitRun(r, func(id int64, ts string) any {
				return errorMsg{Type: "error", Code: codeRunFailed, Message: fail, RunID: r.id, EventID: id, TS: ts}
			})
			h.setStatus(r, "error")
		}
		if !r.hadOutput {
			h.emitRun(r, func(id int64, ts string) any {
				return turnDoneEvt{Type: "turn_done", RunID: r.id, EventID: id, TS: ts}
			})
		}
	})
	h.active = nil
	h.mu.Unlock()
	h.srv.tidy()
}
