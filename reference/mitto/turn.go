package mitto

import (
	"context"
	"encoding/json"
	"html"
	"slices"
	"strings"
	"time"

	"github.com/wsconform/wsconform/reference/agent"
)

// pending is a prompt accepted from a client: running or queued.
type pending struct {
	id, message string
	sender      string // client_id of the sender
}

// turn is one run of the scripted agent for one prompt. It runs on its
// own goroutine (env.Go) and only touches the session under its lock.
type turn struct {
	s      *session
	ctx    context.Context // canceled by cancel or server shutdown
	cancel context.CancelFunc
	script agent.Script
	// toolID is a tool call started and not finished, so a cancel can
	// fail it. Guarded by s.mu.
	toolID string
}

// prompt accepts a prompt: acknowledged at once with prompt_received, run
// now or queued behind the running turn. A prompt_id seen before (a client
// retrying after a reconnect) is acknowledged again and not run twice.
func (s *session) prompt(c *client, p pending) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen.has[p.id] {
		s.ackLocked(c, p.id)
		return nil
	}
	if s.turn != nil && len(s.queue) >= maxQueue {
		return errf(codeQueueFull, "%d prompts already wait for the agent; send again after prompt_complete", maxQueue)
	}
	s.seen.add(p.id)
	s.ackLocked(c, p.id)
	if s.turn != nil {
		s.queue = append(s.queue, p)
		return nil
	}
	s.startLocked(p)
	return nil
}

// ackLocked sends prompt_received to the sender.
func (s *session) ackLocked(c *client, id string) {
	if s.mutate(mutAckWrongPromptID) {
		id += "-unknown"
	}
	c.sendRaw(s.encode(envelope("prompt_received", obj{{"prompt_id", id}})))
}

// startLocked broadcasts the user_prompt and starts the agent on it.
func (s *session) startLocked(p pending) {
	s.dismissHintsLocked()
	s.failed = false
	s.lastPromptSeq = s.emitLocked(userPromptEvent(p))
	s.lastPromptID = p.id
	ctx, cancel := context.WithCancel(s.env.Context())
	t := &turn{s: s, ctx: ctx, cancel: cancel,
		script: agent.Plan(p.message, agent.Pace{Chunk: s.env.Chunk, Slow: s.env.Slow})}
	s.turn = t
	s.env.Go(func(context.Context) { t.run() })
}

// cancel stops the running turn: its open prompt is dismissed, a tool call
// in flight fails, and the turn ends with prompt_complete.
func (s *session) cancel() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.turn
	if t == nil {
		return errf(codeNotPrompting, "cancel: the agent is not prompting")
	}
	if t.ctx.Err() != nil {
		return nil // canceled already; its prompt_complete is on the way
	}
	t.cancel()
	for _, p := range s.prompts {
		if p.turn == t && p.blocking {
			s.closeLocked(p, nil)
		}
	}
	if t.toolID != "" {
		s.emitLocked(toolUpdateEvent(t.toolID, "failed"))
		t.toolID = ""
	}
	return nil
}

// run plays the script: reasoning, then a tool call or a question, then
// the reply, then success or failure; prompt_complete in any case.
func (t *turn) run() {
	defer t.finish()
	sc := t.script
	for i, r := range sc.Reasoning {
		if (i > 0 && !t.pause(sc.Pause)) || !t.emit(thoughtEvent(r)) {
			return
		}
	}
	chunks, ok := sc.Chunks, true
	switch {
	case sc.Tool != nil:
		chunks, ok = t.tool(sc.Tool, chunks)
	case sc.Question != nil:
		chunks, ok = t.ask(sc.Question)
	}
	if !ok || !t.reply(chunks, sc.Pause) {
		return
	}
	if sc.Fail != "" {
		t.fail(sc.Fail)
	}
}

// finish ends the turn with prompt_complete and starts the next queued
// prompt. On server shutdown it only lets go.
func (t *turn) finish() {
	s := t.s
	s.mu.Lock()
	defer s.mu.Unlock()
	t.cancel()
	if s.turn == t {
		s.turn = nil
	}
	if s.env.Context().Err() != nil {
		return
	}
	d := obj{{"event_count", s.seq}, {"max_seq", s.seq}}
	if s.mutate(mutCompleteNoCount) {
		d = d.without("event_count")
	}
	s.broadcastLocked(envelope("prompt_complete", d))
	if len(s.queue) > 0 {
		next := s.queue[0]
		s.queue = slices.Delete(s.queue, 0, 1)
		s.startLocked(next)
	}
}

// reply streams the answer chunk by chunk as agent_message html.
func (t *turn) reply(chunks []string, pause time.Duration) bool {
	for i := 0; i < len(chunks); i++ {
		if i > 0 && !t.pause(pause) {
			return false
		}
		if i == 0 && len(chunks) > 1 && t.s.mutate(mutSeqSwapped) {
			a, b := messageEvent(html.EscapeString(chunks[0])), messageEvent(html.EscapeString(chunks[1]))
			if !t.locked(func() { t.s.emitSwappedLocked(a, b) }) {
				return false
			}
			i++
			continue
		}
		if !t.emit(messageEvent(html.EscapeString(chunks[i]))) {
			return false
		}
	}
	return true
}

// tool runs a tool call: tool_call pending, the permission prompt when it
// needs approval, then tool_update in_progress and completed, or failed
// when denied or unanswered.
func (t *turn) tool(tool *agent.Tool, chunks []string) ([]string, bool) {
	id := t.s.env.IDs.New("tool-")
	if !t.locked(func() {
		t.toolID = id
		t.s.emitLocked(toolCallEvent(id, toolTitle(tool), "pending"))
	}) {
		return nil, false
	}
	if tool.NeedsApproval {
		a, ok := t.wait(t.permissionPrompt(tool, id))
		if !ok {
			return nil, false
		}
		if a.timedOut || a.optionID != "allow_once" || t.s.mutate(mutAnswersDeclined) {
			return words(agent.DeniedReply(tool)), t.toolStatus("failed")
		}
	}
	if !t.toolStatus("in_progress") || !t.pause(t.script.Pause) {
		return nil, false
	}
	return chunks, t.toolStatus("completed")
}

// toolStatus emits a tool_update of the running tool call.
func (t *turn) toolStatus(status string) bool {
	return t.locked(func() {
		e := toolUpdateEvent(t.toolID, status)
		seq := t.s.emitLocked(e)
		if status == "in_progress" {
			return
		}
		t.toolID = ""
		if status == "completed" && t.s.mutate(mutToolUpdateTwice) {
			t.s.streamLocked(e, seq)
		}
	})
}

// toolTitle is the tool call's title: its name and arguments.
func toolTitle(tool *agent.Tool) string {
	if len(tool.Args) == 0 {
		return tool.Name
	}
	args, err := json.Marshal(tool.Args) // sorted keys: deterministic
	if err != nil {
		return tool.Name
	}
	return tool.Name + " " + string(args)
}

// ask puts a question to the user and waits for the answer, unless it is
// a non-blocking follow-up hint (action_buttons). The reply names the
// answer instead of the scripted agent's generic thanks.
func (t *turn) ask(q *agent.Question) ([]string, bool) {
	p := t.questionPrompt(q)
	if !p.blocking {
		if !t.locked(func() { t.s.openLocked(p) }) {
			return nil, false
		}
		return words("Here are some suggestions for what to do next."), true
	}
	a, ok := t.wait(p)
	switch {
	case !ok:
		return nil, false
	case t.s.mutate(mutAnswersDeclined):
		return agent.AnsweredReply("None"), true
	case a.timedOut:
		return agent.AnsweredReply("nothing (the question timed out)"), true
	case a.text != "":
		return agent.AnsweredReply(a.text), true
	}
	return agent.AnsweredReply(a.label), true
}

// wait announces a blocking prompt and waits for its answer, its timeout
// (env.PromptTimeout: dismissed, answered as timed out) or the turn's end.
func (t *turn) wait(p *uiPrompt) (answer, bool) {
	if !t.locked(func() { t.s.openLocked(p) }) {
		return answer{}, false
	}
	timer := time.NewTimer(t.s.env.PromptTimeout)
	defer timer.Stop()
	select {
	case a := <-p.answers:
		return a, true
	case <-t.ctx.Done():
		return answer{}, false
	case <-timer.C:
		return t.expire(p)
	}
}

// expire gives up on a prompt, unless an answer slipped in first.
func (t *turn) expire(p *uiPrompt) (answer, bool) {
	s := t.s
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case a := <-p.answers:
		return a, true
	default:
	}
	if t.ctx.Err() != nil {
		return answer{}, false
	}
	if s.prompts[p.id] == p {
		s.closeLocked(p, nil)
	}
	return answer{timedOut: true}, true
}

// fail ends the turn with an error to every client; the session's status
// is "error" until the next turn.
func (t *turn) fail(msg string) {
	t.locked(func() {
		t.s.failed = true
		t.s.broadcastLocked(errorFrame(errf(codeAgentError, "%s", msg)))
	})
}

// emit numbers, stores and streams one event of the turn.
func (t *turn) emit(e event) bool {
	return t.locked(func() { t.s.emitLocked(e) })
}

// locked runs f under the session lock unless the turn was canceled: once
// cancel returns, the turn adds nothing but its prompt_complete.
func (t *turn) locked(f func()) bool {
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	if t.ctx.Err() != nil {
		return false
	}
	f()
	return true
}

// pause waits between chunks; false when the turn ended meanwhile.
func (t *turn) pause(d time.Duration) bool {
	if d <= 0 {
		return t.ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-t.ctx.Done():
		return false
	}
}

// words splits text into chunks that keep their trailing space, as the
// scripted agent streams its replies.
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
