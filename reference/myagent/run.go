package myagent

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/wsconform/wsconform/reference/agent"
)

// Run kinds: what started the pipeline.
const (
	kindMessage = "message"      // user.message: plan, solve, aggregate
	kindSolve   = "solve_tasks"  // user.solve_tasks: solve, aggregate
	kindRestart = "restart_task" // user.restart_task: one task again
)

// Run stages, as the state snapshot shows them.
const (
	stagePlanning    = "planning"
	stageSolving     = "solving"
	stageAggregating = "aggregating"
)

// Why a run stopped early.
var (
	errCancelled     = errors.New("run cancelled by user.cancel")
	errGone          = errors.New("run ended: server shutting down or session forgotten")
	errTaskCancelled = errors.New("task cancelled by user.cancel_task")
	errFailed        = errors.New("task failed")
)

// run is one pipeline of a session, executed by one goroutine started with
// Env.Go. Members marked (s.mu) are guarded by the session's mutex.
type run struct {
	s        *session
	ctx      context.Context
	cancel   context.CancelFunc
	pace     agent.Pace
	kind     string
	question string
	tasks    []*task

	stopped bool   // (s.mu) user.cancel accepted
	stage   string // (s.mu)
	last    string // (s.mu) type of the last event the run emitted
	cur     *task  // (s.mu) the task being solved
}

// startLocked begins a run; the caller holds s.mu and checked that no run
// is active.
func (s *session) startLocked(kind, question string, tasks []*task) {
	ctx, cancel := context.WithCancel(s.env.Context())
	r := &run{s: s, ctx: ctx, cancel: cancel, kind: kind, question: question, tasks: tasks,
		pace: agent.Pace{Chunk: s.env.Chunk, Slow: s.env.Slow}, stage: stageSolving}
	if kind == kindMessage {
		r.stage = stagePlanning
	}
	s.run = r
	s.env.Go(r.exec)
}

// exec runs the pipeline to its end, however it ends.
func (r *run) exec(context.Context) {
	defer r.cancel()
	r.finish(r.pipeline())
}

// pipeline is §Event Flow Architecture / 1: plan.start → plan.completed →
// per task solver.start … solver.completed → aggregate.start →
// aggregate.completed → pipeline.completed → agent.final_answer.
func (r *run) pipeline() error {
	if r.kind == kindMessage {
		if err := r.plan(); err != nil {
			return err
		}
	}
	for _, t := range r.tasks {
		if r.kind == kindRestart {
			ev := &event{Event: evSolverRestarted, Content: map[string]any{"task": t.wire()},
				Metadata:    map[string]any{"task_id": t.ID, "retry_count": t.retries, "reason": "user.restart_task"},
				ShowContent: showContent(evSolverRestarted, t.Title)}
			if err := r.emit(nil, ev, nil); err != nil {
				return err
			}
		}
		if err := r.solve(t); err != nil {
			return err
		}
	}
	return r.conclude()
}

func (r *run) plan() error {
	start := &event{Event: evPlanStart, Content: map[string]any{"question": r.question},
		Metadata: map[string]any{"source": inMessage}, ShowContent: showContent(evPlanStart)}
	if err := r.emit(nil, start, nil); err != nil {
		return err
	}
	wire := make([]any, 0, len(r.tasks))
	titles := make([]string, 0, len(r.tasks))
	for _, t := range r.tasks {
		wire = append(wire, t.wire())
		titles = append(titles, t.Title)
	}
	done := &event{Event: evPlanCompleted, Content: map[string]any{"tasks": wire},
		Metadata:    map[string]any{"task_count": len(r.tasks), "plan_summary": strings.Join(titles, "; ")},
		ShowContent: showContent(evPlanCompleted, len(r.tasks))}
	return r.emit(nil, done, func() { r.stage = stageSolving })
}

// solve runs one task; a task cancelled by user.cancel_task ends with
// solver.cancelled and the run goes on with the next.
func (r *run) solve(t *task) error {
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	s := r.s
	s.mu.Lock()
	r.cur, r.stage = t, stageSolving
	early := t.stopped
	if !early {
		t.status, t.cancel = taskRunning, cancel
	}
	s.mu.Unlock()
	err := errTaskCancelled
	if !early {
		err = r.solveTask(ctx, t)
	}
	if errors.Is(err, errTaskCancelled) {
		return r.taskCancelled(t)
	}
	return err
}

// solveTask maps the scripted agent's Script onto the solver events:
// reasoning → agent.thinking, tool → [agent.user_confirm] agent.tool_call
// agent.tool_result, question → agent.user_confirm, chunks →
// agent.partial_answer, then solver.completed or, for /fail,
// error.execution.
func (r *run) solveTask(ctx context.Context, t *task) error {
	start := &event{Event: evSolverStart, Content: map[string]any{"task": t.wire()},
		Metadata: map[string]any{"task_id": t.ID, "task_count": len(r.tasks)}, ShowContent: showContent(evSolverStart, t.Title)}
	if err := r.emit(t, start, nil); err != nil {
		return err
	}
	script := agent.Plan(t.text, r.pace)
	if err := r.think(t, script.Reasoning); err != nil {
		return err
	}
	chunks, err := r.act(ctx, t, script)
	if err != nil {
		return err
	}
	for i, c := range chunks {
		if i > 0 {
			sleep(ctx, script.Pause)
		}
		ev := &event{Event: evPartial, Content: c, Metadata: map[string]any{"task_id": t.ID, "chunk": i + 1, "chunks": len(chunks)}}
		if err := r.emit(t, ev, nil); err != nil {
			return err
		}
	}
	reply := strings.Join(chunks, "")
	if script.Fail != "" {
		ev := &event{Event: evExecution, Content: script.Fail, ShowContent: showContent(evExecution),
			Metadata: map[string]any{"error_code": codeExecution, "error_type": "scripted_failure", "task_id": t.ID,
				"stage": "solve", "recoverable": true, "recovery_action": inRestartTask}}
		// The run ends in the same critical section as its error event, so
		// a client that reacts to the event finds the session idle.
		if err := r.emit(t, ev, func() { t.status = taskFailed; r.finishLocked(errFailed) }); err != nil {
			return err
		}
		return errFailed
	}
	done := &event{Event: evSolverCompleted, Content: map[string]any{"task": t.wire(), "result": map[string]any{"status": "success", "answer": reply}},
		Metadata:    map[string]any{"task_id": t.ID, "execution_time_ms": 0, "llm_calls": 0},
		ShowContent: showContent(evSolverCompleted, t.Title)}
	return r.emit(t, done, func() { t.status, t.reply = taskCompleted, reply })
}

// think streams the reasoning; a script without any still shows the
// agent at work, as the spec's flow has agent.thinking in every task.
func (r *run) think(t *task, reasoning []string) error {
	if len(reasoning) == 0 {
		reasoning = []string{"Working on task " + itoa(int64(t.ID)) + ": " + t.Title}
	}
	for _, c := range reasoning {
		ev := &event{Event: evThinking, Content: c, Metadata: map[string]any{"model": "scripted", "task_id": t.ID}}
		if err := r.emit(t, ev, nil); err != nil {
			return err
		}
	}
	return nil
}

// act carries out the script's tool call or question and returns the
// reply chunks to stream.
func (r *run) act(ctx context.Context, t *task, script agent.Script) ([]string, error) {
	if tool := script.Tool; tool != nil {
		if tool.NeedsApproval {
			a, err := r.confirm(ctx, t, toolStep(tool))
			if err != nil {
				return nil, err
			}
			if r.s.env.Mutations.Has(mutDeclinesAll) {
				a.approved = false
			}
			if !a.approved {
				return strings.SplitAfter(agent.DeniedReply(tool), " "), nil
			}
		}
		call := &event{Event: evToolCall, Content: "calling " + tool.Name,
			Metadata: map[string]any{"task_id": t.ID, "tool": tool.Name, "params": tool.Args}}
		if err := r.emit(t, call, nil); err != nil {
			return nil, err
		}
		res := &event{Event: evToolResult, Content: tool.Output,
			Metadata: map[string]any{"task_id": t.ID, "tool": tool.Name, "status": "success"}}
		if err := r.emit(t, res, nil); err != nil {
			return nil, err
		}
	}
	if q := script.Question; q != nil {
		a, err := r.confirm(ctx, t, questionStep(q))
		if err != nil {
			return nil, err
		}
		if r.s.env.Mutations.Has(mutAnswerLost) {
			a.text = "None"
		}
		return agent.AnsweredReply(a.text), nil
	}
	return script.Chunks, nil
}

// conclude is the aggregate stage and the end of a successful run.
func (r *run) conclude() error {
	completed, cancelled := 0, 0
	r.s.mu.Lock()
	for _, t := range r.tasks {
		switch t.status {
		case taskCompleted:
			completed++
		case taskCancelled:
			cancelled++
		}
	}
	r.s.mu.Unlock()
	stats := map[string]any{"task_count": len(r.tasks), "completed": completed, "cancelled": cancelled}
	agg := &event{Event: evAggStart, Content: "aggregating " + itoa(int64(completed)) + " result(s)",
		Metadata: stats, ShowContent: showContent(evAggStart)}
	if err := r.emit(nil, agg, func() { r.stage = stageAggregating }); err != nil {
		return err
	}
	aggDone := &event{Event: evAggCompleted, Content: "aggregated " + itoa(int64(completed)) + " result(s)",
		Metadata: stats, ShowContent: showContent(evAggCompleted)}
	if err := r.emit(nil, aggDone, nil); err != nil {
		return err
	}
	replies := r.replies()
	answer := strings.Join(replies, "\n\n")
	if len(replies) == 0 {
		answer = "No task was completed."
	}
	pipe := &event{Event: evPipeline, Content: "pipeline completed", Metadata: stats, ShowContent: showContent(evPipeline)}
	final := &event{Event: evFinal, Content: answer}
	end := func() {
		r.s.run = nil
		r.s.noteLocked("agent", answer)
	}
	if r.s.env.Mutations.Has(mutFinalEarly) {
		pipe, final = final, pipe
	}
	if err := r.emit(nil, pipe, nil); err != nil {
		return err
	}
	return r.emit(nil, final, end)
}

// replies collects the answers of the completed tasks, in task order.
func (r *run) replies() []string {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	var out []string
	for _, t := range r.tasks {
		if t.status == taskCompleted && t.reply != "" {
			out = append(out, t.reply)
		}
	}
	return out
}

// emit sends ev on the session stream unless the run or task was stopped;
// then (may be nil) runs under the same lock, so state changes and the
// event that announces them are atomic.
func (r *run) emit(t *task, ev *event, then func()) error {
	r.throttle()
	s := r.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := r.haltLocked(t); err != nil {
		return err
	}
	s.emitLocked(ev)
	r.last = ev.Event
	if then != nil {
		then()
	}
	return nil
}

// throttle holds the run while a client of the session cannot keep up
// ("as fast as the client reads"), within the bound congestion sets.
func (r *run) throttle() {
	for {
		wait := r.s.congestion()
		if wait <= 0 {
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-r.s.relief:
		case <-t.C:
		case <-r.ctx.Done():
		}
		t.Stop()
		if r.ctx.Err() != nil {
			return
		}
	}
}

// haltLocked says why the run (or task t) must not go on, if it must not.
func (r *run) haltLocked(t *task) error {
	switch {
	case r.stopped:
		return errCancelled
	case r.ctx.Err() != nil:
		return errGone
	case t != nil && t.stopped:
		return errTaskCancelled
	}
	return nil
}

// taskCancelled ends task t after user.cancel_task with solver.cancelled.
func (r *run) taskCancelled(t *task) error {
	s := r.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := r.haltLocked(nil); err != nil {
		return err
	}
	s.closeStepsLocked(t, "cancelled")
	t.status, t.cancel = taskCancelled, nil
	s.emitLocked(&event{Event: evSolverCancelled, Content: map[string]any{"task": t.wire()},
		Metadata:    map[string]any{"task_id": t.ID, "reason": inCancelTask},
		ShowContent: showContent(evSolverCancelled, t.Title)})
	r.last = evSolverCancelled
	return nil
}

// finish ends a run that stopped early: user.cancel is answered with the
// stage's cancellation event (plan.cancelled or solver.cancelled) and
// agent.interrupted; a failure already sent its error event; shutdown and
// a forgotten session end silently.
func (r *run) finish(err error) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.finishLocked(err)
}

// finishLocked is finish with the session lock held.
func (r *run) finishLocked(err error) {
	s := r.s
	if s.run != r {
		return // concluded: agent.final_answer cleared it
	}
	s.run = nil
	s.closeStepsLocked(nil, "cancelled")
	for _, t := range r.tasks {
		t.cancel = nil
		if t.status == taskPending || (t.status == taskRunning && !errors.Is(err, errCancelled)) {
			t.status = taskSkipped
		}
	}
	if !errors.Is(err, errCancelled) {
		return
	}
	switch {
	case r.last == evPlanStart:
		s.emitLocked(&event{Event: evPlanCancelled, Content: jsonNull, Metadata: map[string]any{"reason": inCancel}})
	case r.cur != nil && r.cur.status == taskRunning:
		r.cur.status = taskCancelled
		s.emitLocked(&event{Event: evSolverCancelled, Content: map[string]any{"task": r.cur.wire()},
			Metadata:    map[string]any{"task_id": r.cur.ID, "reason": inCancel},
			ShowContent: showContent(evSolverCancelled, r.cur.Title)})
	}
	s.emitLocked(&event{Event: evInterrupted, Content: "cancelled by the user",
		Metadata: map[string]any{"reason": inCancel, "stage": r.stage}, ShowContent: showContent(evInterrupted)})
}

// sleep pauses d, or less when ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
