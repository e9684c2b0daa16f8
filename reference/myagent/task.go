package myagent

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// Task states, as the state snapshot shows them.
const (
	taskPending   = "pending"
	taskRunning   = "running"
	taskCompleted = "completed"
	taskFailed    = "failed"
	taskCancelled = "cancelled"
	taskSkipped   = "skipped"
)

// task is one unit of the solve stage. Its mutable members are guarded by
// the session's mutex.
type task struct {
	ID          int
	Title       string
	Description string
	// text is what the scripted agent plans from.
	text    string
	status  string
	reply   string // the streamed answer, once completed
	stopped bool   // user.cancel_task accepted
	cancel  context.CancelFunc
	retries int
}

// wire is the task as plan.completed and the solver events carry it
// (§Payload Examples: {id, title, description}).
func (t *task) wire() map[string]any {
	return map[string]any{"id": t.ID, "title": t.Title, "description": t.Description}
}

func tasksState(ts []*task) []map[string]any {
	out := make([]map[string]any, 0, len(ts))
	for _, t := range ts {
		w := t.wire()
		w["status"] = t.status
		w["retries"] = t.retries
		out = append(out, w)
	}
	return out
}

// planTasks is the plan of a user.message: one task that answers it.
func planTasks(text string) []*task {
	return []*task{{ID: 1, Title: "Respond to: " + clip(text, 40), Description: text, text: text, status: taskPending}}
}

// clip shortens s to n runes.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// coerceTasks reads the tasks of a user.solve_tasks: content as one task's
// text, or content.tasks as a list of texts or {title, description,
// question} objects. Tasks are numbered 1..n by the server. A list that
// cannot be read is a plan.coercion_error (§Plan Events).
func coerceTasks(m *message) ([]*task, *protoError) {
	v, ok := m.doc["content"]
	if !ok {
		return nil, missing(m.Event, "content")
	}
	if s, isString := v.(string); isString {
		if strings.TrimSpace(s) == "" {
			return nil, coercion("content is an empty task")
		}
		return []*task{{ID: 1, Title: clip(s, 40), Description: s, text: s, status: taskPending}}, nil
	}
	list, isList := jsonx.FieldOr(v, "tasks").([]any)
	switch {
	case !isList:
		return nil, coercion("content.tasks must be a list of tasks")
	case len(list) == 0:
		return nil, coercion("content.tasks is empty")
	case len(list) > maxTasksPerSolve:
		return nil, coercion("content.tasks has " + strconv.Itoa(len(list)) + " tasks; at most " + strconv.Itoa(maxTasksPerSolve) + " are accepted")
	}
	out := make([]*task, 0, len(list))
	for i, item := range list {
		t, ok := coerceTask(item, i+1)
		if !ok {
			return nil, coercion("content.tasks["+strconv.Itoa(i)+"] is neither a text nor an object with a title, description or question").with("index", i)
		}
		out = append(out, t)
	}
	return out, nil
}

func coerceTask(item any, id int) (*task, bool) {
	if s, ok := item.(string); ok && strings.TrimSpace(s) != "" {
		return &task{ID: id, Title: clip(s, 40), Description: s, text: s, status: taskPending}, true
	}
	obj, ok := item.(map[string]any)
	if !ok {
		return nil, false
	}
	title, _ := obj["title"].(string)
	desc, _ := obj["description"].(string)
	question, _ := obj["question"].(string)
	text := firstNonEmpty(desc, question, title)
	if text == "" {
		return nil, false
	}
	if title == "" {
		title = clip(text, 40)
	}
	return &task{ID: id, Title: title, Description: desc, text: text, status: taskPending}, true
}

func coercion(msg string) *protoError {
	return &protoError{kind: evPlanCoercion, code: codeCoercion, msg: msg}
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// findTask resolves a task reference: its number, the number as a string,
// or "task_N".
func findTask(ts []*task, ref any) *task {
	id := int64(-1)
	switch v := ref.(type) {
	case json.Number:
		if n, ok := jsonx.Int64(v); ok {
			id = n
		}
	case string:
		if n, err := strconv.ParseInt(strings.TrimPrefix(v, "task_"), 10, 64); err == nil {
			id = n
		}
	}
	for _, t := range ts {
		if int64(t.ID) == id {
			return t
		}
	}
	return nil
}

func taskIDs(ts []*task) []int {
	out := make([]int, 0, len(ts))
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}
