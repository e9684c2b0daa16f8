package replay

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"

	"github.com/wsconform/wsconform/internal/redact"
)

// rewriter puts what a replay learned into a recorded client frame before
// it is sent: the new server's ids in place of the recorded server's, and
// client cursors (minicodex resume.last_seen_event_id, myagent
// reconnect_with_state.last_seq) mapped onto the new server's ordering
// values. A frame with nothing to change is sent byte for byte as
// recorded; a changed one keeps its layout (only the values are replaced
// in the text), unless a value cannot be found in the text, when it is
// re-encoded.
type rewriter struct {
	ids     *IDs
	cursors Masks
	local   map[string]string
	// tokens are the dialect's Knowledge.Tokens.
	tokens map[string]bool
	// sets are the values the user gives for members (--set), most often
	// credentials the recording redacted.
	sets []Set
	// redacted collects, when not nil, "type /pointer" of the redacted
	// values a client frame still sends as recorded (a marker under a
	// credential's name), for a note: no --set gave them.
	redacted map[string]bool
}

// change is one value replaced in a frame.
type change struct {
	path     []string
	old, new any
}

// rewrite returns the payload to send for a client frame of type typ;
// local are the connection's own ids, which win over the learned ones.
func (w rewriter) rewrite(typ string, payload []byte, local map[string]string) []byte {
	if w.ids == nil {
		return payload
	}
	learned := w.ids.Len() > 0 || len(w.ids.order) > 0 || len(w.ids.tokens) > 0 || len(local) > 0
	if !learned && len(w.sets) == 0 && w.redacted == nil {
		return payload
	}
	w.local = local
	doc, err := Decode(payload)
	if err != nil {
		return payload
	}
	var changes []change
	doc = w.walk(typ, nil, doc, &changes)
	if len(changes) == 0 {
		return payload
	}
	if out, ok := replaceInText(payload, changes); ok {
		return out
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return payload
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func (w rewriter) walk(typ string, path []string, v any, changes *[]change) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := append(path[:len(path):len(path)], k)
			if nv, ok := w.set(typ, p, e); ok {
				*changes = append(*changes, change{path: p, old: e, new: nv})
				x[k] = nv
				continue
			}
			if w.tokens[k] {
				if nv, ok := w.ids.Token(e); ok {
					*changes = append(*changes, change{path: p, old: e, new: nv})
					x[k] = nv
					continue
				}
			}
			x[k] = w.walk(typ, p, e, changes)
		}
	case []any:
		for i, e := range x {
			x[i] = w.walk(typ, append(path[:len(path):len(path)], strconv.Itoa(i)), e, changes)
		}
	case string:
		// A credential member's value, or a Marker anywhere (a token
		// found by its shape, JSON held in the string): an older
		// version's asterisk mask in a chat text is no credential.
		if w.redacted != nil && (redact.IsMarker(x) && slices.ContainsFunc(path, redact.MemberName) || redact.HasMarker(x)) {
			w.redacted[typ+" "+Pointer(path)] = true
		}
		if nv, ok := w.local[x]; ok && nv != x {
			*changes = append(*changes, change{path: path, old: x, new: nv})
			return nv
		}
		if nv, ok := w.ids.Lookup(x); ok {
			*changes = append(*changes, change{path: path, old: x, new: nv})
			return nv
		}
	case json.Number:
		if len(path) > 0 && w.cursors.Match(typ, path) {
			if nv, ok := w.ids.OrderNear(x); ok && nv != x {
				*changes = append(*changes, change{path: path, old: x, new: nv})
				return nv
			}
		}
	}
	return v
}

// set returns the value --set gives the member at path, if one does: a
// number when the recorded value is one and the given text reads as one,
// a string otherwise.
func (w rewriter) set(typ string, path []string, old any) (any, bool) {
	for _, s := range w.sets {
		if !s.Mask.selects(typ, path) {
			continue
		}
		if _, isNum := old.(json.Number); isNum {
			if n := json.Number(s.Value); json.Valid([]byte(s.Value)) && n.String() != "" {
				if _, err := n.Float64(); err == nil {
					return n, true
				}
			}
		}
		return s.Value, true
	}
	return nil, false
}

// replaceInText replaces each changed value where it stands in the text:
// a string wherever it appears as a whole JSON string, a number after its
// member's name. It reports false when a change cannot be placed.
func replaceInText(payload []byte, changes []change) ([]byte, bool) {
	out := payload
	done := map[string]bool{}
	for _, c := range changes {
		if len(c.path) == 0 {
			return nil, false // the whole message is the value: re-encode
		}
		key := c.path[len(c.path)-1] + "\x00" + string(mustJSON(c.old))
		if _, isString := c.old.(string); isString {
			key = string(mustJSON(c.old))
		}
		if done[key] {
			continue
		}
		done[key] = true
		switch old := c.old.(type) {
		case string:
			ob, err1 := json.Marshal(old)
			nb, err2 := json.Marshal(c.new)
			if err1 != nil || err2 != nil || !bytes.Contains(out, ob) {
				return nil, false
			}
			out = bytes.ReplaceAll(out, ob, nb)
		default: // a token's object or array: re-encode the message
			return nil, false
		case json.Number:
			name := c.path[len(c.path)-1]
			re, err := regexp.Compile(`("` + regexp.QuoteMeta(name) + `"\s*:\s*)` + regexp.QuoteMeta(old.String()) + `\b`)
			if err != nil || !re.Match(out) {
				return nil, false
			}
			out = re.ReplaceAll(out, []byte("${1}"+c.new.(json.Number).String()))
		}
	}
	return out, true
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
