package coworker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// Decoding and validating client messages. The server never trusts a
// member's presence or type: every read goes through a payload, which
// records the first problem so a handler can answer validation_failed with
// a message naming the member.

// frameError is a problem with a whole frame, answered before any handler
// runs: the error code and a message for the client.
type frameError struct {
	code, msg string
}

// decodeFrame turns a text frame into a JSON object with json.Number
// numbers, or a frameError: invalid_json for what is not one JSON value
// (RFC 8259, UTF-8), invalid_payload for a value that is not an object.
func decodeFrame(data []byte) (map[string]any, *frameError) {
	if !utf8.Valid(data) {
		return nil, &frameError{codeInvalidJSON, "Invalid JSON: the frame is not valid UTF-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &frameError{codeInvalidJSON, "Invalid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &frameError{codeInvalidJSON, "Invalid JSON: data after the JSON value"}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, &frameError{codeInvalidPayload, "Expected object, got " + jsonx.Kind(v)}
	}
	return obj, nil
}

// payload reads the members of one client message (or of an object inside
// it) and remembers the first member that is missing or mistyped.
type payload struct {
	typ  string         // the message type, for error messages
	path string         // "" at the top, "context." inside a member
	m    map[string]any // the members
	err  *string        // first problem, shared with nested payloads
}

func newPayload(typ string, m map[string]any) *payload {
	return &payload{typ: typ, m: m, err: new(string)}
}

// problem is the first validation failure, "" when there was none.
func (p *payload) problem() string { return *p.err }

func (p *payload) fail(name, what string) {
	if *p.err == "" {
		*p.err = fmt.Sprintf("%s %s %s", p.typ, p.path+name, what)
	}
}

// failf records a problem that is not about one member's type.
func (p *payload) failf(format string, args ...any) {
	if *p.err == "" {
		*p.err = p.typ + " " + fmt.Sprintf(format, args...)
	}
}

func (p *payload) get(name string) (any, bool) {
	v, ok := p.m[name]
	return v, ok
}

// str is a required string.
func (p *payload) str(name string) string {
	v, ok := p.get(name)
	if !ok {
		p.fail(name, "is missing")
		return ""
	}
	s, ok := v.(string)
	if !ok {
		p.fail(name, "must be a string, got "+jsonx.Kind(v))
	}
	return s
}

// name is a required string that is not blank.
func (p *payload) name(name string) string {
	s := p.str(name)
	if *p.err == "" && strings.TrimSpace(s) == "" {
		p.fail(name, "must not be empty")
	}
	return s
}

// optStr is an optional string; ok is false when absent (or mistyped, which
// is recorded).
func (p *payload) optStr(name string) (string, bool) {
	v, ok := p.get(name)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		p.fail(name, "must be a string when present, got "+jsonx.Kind(v))
	}
	return s, ok
}

// boolean is a required boolean.
func (p *payload) boolean(name string) bool {
	v, ok := p.get(name)
	if !ok {
		p.fail(name, "is missing")
		return false
	}
	b, ok := v.(bool)
	if !ok {
		p.fail(name, "must be a boolean, got "+jsonx.Kind(v))
	}
	return b
}

// number is a required JSON number.
func (p *payload) number(name string) float64 {
	v, ok := p.get(name)
	if !ok {
		p.fail(name, "is missing")
		return 0
	}
	n, ok := v.(json.Number)
	if !ok {
		p.fail(name, "must be a number, got "+jsonx.Kind(v))
		return 0
	}
	f, err := n.Float64()
	if err != nil {
		p.fail(name, "is out of range")
	}
	return f
}

// integer is a required integer (a JSON number without fraction).
func (p *payload) integer(name string) int64 {
	if _, ok := p.get(name); !ok {
		p.fail(name, "is missing")
		return 0
	}
	n, _ := p.optInt(name)
	return n
}

// optInt is an optional integer.
func (p *payload) optInt(name string) (int64, bool) {
	v, ok := p.get(name)
	if !ok {
		return 0, false
	}
	n, ok := v.(json.Number)
	if !ok {
		p.fail(name, "must be an integer, got "+jsonx.Kind(v))
		return 0, false
	}
	i, err := n.Int64()
	if err != nil {
		p.fail(name, "must be an integer, got "+n.String())
		return 0, false
	}
	return i, true
}

// strList is a required array of strings.
func (p *payload) strList(name string) []string {
	v, ok := p.get(name)
	if !ok {
		p.fail(name, "is missing")
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		p.fail(name, "must be an array of strings, got "+jsonx.Kind(v))
		return nil
	}
	out := make([]string, 0, len(arr))
	for i, x := range arr {
		s, ok := x.(string)
		if !ok {
			p.fail(fmt.Sprintf("%s[%d]", name, i), "must be a string, got "+jsonx.Kind(x))
			return nil
		}
		out = append(out, s)
	}
	return out
}

// list is a required array of objects, each as a payload.
func (p *payload) list(name string) []*payload {
	v, ok := p.get(name)
	if !ok {
		p.fail(name, "is missing")
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		p.fail(name, "must be an array, got "+jsonx.Kind(v))
		return nil
	}
	out := make([]*payload, 0, len(arr))
	for i, x := range arr {
		elem := fmt.Sprintf("%s[%d]", name, i)
		m, ok := x.(map[string]any)
		if !ok {
			p.fail(elem, "must be an object, got "+jsonx.Kind(x))
			return nil
		}
		out = append(out, &payload{typ: p.typ, path: p.path + elem + ".", m: m, err: p.err})
	}
	return out
}

// object is a required object member as a nested payload; it is never nil
// (an empty one stands in for a missing member, whose absence is recorded).
func (p *payload) object(name string) *payload {
	v, ok := p.get(name)
	if !ok {
		p.fail(name, "is missing")
		return &payload{typ: p.typ, path: p.path + name + ".", m: map[string]any{}, err: p.err}
	}
	return p.asObject(name, v)
}

// optObject is an optional object member; nil when absent.
func (p *payload) optObject(name string) *payload {
	v, ok := p.get(name)
	if !ok {
		return nil
	}
	return p.asObject(name, v)
}

func (p *payload) asObject(name string, v any) *payload {
	m, ok := v.(map[string]any)
	if !ok {
		p.fail(name, "must be an object, got "+jsonx.Kind(v))
		m = map[string]any{}
	}
	return &payload{typ: p.typ, path: p.path + name + ".", m: m, err: p.err}
}

// oneOf is a required string from a fixed set.
func (p *payload) oneOf(name string, allowed ...string) string {
	s := p.str(name)
	if *p.err != "" {
		return s
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	p.fail(name, fmt.Sprintf("must be one of %s, got %q", strings.Join(allowed, ", "), clip(s)))
	return s
}

// maxEcho bounds how much of a client's value an error message repeats.
const maxEcho = 80

// clip shortens a client-supplied string for an error message, so an error
// never carries a megabyte the client sent.
func clip(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	cut := maxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
