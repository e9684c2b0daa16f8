package reports

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/redact"
)

// Redact returns a copy of r with its credentials redacted (package
// redact), for writing: r itself, which the verdicts were computed on, is
// not changed. Redacted are
//
//   - the URLs of targets and connections (query values such as token and
//     host_token, a user-info password);
//   - the credential members of text frames' payloads ({"apiKey": …}),
//     the replay diffs' frames included;
//   - in every text (the command line and rerun commands, steps, findings'
//     messages, Expected, Actual and diffs, root causes, errors, notes):
//     name=value pairs with a credential name (--var host_token=…),
//     credential header lines (--header 'Authorization: Bearer …'), and
//     JSON credential members quoted in it;
//   - a finding's Actual, and a replay diff's member values, when the
//     pointer names a credential member;
//   - the token shapes (Bearer …, sk-…, JWTs, ghp_…, AWS, Slack and
//     Google keys) in every text and payload, and credentials in JSON
//     held in a string member;
//   - binary payloads: as text when they are UTF-8, else their token
//     shapes masked in place; a note then says how many binary frames
//     were searched only for token shapes (BinaryNote);
//   - everywhere, payloads included, every secret value (of MinLiteral
//     characters or more) that one of the above revealed.
//
// A report redacted twice is the same report.
func Redact(r *Report) *Report {
	if r == nil {
		return nil
	}
	s := redact.NewScrubber()
	c := *r
	// First the places that say what is a secret, so that the texts after
	// them can be scrubbed of every value found.
	c.Command = s.Text(c.Command)
	c.Targets = append([]Target(nil), r.Targets...)
	for i := range c.Targets {
		c.Targets[i].Name = s.URL(c.Targets[i].Name)
		c.Targets[i].URL = s.URL(c.Targets[i].URL)
	}
	c.Scenarios = append([]Scenario(nil), r.Scenarios...)
	for i := range c.Scenarios {
		sc := &c.Scenarios[i]
		sc.Rerun = s.Text(sc.Rerun)
		sc.Frames = redactFrames(s, sc.Frames)
	}
	c.Sessions = append([]Session(nil), r.Sessions...)
	for i := range c.Sessions {
		se := &c.Sessions[i]
		se.Conns = append([]Connection(nil), se.Conns...)
		for k := range se.Conns {
			se.Conns[k].URL = s.URL(se.Conns[k].URL)
		}
		se.Frames = redactFrames(s, se.Frames)
	}
	c.Replays = redactReplays(s, r.Replays, false)

	// Then every text, and the frames again for the values found since.
	c.Command = s.Text(c.Command)
	for i := range c.Targets {
		c.Targets[i].Name = s.Text(c.Targets[i].Name)
		c.Targets[i].URL = s.Text(c.Targets[i].URL)
	}
	for i := range c.Scenarios {
		sc := &c.Scenarios[i]
		sc.Name, sc.Reason, sc.Rerun = s.Text(sc.Name), s.Text(sc.Reason), s.Text(sc.Rerun)
		sc.Steps = append([]Step(nil), sc.Steps...)
		for k := range sc.Steps {
			st := &sc.Steps[k]
			st.Text, st.Error = s.Text(st.Text), s.Text(st.Error)
			st.Expected, st.Actual = s.Text(st.Expected), s.Text(st.Actual)
		}
		sc.Findings = redactFindings(s, sc.Findings)
		sc.Frames = literalFrames(s, sc.Frames)
	}
	for i := range c.Sessions {
		se := &c.Sessions[i]
		for k := range se.Conns {
			se.Conns[k].URL = s.Text(se.Conns[k].URL)
			se.Conns[k].CloseReason = s.Text(se.Conns[k].CloseReason)
		}
		se.Findings = redactFindings(s, se.Findings)
		se.Frames = literalFrames(s, se.Frames)
	}
	c.Replays = redactReplays(s, c.Replays, true)
	c.RootCauses = append([]RootCause(nil), r.RootCauses...)
	for i := range c.RootCauses {
		rc := &c.RootCauses[i]
		rc.Message, rc.Expected = s.Text(rc.Message), s.Text(rc.Expected)
		rc.Actual = redactActual(s, rc.Pointer, rc.Actual)
		if rc.Step != nil {
			st := *rc.Step
			st.Got, st.Hypothesis = s.Text(st.Got), s.Text(st.Hypothesis)
			st.Wire = literalFrames(s, redactFrames(s, st.Wire))
			rc.Step = &st
		}
	}
	c.Errors = redactTexts(s, r.Errors)
	c.Notes = redactTexts(s, r.Notes)
	if n := binaryNotText(&c); n > 0 && !slices.Contains(c.Notes, BinaryNote(n)) {
		c.Notes = append(c.Notes, BinaryNote(n))
	}
	c.Stale = append([]BaselineEntry(nil), r.Stale...)
	for i := range c.Stale {
		c.Stale[i].Reason = s.Text(c.Stale[i].Reason)
	}
	return &c
}

// redactFrames returns frames with their payloads redacted (redact.JSON,
// and redact.Binary for binary ones): a copy when one was, else frames
// itself.
func redactFrames(s *redact.Scrubber, frames []Frame) []Frame {
	var out []Frame
	for i, f := range frames {
		if f.Payload == "" {
			continue
		}
		var red []byte
		var changed bool
		if f.Binary {
			red, changed = redactBinary(s, f.Payload, false)
		} else {
			red, changed = s.JSON([]byte(f.Payload))
		}
		if !changed {
			continue
		}
		if out == nil {
			out = append([]Frame(nil), frames...)
		}
		out[i].Payload = string(red)
	}
	if out == nil {
		return frames
	}
	return out
}

// literalFrames returns frames with the known secrets replaced in their
// text payloads: a copy when one was, else frames itself.
func literalFrames(s *redact.Scrubber, frames []Frame) []Frame {
	if s.Len() == 0 {
		return frames
	}
	var out []Frame
	for i, f := range frames {
		p := f.Payload
		if f.Binary {
			if red, changed := redactBinary(s, p, true); changed {
				p = string(red)
			}
		} else {
			p = s.Literals(p)
		}
		if p == f.Payload {
			continue
		}
		if out == nil {
			out = append([]Frame(nil), frames...)
		}
		out[i].Payload = p
	}
	if out == nil {
		return frames
	}
	return out
}

// redactFindings returns a copy of fs with their texts redacted.
func redactFindings(s *redact.Scrubber, fs []Finding) []Finding {
	if fs == nil {
		return nil
	}
	out := append([]Finding(nil), fs...)
	for i := range out {
		out[i].Finding = redactFinding(s, out[i].Finding)
	}
	return out
}

// RedactFinding returns f with its texts redacted as Redact does, for a
// finding written outside a report (validate --json).
func RedactFinding(f check.Finding) check.Finding { return redactFinding(nil, f) }

func redactFinding(s *redact.Scrubber, f check.Finding) check.Finding {
	f.Message, f.Expected, f.Diff = s.Text(f.Message), s.Text(f.Expected), s.Text(f.Diff)
	f.Actual = redactActual(s, f.Pointer, f.Actual)
	f.Related = append([]int64(nil), f.Related...)
	return f
}

// redactActual redacts a finding's Actual: as a credential value when the
// pointer names a credential member (a JSON value keeps its type, anything
// else becomes a marker), else as text.
func redactActual(s *redact.Scrubber, pointer, actual string) string {
	if actual == "" || !pointerIsSecret(pointer) {
		return s.Text(actual)
	}
	if json.Valid([]byte(actual)) {
		wrapped := `{"secret":` + actual + `}`
		red, _ := s.JSON([]byte(wrapped))
		return s.Text(string(red[len(`{"secret":`) : len(red)-1]))
	}
	if redact.IsMarker(actual) || describesValue[actual] {
		return actual
	}
	s.Add(actual)
	return redact.Marker(utf8.RuneCountInString(actual))
}

// describesValue are the words a finding's Actual uses to describe a
// member instead of quoting it ("absent", "a string"): never a secret, and
// learning one as a secret would mask that word in every text of the
// report ("is null or absent" read "is null or «redacted: 6 chars»" in a
// field trial after a finding on a missing apiKey).
var describesValue = map[string]bool{
	"absent": true, "missing": true, "present": true, "null": true, "empty": true,
	"string": true, "number": true, "integer": true, "boolean": true, "object": true, "array": true,
	"a string": true, "a number": true, "an integer": true, "a boolean": true, "an object": true, "an array": true,
}

// pointerIsSecret reports whether a JSON pointer passes through a
// credential member (/apiKey, /auth/token).
func pointerIsSecret(pointer string) bool {
	if pointer == "" {
		return false
	}
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if redact.MemberName(tok) {
			return true
		}
	}
	return false
}

func redactTexts(s *redact.Scrubber, ts []string) []string {
	if ts == nil {
		return nil
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = s.Text(t)
	}
	return out
}

// redactBinary redacts a binary frame's payload (base64) and returns it
// in base64, and whether anything was: with redact.Binary, or with only
// the secrets s remembers (literal). A payload that is not base64 is
// left as it is.
func redactBinary(s *redact.Scrubber, payload string, literal bool) ([]byte, bool) {
	p, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return nil, false
	}
	var changed bool
	switch {
	case literal && utf8.Valid(p):
		if t := s.Literals(string(p)); t != string(p) {
			p, changed = []byte(t), true
		}
	default:
		p, changed, _ = s.Binary(p)
	}
	if !changed {
		return nil, false
	}
	return []byte(base64.StdEncoding.EncodeToString(p)), true
}

// BinaryNote is the note of a redacted report with n binary frames that
// are not text: in them credentials were looked for only by their shape.
func BinaryNote(n int) string {
	frames := "binary frames are"
	if n == 1 {
		frames = "binary frame is"
	}
	return fmt.Sprintf("%d %s not text: credentials in them were looked for only by their shape "+
		"(Bearer …, sk-…, JWTs, GitHub, AWS, Slack and Google keys), not under a name (an apiKey field) "+
		"nor in compressed or other encodings; check them before sharing", n, frames)
}

// binaryNotText counts the binary frames of r whose payload is not UTF-8
// text: the ones redact.Binary searched only for token shapes.
func binaryNotText(r *Report) int {
	n := 0
	count := func(f *Frame) {
		if f == nil || !f.Binary || f.Payload == "" {
			return
		}
		if p, err := base64.StdEncoding.DecodeString(f.Payload); err == nil && !utf8.Valid(p) {
			n++
		}
	}
	for i := range r.Scenarios {
		for k := range r.Scenarios[i].Frames {
			count(&r.Scenarios[i].Frames[k])
		}
	}
	for i := range r.Sessions {
		for k := range r.Sessions[i].Frames {
			count(&r.Sessions[i].Frames[k])
		}
	}
	for i := range r.Replays {
		for _, row := range r.Replays[i].Rows {
			count(row.Recorded)
			count(row.Replayed)
		}
	}
	return n
}
