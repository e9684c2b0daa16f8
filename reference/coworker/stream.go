package coworker

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/wsconform/wsconform/reference/agent"
)

// runner plays an agent.Script as one turn's events. It runs on the turn's
// own goroutine; every event is sent under the session's lock, and between
// events it waits (pauses, answers, a full send queue) without the lock,
// always also watching for cancel, disconnect and shutdown.
type runner struct {
	s    *session
	t    *turn
	ctx  context.Context
	done <-chan struct{}
}

// Part ids are per turn: one reasoning block and one text block at most.
const (
	reasoningID = "rsn_1"
	textID      = "txt_1"
)

// play maps the script onto the stream (see doc.go for the whole mapping).
func (r *runner) play(sc agent.Script) result {
	if !r.chunk("start", part{}) || !r.chunk("start_step", part{}) {
		return r.interrupted()
	}
	if len(sc.Reasoning) > 0 && !r.reasoning(sc) {
		return r.interrupted()
	}
	reply := sc.Chunks
	switch {
	case sc.Tool != nil:
		approved, ok := r.tool(sc.Tool)
		if !ok {
			return r.interrupted()
		}
		if !approved {
			reply = words(agent.DeniedReply(sc.Tool))
		}
	case sc.Question != nil:
		answer, ok := r.ask(sc.Question)
		if !ok {
			return r.interrupted()
		}
		reply = agent.AnsweredReply(answer)
	}
	if !r.text(reply, sc.Pause) {
		return r.interrupted()
	}
	text := strings.Join(reply, "")
	if sc.Fail != "" {
		if !r.chunk("error", part{"error": map[string]any{"message": sc.Fail}}) ||
			!r.chunk("finish", part{"finishReason": "error"}) {
			return r.interrupted()
		}
		return result{end: failed, failure: sc.Fail, reply: text}
	}
	use := usage(len(reply))
	if !r.chunk("finish_step", part{"finishReason": "stop", "usage": use}) ||
		!r.chunk("finish", part{"finishReason": "stop", "totalUsage": use}) {
		return r.interrupted()
	}
	return result{end: ended, reply: text}
}

// reasoning streams the reasoning block, then the legacy reasoning event
// with the whole text, as the cancel flow shows it arriving mid-turn.
func (r *runner) reasoning(sc agent.Script) bool {
	if !r.chunk("reasoning_start", part{"id": reasoningID, "mode": "reasoning"}) {
		return false
	}
	for i, piece := range sc.Reasoning {
		if i > 0 && !r.pause(sc.Pause) {
			return false
		}
		if !r.chunk("reasoning_delta", part{"id": reasoningID, "mode": "reasoning", "text": piece}) {
			return false
		}
	}
	if !r.chunk("reasoning_end", part{"id": reasoningID, "mode": "reasoning"}) {
		return false
	}
	return r.event(reasoningEvent{head: r.s.h("reasoning"), Kind: "reasoning", Text: strings.Join(sc.Reasoning, "")})
}

// tool streams a tool call: a todo for it, the input parts, the call, an
// approval when the tool needs one, then its result (or the denial), and a
// new step for the reply, as a model does after a tool call. approved is
// false when the user denied the call; ok is false when the turn stopped.
func (r *runner) tool(tl *agent.Tool) (approved, ok bool) {
	id := r.s.env.IDs.New("call_")
	args, _ := json.Marshal(tl.Args) // a map[string]any from JSON: cannot fail
	todo := todoItem{Content: "Run " + tl.Name, Status: "in_progress", ActiveForm: "Running " + tl.Name}
	if !r.todos(todo) ||
		!r.chunk("tool_input_start", part{"id": id, "toolName": tl.Name}) ||
		!r.chunk("tool_input_delta", part{"id": id, "delta": string(args)}) ||
		!r.chunk("tool_input_end", part{"id": id}) ||
		!r.chunk("tool_call", part{"toolCallId": id, "toolName": tl.Name, "input": tl.Args}) {
		return false, false
	}
	approved = true
	if tl.NeedsApproval {
		rep, ok := r.request("approval", func(reqID string) any { return approvalFor(r.s, reqID, tl) })
		if !ok {
			return false, false
		}
		approved = rep.approved
	}
	outcome := part{"toolCallId": id, "toolName": tl.Name, "output": tl.Output}
	kind := "tool_result"
	if !approved {
		outcome, kind = part{"toolCallId": id, "toolName": tl.Name, "reason": "denied by the user"}, "tool_output_denied"
	} else if !r.event(logEvent{head: r.s.h("log"), Line: "[tool " + tl.Name + "] " + tl.Output}) {
		return false, false
	}
	todo.Status = "completed"
	if !r.chunk(kind, outcome) || !r.todos(todo) ||
		!r.chunk("finish_step", part{"finishReason": "tool-calls", "usage": usage(1)}) ||
		!r.chunk("start_step", part{}) {
		return false, false
	}
	return approved, true
}

// approvalFor is the approval event of a tool call. The command is the
// tool and its arguments as a shell-like line; a destructive-looking one
// is flagged dangerous.
func approvalFor(s *session, reqID string, tl *agent.Tool) approvalEvent {
	cmd := tl.Name
	if c, ok := tl.Args["command"].(string); ok && c != "" {
		cmd = c
	} else if len(tl.Args) > 0 {
		args, _ := json.Marshal(tl.Args)
		cmd += " " + string(args)
	}
	ev := approvalEvent{head: s.h("approval"), RequestID: reqID, Command: cmd, ReasonCode: "requires_manual_review"}
	if strings.Contains(cmd, "rm -rf") {
		ev.Dangerous, ev.ReasonCode = true, "matches_dangerous_pattern"
	}
	return ev
}

// ask asks the user and returns the answer.
func (r *runner) ask(q *agent.Question) (string, bool) {
	rep, ok := r.request("ask", func(reqID string) any {
		return askEvent{head: r.s.h("ask"), RequestID: reqID, Question: q.Text, Options: q.Options}
	})
	return rep.answer, ok
}

// request announces an ask or approval and blocks the agent until the
// client answers it ("Blocks the agent until you reply"). There is no
// timeout: the spec has none; cancel and disconnect end the wait.
func (r *runner) request(kind string, event func(reqID string) any) (reply, bool) {
	p := &pendingReq{id: r.s.env.IDs.New("req-" + kind + "-"), kind: kind, reply: make(chan reply, 1)}
	if !r.announce(p, event(p.id)) {
		return reply{}, false
	}
	select {
	case rep := <-p.reply:
		return rep, true
	case <-r.t.stop:
	case <-r.done:
	case <-r.ctx.Done():
	}
	return reply{}, false
}

// announce registers p as the turn's pending request and sends its event
// in one critical section, so an answer that comes at once finds it.
func (r *runner) announce(p *pendingReq, event any) bool {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if !r.alive() {
		return false
	}
	r.t.pending = p
	r.s.emit(event)
	return true
}

// text streams the reply block with pause between chunks.
func (r *runner) text(chunks []string, pause time.Duration) bool {
	if !r.chunk("text_start", part{"id": textID}) {
		return false
	}
	for i, c := range chunks {
		if i > 0 && !r.pause(pause) {
			return false
		}
		if !r.chunk("text_delta", part{"id": textID, "text": c}) {
			return false
		}
	}
	return r.chunk("text_end", part{"id": textID})
}

func (r *runner) todos(items ...todoItem) bool {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if !r.alive() {
		return false
	}
	r.s.todos = append(r.s.todos[:0], items...)
	r.s.emit(todosEvent{head: r.s.h("todos"), Todos: r.s.todos})
	return true
}

// chunk sends the next model_stream_chunk once the send queue has room.
func (r *runner) chunk(partType string, p part) bool {
	if !r.s.gate.wait(r.ctx, r.t.stop, r.done) {
		return false
	}
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if !r.alive() {
		return false
	}
	r.s.emitChunk(r.t, partType, p)
	return true
}

// event sends a turn event that is not a chunk.
func (r *runner) event(v any) bool {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if !r.alive() {
		return false
	}
	r.s.emit(v)
	return true
}

// alive reports whether the turn may go on.
func (r *runner) alive() bool {
	select {
	case <-r.t.stop:
	case <-r.done:
	case <-r.ctx.Done():
	default:
		return true
	}
	return false
}

// pause sleeps d, or returns false as soon as the turn must stop.
func (r *runner) pause(d time.Duration) bool {
	if d <= 0 {
		return r.alive()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-r.t.stop:
	case <-r.done:
	case <-r.ctx.Done():
	}
	return false
}

// interrupted is the result of a turn that stopped early: cancelled by the
// client, or gone with its connection or the server.
func (r *runner) interrupted() result {
	select {
	case <-r.done:
		return result{end: gone}
	case <-r.ctx.Done():
		return result{end: gone}
	default:
		return result{end: cancelled}
	}
}

// usage is a deterministic token count for finish parts.
func usage(out int) map[string]any {
	return map[string]any{"inputTokens": 16, "outputTokens": out, "totalTokens": 16 + out}
}

// words splits text after each space, as the scripted agent streams.
func words(text string) []string {
	var out []string
	for text != "" {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			return append(out, text)
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}
