package requirements

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// FileName is a registry's name inside its dialect's folder of features.
const FileName = "requirements.json"

// maxProblems caps how many problems one Parse reports: enough to fix a
// file in one pass, not a wall of text for a file that is not a registry.
const maxProblems = 20

// Load reads the registry of one dialect from fsys (the embedded features,
// or a folder laid out the same way): <dialect>/requirements.json. The
// file must name the same dialect.
func Load(fsys fs.FS, dialect string) (*Registry, error) {
	name := path.Join(dialect, FileName)
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("failed to read requirements of %s: %w", dialect, err)
	}
	reg, err := Parse(name, data)
	if err != nil {
		return nil, err
	}
	if reg.Dialect != dialect {
		return nil, &Problem{File: name, Line: reg.dialectLine,
			Msg: fmt.Sprintf("dialect %q, want %q (the folder it sits in)", reg.Dialect, dialect)}
	}
	return reg, nil
}

// Problem is one thing wrong with a registry file, at a line of it (0 when
// the line is unknown).
type Problem struct {
	File string
	Line int
	Msg  string
}

func (p *Problem) Error() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Msg)
}

// idPart is one dot-separated part of an id: lowercase words and digits
// joined by single dashes.
const idPart = `[a-z0-9]+(?:-[a-z0-9]+)*`

var (
	idPattern      = regexp.MustCompile(`^` + idPart + `(?:\.` + idPart + `){2,}$`)
	dialectPattern = regexp.MustCompile(`^` + idPart + `$`)
)

// Parse reads a registry from data; name is the file it came from, for
// messages. It reports every problem it finds (up to a cap), each with
// its line, joined into one error; a file that is not JSON stops at the
// first syntax error.
func Parse(name string, data []byte) (*Registry, error) {
	p := &parser{name: name, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	reg := p.registry()
	if len(p.problems) > 0 {
		return nil, errors.Join(p.problems...)
	}
	reg.index()
	return reg, nil
}

// parser walks the file token by token, so that every entry knows the
// line it starts on.
type parser struct {
	name     string
	data     []byte
	dec      *json.Decoder
	problems []error
}

// errStop is returned by the walking functions when the rest of the file
// cannot be read (a syntax error, a wrong shape).
var errStop = errors.New("stop")

func (p *parser) add(line int, format string, args ...any) {
	if len(p.problems) == maxProblems {
		p.problems = append(p.problems, &Problem{File: p.name, Msg: "too many problems, the rest are not listed"})
	}
	if len(p.problems) > maxProblems {
		return
	}
	p.problems = append(p.problems, &Problem{File: p.name, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// lineAt is the line of the first byte at or after off that is not white
// space or a comma: where the next value starts.
func (p *parser) lineAt(off int64) int {
	i := int(min(max(off, 0), int64(len(p.data))))
	for i < len(p.data) && strings.IndexByte(" \t\r\n,:", p.data[i]) >= 0 {
		i++
	}
	return 1 + bytes.Count(p.data[:i], []byte{'\n'})
}

// syntax records a decoding error at its own offset when it has one.
func (p *parser) syntax(err error, fallback int64) error {
	off := fallback
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		p.add(p.lineAt(int64(len(p.data))), "unexpected end of file")
		return errStop
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	p.add(p.lineAt(off), "%s", msg)
	return errStop
}

// delim reads one token that must be the delimiter want.
func (p *parser) delim(want json.Delim, what string) error {
	off := p.dec.InputOffset()
	tok, err := p.dec.Token()
	if err != nil {
		return p.syntax(err, off)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		p.add(p.lineAt(off), "%s: want %q, found %s", what, string(want), describe(tok))
		return errStop
	}
	return nil
}

// describe names a token for a message.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		return fmt.Sprintf("%q", string(v))
	case string:
		return fmt.Sprintf("the string %q", v)
	default:
		return fmt.Sprintf("%v", v)
	}
}

// registry reads the top-level object.
func (p *parser) registry() *Registry {
	reg := &Registry{File: p.name}
	if err := p.delim('{', "a registry is a JSON object"); err != nil {
		return reg
	}
	seen := map[string]bool{}
	for p.dec.More() {
		off := p.dec.InputOffset()
		tok, err := p.dec.Token()
		if err != nil {
			p.syntax(err, off)
			return reg
		}
		key, _ := tok.(string)
		line := p.lineAt(off)
		if seen[key] {
			p.add(line, "member %q appears twice", key)
		}
		seen[key] = true
		switch key {
		case "dialect":
			reg.dialectLine = line
			err = p.value(&reg.Dialect)
		case "spec":
			err = p.value(&reg.Spec)
		case "requirements":
			err = p.requirements(reg)
		default:
			p.add(line, "unknown member %q (want dialect, spec, requirements)", key)
			var skip json.RawMessage
			err = p.value(&skip)
		}
		if err != nil {
			return reg
		}
	}
	if err := p.delim('}', "end of the registry"); err != nil {
		return reg
	}
	if off := p.dec.InputOffset(); p.dec.More() {
		p.add(p.lineAt(off), "data after the registry object")
	}
	p.top(reg, seen)
	return reg
}

// value decodes the next value into v.
func (p *parser) value(v any) error {
	off := p.dec.InputOffset()
	if err := p.dec.Decode(v); err != nil {
		return p.syntax(err, off)
	}
	return nil
}

// top checks the registry's own members once they are read.
func (p *parser) top(reg *Registry, seen map[string]bool) {
	switch {
	case !seen["dialect"] || reg.Dialect == "":
		p.add(1, "no dialect")
	case !dialectPattern.MatchString(reg.Dialect):
		p.add(reg.dialectLine, "dialect %q: want lowercase words joined by dashes", reg.Dialect)
	}
	if strings.TrimSpace(reg.Spec) == "" {
		p.add(1, "no spec (the spec file the quotes come from)")
	}
	if !seen["requirements"] {
		p.add(1, "no requirements")
	}
	ids := map[string]int{}
	for _, r := range reg.Requirements {
		p.entry(reg.Dialect, r)
		if first, dup := ids[r.ID]; dup && r.ID != "" {
			p.add(r.Line, "duplicate id %q (first at line %d)", r.ID, first)
		} else {
			ids[r.ID] = r.Line
		}
	}
}

// requirements reads the array of entries.
func (p *parser) requirements(reg *Registry) error {
	off := p.dec.InputOffset()
	tok, err := p.dec.Token()
	if err != nil {
		return p.syntax(err, off)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		p.add(p.lineAt(off), "requirements: want an array, found %s", describe(tok))
		return errStop
	}
	for p.dec.More() {
		off := p.dec.InputOffset()
		line := p.lineAt(off)
		var raw json.RawMessage
		if err := p.dec.Decode(&raw); err != nil {
			return p.syntax(err, off)
		}
		r, ok := p.decodeEntry(raw, line)
		if ok {
			r.Line = line
			reg.Requirements = append(reg.Requirements, r)
		}
	}
	return p.delim(']', "end of requirements")
}

// decodeEntry decodes one entry strictly: an object, no unknown member,
// no member twice.
func (p *parser) decodeEntry(raw json.RawMessage, line int) (Requirement, bool) {
	var r Requirement
	if trimmed := bytes.TrimSpace(raw); len(trimmed) == 0 || trimmed[0] != '{' {
		p.add(line, "a requirement is a JSON object, found %s", clip(string(trimmed)))
		return r, false
	}
	if key, dup := duplicateKey(raw); dup {
		p.add(line, "member %q appears twice in one requirement", key)
		return r, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		msg := strings.TrimPrefix(err.Error(), "json: ")
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			msg = fmt.Sprintf("member %q: want a string", te.Field)
		}
		p.add(line, "%s", msg)
		return r, false
	}
	return r, true
}

// duplicateKey reports a member name that appears twice at the top of an
// object (encoding/json keeps the last silently: a second "quote" would
// hide the first).
func duplicateKey(raw json.RawMessage) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return "", false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		key, _ := tok.(string)
		if seen[key] {
			return key, true
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", false
		}
	}
	return "", false
}

// clip shortens a value for a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// entry checks one requirement's members.
func (p *parser) entry(dialect string, r Requirement) {
	at := r.Line
	switch {
	case r.ID == "":
		p.add(at, "requirement without an id")
	case !idPattern.MatchString(r.ID):
		p.add(at, "id %q: want <dialect>.<area>.<what>, lowercase words joined by dashes, parts by dots", r.ID)
	case dialect != "" && !strings.HasPrefix(r.ID, dialect+"."):
		p.add(at, "id %q does not start with the dialect %q", r.ID, dialect+".")
	}
	name := r.ID
	if name == "" {
		name = "(no id)"
	}
	if strings.TrimSpace(r.Section) == "" {
		p.add(at, "%s: no section", name)
	}
	if strings.TrimSpace(r.Quote) == "" {
		p.add(at, "%s: no quote (the spec's own words)", name)
	}
	if !r.Evidence.Valid() {
		p.add(at, "%s: evidence %q: want stated, shown or interpretation", name, r.Evidence)
	}
	if !r.Level.Valid() {
		p.add(at, "%s: level %q: want must, should, may or type", name, r.Level)
	}
	if r.Evidence == Interpretation && strings.TrimSpace(r.Reading) == "" {
		p.add(at, "%s: an interpretation says the reading we chose (reading)", name)
	}
}
