package check

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// message is a data frame that decoded to a JSON object with a type.
type message struct {
	Frame wire.Frame
	Type  string
	Doc   map[string]any
	// Known is false for types the dialect does not define in this
	// direction; no schema or dialect rule judges such a message.
	Known bool
	// SchemaOK is true when the message passed its schema.
	SchemaOK bool
}

// decode applies the frame rules. It returns the message (nil when the frame
// carries none: control frames, binary, not JSON, not an object, no type)
// and the findings made on the way.
func decode(d *dialect.Dialect, f wire.Frame, lim Limits) (*message, []Finding) {
	m := &message{Frame: f}
	switch f.Op {
	case wire.OpText:
	case wire.OpBinary:
		return nil, []Finding{ruleBinary.fire(m, "binary frame of %d bytes", len(f.Payload))}
	default:
		return nil, nil
	}
	if len(f.Payload) > lim.MaxFrameBytes {
		fd := ruleTooLarge.fire(m, "frame of %d bytes exceeds the checker's limit of %d bytes; it was not validated",
			len(f.Payload), lim.MaxFrameBytes)
		fd.Expected, fd.Actual = fmt.Sprintf("at most %d bytes", lim.MaxFrameBytes), fmt.Sprintf("%d bytes", len(f.Payload))
		return nil, []Finding{fd}
	}
	var out []Finding
	badUTF8 := !utf8.Valid(f.Payload)
	if badUTF8 {
		out = append(out, ruleUTF8.fire(m, "text frame is not valid UTF-8"))
	}
	v, issues, err := jsonx.Decode(f.Payload, lim.MaxDepth)
	for _, is := range issues {
		out = append(out, issueFinding(m, is, badUTF8)...)
	}
	if err != nil {
		return nil, append(out, jsonFinding(m, err, f.Payload))
	}
	doc, ok := v.(map[string]any)
	if !ok {
		fd := ruleObject.fire(m, "frame holds a JSON %s, not an object", jsonx.Kind(v))
		fd.Expected, fd.Actual = "object", jsonx.Kind(v)
		return nil, append(out, fd)
	}
	m.Doc = doc
	field := d.TypeField
	t, ok := doc[field].(string)
	if !ok {
		fd := ruleTypeMissing.fire(m, "no string %q member", field)
		fd.Pointer, fd.Expected = "/"+field, "string"
		fd.Actual = "absent"
		if raw, present := doc[field]; present {
			fd.Actual = jsonx.Kind(raw)
		}
		return nil, append(out, fd)
	}
	m.Type = t
	if why, removed := d.RemovedReason(f.Dir, t); removed {
		fd := ruleTypeRemoved.fire(m, "%q is removed: %s", t, why)
		fd.Pointer, fd.Quote = "/"+field, why
		return m, append(out, fd)
	}
	if !d.Knows(f.Dir, t) {
		return m, append(out, unknownType(d, m, field))
	}
	m.Known = true
	return m, out
}

// unknownType reports a type the spec does not list: an error where the
// spec's types close the set for this direction, an undocumented type (a
// warning, once per type and session) where they do not.
func unknownType(d *dialect.Dialect, m *message, field string) Finding {
	dir := m.Frame.Dir
	var fd Finding
	if quote, closed := d.Closed[dir]; closed {
		fd = ruleTypeUnknown.fire(m, "%s does not define %q %s", d.Spec, m.Type, dirPhrase(dir))
		fd.Quote = quote
	} else {
		fd = ruleTypeUndocumented.fire(m, "%s does not document %q %s", d.Spec, m.Type, dirPhrase(dir))
	}
	fd.Pointer = "/" + field
	fd.Expected = fmt.Sprintf("one of the %d %s types", len(d.Messages[dir]), dir)
	fd.Actual = fmt.Sprintf("%q", m.Type)
	other := wire.ClientToServer
	if dir == wire.ClientToServer {
		other = wire.ServerToClient
	}
	if d.Knows(other, m.Type) {
		fd.Message += fmt.Sprintf(" (it is a %s message)", dirName(other))
	}
	return fd
}

func dirPhrase(dir wire.Direction) string { return "for " + dirName(dir) + " messages" }

func dirName(dir wire.Direction) string {
	if dir == wire.ClientToServer {
		return "client→server"
	}
	return "server→client"
}

func issueFinding(m *message, is jsonx.Issue, utf8Reported bool) []Finding {
	switch is.Kind {
	case jsonx.DuplicateKey:
		fd := ruleDuplicateKey.fire(m, "%s", is.Detail)
		fd.Pointer = is.Pointer
		return []Finding{fd}
	case jsonx.NumberRange:
		fd := ruleNumberRange.fire(m, "%s", is.Detail)
		fd.Pointer = is.Pointer
		return []Finding{fd}
	case jsonx.InvalidUTF8:
		if utf8Reported {
			return nil
		}
	}
	fd := ruleStringEncoding.fire(m, "%s", is.Detail)
	fd.Pointer = is.Pointer
	return []Finding{fd}
}

func jsonFinding(m *message, err error, payload []byte) Finding {
	var depth *jsonx.DepthError
	if errors.As(err, &depth) {
		fd := ruleTooDeep.fire(m, "%v; the frame was not validated", err)
		fd.Expected = fmt.Sprintf("at most %d levels", depth.Max)
		return fd
	}
	fd := ruleJSON.fire(m, "not JSON: %v", err)
	var syn *jsonx.SyntaxError
	if errors.As(err, &syn) {
		fd.Actual = around(payload, syn.Offset)
	}
	fd.Expected = "one JSON object"
	return fd
}

// around quotes the bytes near a syntax error so a reader sees the culprit.
func around(b []byte, off int) string {
	lo, hi := off-20, off+20
	if lo < 0 {
		lo = 0
	}
	if hi > len(b) {
		hi = len(b)
	}
	if off > len(b) {
		return fmt.Sprintf("%q⟂", b[lo:])
	}
	return fmt.Sprintf("%q⟂%q", b[lo:off], b[off:hi])
}
