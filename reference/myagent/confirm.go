package myagent

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/wsconform/wsconform/reference/agent"
)

// Confirmation scopes: what an agent.user_confirm asks about.
const (
	scopeTool     = "tool"
	scopeQuestion = "question"
)

// step is an open agent.user_confirm waiting for the user.response with
// its step_id (§Request/Response Pairing).
type step struct {
	id     string
	scope  string
	task   *task
	answer chan answer // buffered: the responder never blocks
}

// answer is a user.response as the run needs it.
type answer struct {
	approved bool
	text     string
}

// stepSpec is what an agent.user_confirm asks.
type stepSpec struct {
	prefix string
	scope  string
	text   string
	meta   map[string]any
}

func toolStep(t *agent.Tool) stepSpec {
	return stepSpec{prefix: "tool_confirm_", scope: scopeTool,
		text: fmt.Sprintf("Allow tool %s to run?", t.Name),
		meta: map[string]any{"tool": t.Name, "params": t.Args, "options": []string{"approve", "deny"}}}
}

func questionStep(q *agent.Question) stepSpec {
	meta := map[string]any{"kind": q.Kind}
	if len(q.Options) > 0 {
		meta["options"] = q.Options
	}
	return stepSpec{prefix: "ask_confirm_", scope: scopeQuestion, text: q.Text, meta: meta}
}

// confirm sends agent.user_confirm and waits for its answer, for user.cancel
// or user.cancel_task, or for Config.PromptTimeout (then error.timeout and
// the task fails).
func (r *run) confirm(ctx context.Context, t *task, spec stepSpec) (answer, error) {
	s := r.s
	st := &step{id: s.env.IDs.New(spec.prefix), scope: spec.scope, task: t, answer: make(chan answer, 1)}
	meta := map[string]any{"scope": spec.scope, "task_id": t.ID}
	for k, v := range spec.meta {
		meta[k] = v
	}
	ev := &event{Event: evConfirm, StepID: st.id, Content: spec.text, Metadata: meta, ShowContent: "请确认：" + spec.text}
	if s.env.Mutations.Has(mutConfirmNoStep) {
		ev.StepID = ""
	}
	if err := r.emit(t, ev, func() { s.steps[st.id] = st }); err != nil {
		return answer{}, err
	}
	timer := time.NewTimer(s.env.PromptTimeout)
	defer timer.Stop()
	select {
	case a := <-st.answer:
		return a, nil
	case <-ctx.Done():
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := r.haltLocked(t); err != nil {
			return answer{}, err
		}
		return answer{}, errGone
	case <-timer.C:
		return r.expire(t, st)
	}
}

// expire closes a step nobody answered in time with error.timeout; the
// task fails (user.restart_task may run it again).
func (r *run) expire(t *task, st *step) (answer, error) {
	s := r.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.steps[st.id] != st {
		return <-st.answer, nil // answered just now: the answer is buffered
	}
	if err := r.haltLocked(t); err != nil {
		return answer{}, err
	}
	s.closeStepsLocked(t, "timed_out")
	t.status = taskFailed
	secs := s.env.PromptTimeout.Seconds()
	s.emitLocked(&event{Event: evTimeout, ShowContent: showContent(evTimeout),
		Content: fmt.Sprintf("confirmation %s was not answered within %gs", st.id, secs),
		Metadata: map[string]any{"error_code": codeTimeout, "step_id": st.id, "task_id": t.ID, "stage": "confirmation",
			"timeout_seconds": secs, "recovery_action": inRestartTask}})
	r.last = evTimeout
	r.finishLocked(errFailed) // idle before a client can react to the event
	return answer{}, errFailed
}

// closeStepsLocked closes the open steps of task t (every open step when t
// is nil), remembering why for late answers.
func (s *session) closeStepsLocked(t *task, why string) {
	for id, st := range s.steps {
		if t == nil || st.task == t {
			delete(s.steps, id)
			s.closedSteps.put(id, why)
		}
	}
}

// respond pairs a user.response with its open step by step_id.
func (s *session) respond(stepID string, content map[string]any) *protoError {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.steps[stepID]
	if st == nil {
		if why, ok := s.closedSteps.get(stepID); ok {
			return invalid(codeStepClosed, "agent.user_confirm %q is already closed (%s)", stepID, why).
				with("step_id", stepID).with("step_status", why)
		}
		open := make([]string, 0, len(s.steps))
		for id := range s.steps {
			open = append(open, id)
		}
		sort.Strings(open)
		return invalid(codeUnknownStep, "no open agent.user_confirm has step_id %q", stepID).
			with("step_id", stepID).with("open_steps", open)
	}
	a, err := st.read(content)
	if err != nil {
		return err
	}
	delete(s.steps, stepID)
	s.closedSteps.put(stepID, "answered")
	st.answer <- a
	return nil
}

// read checks a response's content for the step's scope: a tool call needs
// approved (boolean); a question takes answer (text, or a list of texts
// for multiselect) or approved.
func (st *step) read(content map[string]any) (answer, *protoError) {
	approved, hasApproved := content["approved"].(bool)
	if _, present := content["approved"]; present && !hasApproved {
		return answer{}, mistyped(inResponse, "content.approved", "a boolean")
	}
	if st.scope == scopeTool {
		if !hasApproved {
			return answer{}, missing(inResponse, "content.approved")
		}
		return answer{approved: approved}, nil
	}
	switch v := content["answer"].(type) {
	case string:
		return answer{approved: true, text: v}, nil
	case []any:
		parts := make([]string, 0, len(v))
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return answer{}, mistyped(inResponse, "content.answer", "a string or a list of strings")
			}
			parts = append(parts, s)
		}
		return answer{approved: true, text: strings.Join(parts, ", ")}, nil
	case nil:
		if _, present := content["answer"]; present {
			return answer{}, mistyped(inResponse, "content.answer", "a string or a list of strings")
		}
	default:
		return answer{}, mistyped(inResponse, "content.answer", "a string or a list of strings")
	}
	if !hasApproved {
		return answer{}, missing(inResponse, "content.answer or content.approved")
	}
	if approved {
		return answer{approved: true, text: "yes"}, nil
	}
	return answer{text: "no"}, nil
}
