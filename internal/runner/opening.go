package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/wsconform/wsconform/internal/wire"
)

// OpeningStep is one message a real client of the dialect sends right
// after connecting, before anything else (mitto's UI loads the session's
// events first), and the answer it waits for. A server may hold back what
// it owes a connection until the client has opened it the way its UI
// does, so every connection a scenario opens sends the opening unless the
// scenario tests the opening itself (@opening).
type OpeningStep struct {
	// Send is the message, a JSON object; "{name}" strings expand
	// variables as in a step's docstring.
	Send json.RawMessage `json:"send"`
	// Await, when set, is the type of the answer the client waits for
	// (the receive timeout) before the scenario goes on. The answer is
	// the opening's: the scenario's "receives" and "has received" steps do
	// not see it, though the check engine judges it as every frame.
	Await string `json:"await,omitempty"`
	// With narrows Await to the answers containing this JSON subset.
	With map[string]any `json:"with,omitempty"`
}

// openingTag marks a scenario that tests the opening itself: its steps
// write the opening out, so the runner sends none.
const openingTag = "@opening"

// ParseOpening reads an opening override (--opening FILE): a JSON list of
// steps, or a client.json-like object with an "opening" member. "none"
// disables the opening; the result is then an empty, non-nil list.
func ParseOpening(arg string) ([]OpeningStep, error) {
	if arg == "none" {
		return []OpeningStep{}, nil
	}
	raw, err := os.ReadFile(arg)
	if err != nil {
		return nil, fmt.Errorf("read opening: %w", err)
	}
	steps, err := decodeOpening(raw)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", arg, err)
	}
	return steps, nil
}

// decodeOpening accepts a list of steps or an object holding one under
// "opening", and checks that every step sends a JSON object.
func decodeOpening(raw []byte) ([]OpeningStep, error) {
	var steps []OpeningStep
	if err := json.Unmarshal(raw, &steps); err != nil {
		var obj struct {
			Opening *[]OpeningStep `json:"opening"`
		}
		if err2 := json.Unmarshal(raw, &obj); err2 != nil || obj.Opening == nil {
			return nil, fmt.Errorf("want a JSON list of {\"send\": {...}, \"await\": \"type\"} or an object with \"opening\": %w", err)
		}
		steps = *obj.Opening
	}
	if steps == nil {
		steps = []OpeningStep{}
	}
	for i, s := range steps {
		var obj map[string]any
		if err := json.Unmarshal(s.Send, &obj); err != nil || obj == nil {
			return nil, fmt.Errorf("step %d: \"send\" must be a JSON object", i+1)
		}
	}
	return steps, nil
}

// opening is the scenario's opening: the run's override, else the
// dialect's client.json; none for a scenario tagged @opening.
func (w *World) opening() []OpeningStep {
	for _, t := range w.sc.c.Tags {
		if t == openingTag {
			return nil
		}
	}
	if o := w.sc.run.opts.Opening; o != nil {
		return o
	}
	if w.spec == nil {
		return nil
	}
	return w.spec.Opening
}

// open sends the opening on a fresh connection and waits for each
// awaited answer, which it takes out of the client's queue so that the
// scenario's steps see what they would have seen without it.
func (w *World) open(ctx context.Context, c *client) error {
	for i, st := range w.opening() {
		text, err := expand(string(st.Send), w.vars)
		if err != nil {
			return err
		}
		if err := c.send(wire.OpText, []byte(text)); err != nil {
			return err
		}
		if st.Await == "" {
			continue
		}
		var want any
		if st.With != nil {
			b, _ := json.Marshal(st.With)
			if s, err := expand(string(b), w.vars); err == nil {
				_ = json.Unmarshal([]byte(s), &want)
			}
		}
		d := w.to.scaled(w.to.Receive)
		from := c.cursor
		m, err := c.waitFor(ctx, d, func(m message) (bool, bool, error) {
			if m.typ != st.Await {
				return false, false, nil
			}
			if want != nil {
				if _, ok := subset(want, m.doc, ""); !ok {
					return false, false, nil
				}
			}
			return false, true, nil
		})
		if err != nil {
			return w.missed(err, fmt.Sprintf("%q answering the opening's %s (step %d of the dialect's opening, client.json or --opening) within %s",
				st.Await, openingType(w, text), i+1, d), st.Await, c, from, nil)
		}
		c.takeOut(m.index)
	}
	return nil
}

// openingType names the type of an opening message for failure lines.
func openingType(w *World, text string) string {
	var doc any
	if json.Unmarshal([]byte(text), &doc) == nil {
		if t := w.typeOf(doc); t != "" {
			return t
		}
	}
	return strings.TrimSpace(text)
}

// takeOut removes the message with frame index idx from the queue, keeping
// the consumed and answered positions on the same messages.
func (c *client) takeOut(idx int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, m := range c.msgs {
		if m.index != idx {
			continue
		}
		c.msgs = append(c.msgs[:i:i], c.msgs[i+1:]...)
		if i < c.cursor {
			c.cursor--
		}
		if i < c.answered {
			c.answered--
		}
		return
	}
}

// openingHint names the likely cause when a connection that skipped the
// dialect's opening (a scenario tagged @opening, or --opening none) misses
// an answer: a real server may hold everything back until the client has
// opened the way its UI does (mitto's initial load_events).
func (w *World) openingHint(c *client) string {
	steps := w.sc.run.opts.Opening
	if len(steps) == 0 && w.spec != nil {
		steps = w.spec.Opening
	}
	if len(steps) == 0 {
		return ""
	}
	first := openingType(w, string(steps[0].Send))
	if c.sentTypes[first] {
		return ""
	}
	return fmt.Sprintf(" (this connection sent no %s, which a real client sends first: a server that holds live events until then fails here)", first)
}
