package minicodex

import (
	"encoding/json"
	"strings"
)

// Bounds of a session's transcript window: memory follows these, never the
// session's length.
const (
	// transcriptWindow is how many transcript items a session keeps.
	transcriptWindow = 100
	// itemTextMax bounds one merged assistant_text or reasoning item; a
	// longer reply continues in a new item.
	itemTextMax = 16 << 10
)

// item is one transcript item (§Transcript items). Streamed chunks of one
// run are merged into one assistant_text (or reasoning) item, so a snapshot
// reads like the conversation rather than like the event log.
type item struct {
	kind   string
	run    string
	text   string         // user_text, assistant_text, reasoning
	name   string         // tool_call
	args   map[string]any // tool_call
	callID string         // tool_call, function_call_output
	output string         // function_call_output
}

// MarshalJSON writes the item in its model's shape: only the members the
// Pydantic model defines, and both result and output for a tool result.
func (it item) MarshalJSON() ([]byte, error) {
	switch it.kind {
	case "tool_call":
		return json.Marshal(struct {
			Type   string         `json:"type"`
			Name   string         `json:"name"`
			Args   map[string]any `json:"args"`
			CallID string         `json:"call_id"`
		}{it.kind, it.name, it.args, it.callID})
	case "function_call_output":
		return json.Marshal(struct {
			Type   string         `json:"type"`
			CallID string         `json:"call_id"`
			Result map[string]any `json:"result"`
			Output string         `json:"output"`
		}{it.kind, it.callID, toolResult(it.output), it.output})
	default:
		return json.Marshal(struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{it.kind, it.text})
	}
}

// transcript is a session's bounded transcript window, oldest first.
type transcript struct {
	items []item
}

// add appends an item, merging a streamed chunk into the item before it
// when that is the same kind of text of the same run.
func (t *transcript) add(it item) {
	if n := len(t.items); n > 0 && mergeable(it.kind) {
		last := &t.items[n-1]
		if last.kind == it.kind && last.run == it.run && len(last.text)+len(it.text) <= itemTextMax {
			last.text += it.text
			return
		}
	}
	if it.args == nil && it.kind == "tool_call" {
		it.args = map[string]any{}
	}
	t.items = append(t.items, it)
	if len(t.items) > transcriptWindow {
		n := copy(t.items, t.items[len(t.items)-transcriptWindow:])
		clear(t.items[n:])
		t.items = t.items[:n]
	}
}

func mergeable(kind string) bool { return kind == "assistant_text" || kind == "reasoning" }

// list returns a copy of the window.
func (t *transcript) list() []item {
	return append([]item{}, t.items...)
}

// words splits text into chunks that keep their trailing space, so the
// chunks concatenate back to text exactly (as the scripted agent does).
func words(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			return append(out, text)
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}
