package runner

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// Answer policies: how the scenario's clients answer what the server asks
// while a turn runs (approvals, confirmations, asks, UI prompts), as a
// real UI would, unless the scenario answers itself.
const (
	AnswerApprove = "approve"
	AnswerDeny    = "deny"
	AnswerFirst   = "first"
	AnswerNone    = "none"
)

// clientSpec is features/<dialect>/client.json: how a real client of the
// dialect behaves beyond what a scenario says.
type clientSpec struct {
	Answers      []answerSpec `json:"answers"`
	Inconclusive []envSpec    `json:"inconclusive"`
	// Opening is what a real client sends right after connecting
	// (opening.go).
	Opening []OpeningStep `json:"opening"`
	// SessionQuery names the query members of a connection URL that join
	// an existing session (mitto, minicodex: session_id), so that a
	// --target naming one is known to be shared by every scenario
	// (sessionurl.go).
	SessionQuery []string `json:"session_query"`
	// OtherRefusals are the dialect's own refusals about something other
	// than a message's content (refusal.go); refusals compiles them with
	// the defaults.
	OtherRefusals []refusalSpec `json:"other_refusals"`
	refusals      []refusalSpec
}

// answerSpec answers one prompt type; each policy's reply is a template
// whose "{$path}" strings take values from the prompt ("{$options.0|yes}"
// falls back to yes, a negative index counts from the end).
type answerSpec struct {
	Prompt string `json:"prompt"`
	// Replies are the message types that answer the prompt: a scenario
	// that sends one of them answers for itself.
	Replies []string       `json:"replies"`
	Approve map[string]any `json:"approve"`
	Deny    map[string]any `json:"deny"`
	First   map[string]any `json:"first"`
}

// envSpec is a server message that says the target's environment cannot
// do what a scenario needs (no model key): a JSON subset and the reason.
type envSpec struct {
	When map[string]any `json:"when"`
	Why  string         `json:"why"`
}

// loadClientSpec reads a dialect's client.json; a feature tree without one
// gets a client that answers nothing.
func loadClientSpec(fsys fs.FS, dialect string) (*clientSpec, error) {
	raw, err := fs.ReadFile(fsys, path.Join(dialect, "client.json"))
	if err != nil {
		spec := &clientSpec{}
		spec.refusals, _ = compileRefusals(nil)
		return spec, nil
	}
	var spec clientSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("read %s/client.json: %w", dialect, err)
	}
	if spec.refusals, err = compileRefusals(spec.OtherRefusals); err != nil {
		return nil, fmt.Errorf("read %s/client.json: %w", dialect, err)
	}
	if spec.Opening != nil {
		b, _ := json.Marshal(spec.Opening)
		if spec.Opening, err = decodeOpening(b); err != nil {
			return nil, fmt.Errorf("read %s/client.json: %w", dialect, err)
		}
	}
	return &spec, nil
}

// reply is the answer to a prompt under a policy, or nil.
func (a answerSpec) reply(policy string, prompt any) ([]byte, error) {
	tmpl := map[string]map[string]any{AnswerApprove: a.Approve, AnswerDeny: a.Deny, AnswerFirst: a.First}[policy]
	if tmpl == nil {
		return nil, nil
	}
	return json.Marshal(fill(tmpl, prompt))
}

var placeholder = regexp.MustCompile(`\{\$([^}|]*)(?:\|([^}]*))?\}`)

// fill copies a template, putting the prompt's values in its placeholders;
// a string that is only a placeholder keeps the value's JSON type.
func fill(v any, prompt any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = fill(x, prompt)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = fill(x, prompt)
		}
		return out
	case string:
		if m := placeholder.FindStringSubmatch(t); m != nil && m[0] == t {
			if val, ok := at(prompt, m[1]); ok {
				return val
			}
			return m[2]
		}
		return placeholder.ReplaceAllStringFunc(t, func(s string) string {
			m := placeholder.FindStringSubmatch(s)
			if val, ok := at(prompt, m[1]); ok {
				return varText(val)
			}
			return m[2]
		})
	}
	return v
}

// at resolves a dotted path with negative array indexes.
func at(doc any, dotted string) (any, bool) {
	cur := doc
	for _, tok := range strings.Split(dotted, ".") {
		switch node := cur.(type) {
		case map[string]any:
			v, ok := node[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if i < 0 {
				i += len(node)
			}
			if err != nil || i < 0 || i >= len(node) {
				return nil, false
			}
			cur = node[i]
		default:
			return nil, false
		}
	}
	return cur, cur != nil
}

// answerPrompts answers every prompt the client received since the last
// call, by the run's policy, skipping prompt types the scenario answers
// itself. It runs on the step goroutine, the connection's only writer.
func (c *client) answerPrompts() error {
	w := c.w
	if w.answerPolicy == AnswerNone || w.spec == nil || len(w.spec.Answers) == 0 {
		return nil
	}
	c.mu.Lock()
	var todo []message
	for ; c.answered < len(c.msgs); c.answered++ {
		todo = append(todo, c.msgs[c.answered])
	}
	c.mu.Unlock()
	for _, m := range todo {
		for _, a := range w.spec.Answers {
			if m.typ != a.Prompt || w.sc.c.answersItself(a) {
				continue
			}
			b, err := a.reply(w.answerPolicy, m.doc)
			if err != nil || b == nil {
				continue
			}
			w.aboutFrame(m.index)
			if err := c.send(wire.OpText, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// environment returns why the target cannot run the scenario, when a
// message it received says so (with the server's own words), or "".
func (w *World) environment(doc any) string {
	if w.spec == nil {
		return ""
	}
	for _, e := range w.spec.Inconclusive {
		if _, ok := subset(map[string]any(e.When), doc, ""); ok {
			msg, _ := jsonx.Field(doc, "message")
			if s, ok := msg.(string); ok && s != "" {
				return fmt.Sprintf("%s: the server said %q", e.Why, s)
			}
			return e.Why
		}
	}
	return ""
}

// answersItself says whether the scenario handles a prompt itself: it
// waits for the prompt by name or sends one of its replies.
func (c *Case) answersItself(a answerSpec) bool {
	if c.Mentions[a.Prompt] {
		return true
	}
	for _, r := range a.Replies {
		if c.Sends[r] {
			return true
		}
	}
	return false
}
