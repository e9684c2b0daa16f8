package check

import (
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// Limits bound what the checker will decode. Frames beyond them get a
// finding saying they were not validated, never a crash.
type Limits struct {
	MaxFrameBytes int
	MaxDepth      int
}

// DefaultLimits are generous for agent protocols, whose messages are
// rarely beyond a few hundred KiB: 4 MiB frames, 128 levels of nesting.
var DefaultLimits = Limits{MaxFrameBytes: 4 << 20, MaxDepth: 128}

func (l Limits) orDefault() Limits {
	if l.MaxFrameBytes <= 0 {
		l.MaxFrameBytes = DefaultLimits.MaxFrameBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	return l
}

// Validate applies the stateless rules (frame, schema, ambiguity) to one
// frame, as if it were the first of a session. The example corpus and the
// reference server's own tests use it; feeders use a Session.
func Validate(d *dialect.Dialect, f wire.Frame, lim Limits) []Finding {
	_, out := stateless(d, f, lim.orDefault())
	return out
}

// Inspect is Validate that also says what the frame is: its message type
// (empty when it has none) and whether the dialect defines that type for
// the frame's direction. Dialect detection weighs dialects with it.
func Inspect(d *dialect.Dialect, f wire.Frame, lim Limits) (typ string, known bool, fs []Finding) {
	m, fs := stateless(d, f, lim.orDefault())
	if m == nil {
		return "", false, fs
	}
	return m.Type, m.Known, fs
}

func stateless(d *dialect.Dialect, f wire.Frame, lim Limits) (*message, []Finding) {
	m, out := decode(d, f, lim)
	if m == nil || !m.Known {
		return m, out
	}
	s, _ := d.Schema(f.Dir, m.Type)
	out = append(out, checkSchema(s, m)...)
	if m.SchemaOK {
		out = append(out, checkAmbiguities(d, m)...)
	}
	return m, out
}

// ValidateHTTP judges an HTTP body (hostd's login and input endpoints)
// against the named schema under the dialect's http/ folder.
func ValidateHTTP(d *dialect.Dialect, name string, body []byte, lim Limits) []Finding {
	_, out := validateBody(d, name, wire.Frame{Op: wire.OpText, Payload: body}, lim)
	return out
}

// validateBody is ValidateHTTP for a body that stands in frame f (its
// connection, index and direction name the exchange): the decoded object
// (nil when it is none) and the findings.
func validateBody(d *dialect.Dialect, name string, f wire.Frame, lim Limits) (map[string]any, []Finding) {
	lim = lim.orDefault()
	s, ok := d.HTTPSchema(name)
	m := &message{Frame: f, Type: name}
	if !ok {
		return nil, []Finding{ruleTypeUnknown.fire(m, "%s defines no HTTP body %q", d.Spec, name)}
	}
	if len(f.Payload) > lim.MaxFrameBytes {
		fd := ruleTooLarge.fire(m, "body of %d bytes exceeds the checker's limit of %d bytes; it was not validated", len(f.Payload), lim.MaxFrameBytes)
		return nil, []Finding{fd}
	}
	v, issues, err := jsonx.Decode(f.Payload, lim.MaxDepth)
	var out []Finding
	for _, is := range issues {
		out = append(out, issueFinding(m, is, false)...)
	}
	if err != nil {
		return nil, append(out, jsonFinding(m, err, f.Payload))
	}
	doc, isObj := v.(map[string]any)
	if !isObj {
		fd := ruleObject.fire(m, "body holds a JSON %s, not an object", jsonx.Kind(v))
		fd.Expected, fd.Actual = "object", jsonx.Kind(v)
		return nil, append(out, fd)
	}
	m.Doc = doc
	return doc, append(out, checkSchema(s, m)...)
}
