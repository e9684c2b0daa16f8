package reports

import (
	"strconv"
	"strings"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// What the writers need to show root causes: which root cause a finding
// belongs to, and how a root cause names the places it touched.

// rootKeyOf is the key groupRootCauses files a finding under.
func rootKeyOf(f Finding) rootKey {
	return groupKey(f.Rule, f.Type, dialect.GenericPointer(f.Pointer), f.Dir)
}

// ProblemKey names the root cause a finding belongs to, for a caller that
// groups findings as the report does (the proxy's live console prints a
// problem in full once, its repeats in one line).
func ProblemKey(f check.Finding) string {
	k := rootKeyOf(Finding{Finding: f})
	return k.rule + "\x00" + string(k.dir) + "\x00" + k.typ + "\x00" + k.ptr
}

// key is the key of a root cause (its pointer is generic already).
func (rc RootCause) key() rootKey { return groupKey(rc.Rule, rc.Type, rc.Pointer, rc.Dir) }

// groupKey says what makes two findings one problem. A content finding
// (frame and schema rules) is about one member of one message type: a
// null account in provider_status is another problem than one in
// session_settings. An order, replay or pairing finding is about the
// server's behaviour, whatever message it showed on: a replay that skips
// an event is one problem whether the skipped event was a run_status or a
// user_text.
func groupKey(rule, typ, ptr string, dir wire.Direction) rootKey {
	if !check.Stateless(rule) {
		typ, ptr = "", ""
	}
	return rootKey{rule, typ, ptr, dir}
}

// rootIndex maps the key of each of the report's root causes to its
// position in RootCauses.
func (r *Report) rootIndex() map[rootKey]int {
	m := make(map[rootKey]int, len(r.RootCauses))
	for i, rc := range r.RootCauses {
		m[rc.key()] = i
	}
	return m
}

// rootOf is the position in RootCauses of a finding's root cause, -1 when
// it has none (not judged, or below a warning).
func (r *Report) rootOf(idx map[rootKey]int, f Finding, inScenario bool) int {
	if f.Severity < check.Warning || !r.Judged(f, inScenario) {
		return -1
	}
	if i, ok := idx[rootKeyOf(f)]; ok {
		return i
	}
	return -1
}

// scenarioWhere names a scenario as RootCause.Scenarios does: its id, and
// its target when the report has several.
func (r *Report) scenarioWhere(s *Scenario) string {
	if len(r.Targets) > 1 {
		return s.ID + " [" + s.Target + "]"
	}
	return s.ID
}

// Subject is what a root cause is about: the message type and member.
func (rc RootCause) Subject() string {
	return strings.TrimSpace(rc.Type + " " + rc.Pointer)
}

// Where lists the scenarios, then the sessions, a root cause touched.
func (rc RootCause) Where() []string {
	out := make([]string, 0, len(rc.Scenarios)+len(rc.Sessions))
	out = append(out, rc.Scenarios...)
	for _, s := range rc.Sessions {
		out = append(out, "session "+s)
	}
	return out
}

// Reach says how far a root cause went: "30 findings in 30 scenarios".
func (rc RootCause) Reach() string {
	if rc.Step != nil { // a step cause counts scenarios, not findings
		return plural(len(rc.Scenarios), "scenario")
	}
	var parts []string
	if n := len(rc.Scenarios); n > 0 {
		parts = append(parts, plural(n, "scenario"))
	}
	if n := len(rc.Sessions); n > 0 {
		parts = append(parts, plural(n, "session"))
	}
	s := plural(rc.Count, "finding")
	if len(parts) > 0 {
		s += " in " + strings.Join(parts, " and ")
	}
	return s
}

// FirstLabel names where a root cause was first seen: "frame #12 of
// m.pass [ref]" or "frame #4 of session s1".
func (rc RootCause) FirstLabel(multiTarget bool) string {
	where := rc.First.Scenario
	if where == "" {
		where = "session " + rc.First.Session
	} else if multiTarget {
		where += " [" + rc.First.Target + "]"
	}
	if rc.First.Frame <= 0 {
		return where
	}
	return "frame #" + strconv.FormatInt(rc.First.Frame, 10) + " of " + where
}

// evidenceNote is what an evidence kind means, for a reader.
func evidenceNote(e check.Evidence) string {
	switch e {
	case check.Stated:
		return "the spec states it (MUST-like words, a type definition or an explicit guarantee)"
	case check.Shown:
		return "the spec only shows it (an example payload, a flow diagram or untyped prose): a warning at most"
	case check.Interpretation:
		return "the spec is silent here: this is our reading of it, a warning at most"
	}
	return ""
}

// severityWord is a severity as a count noun: "2 errors".
func severityWord(s check.Severity, n int) string { return plural(n, s.String()) }

// explainedBy is the position in RootCauses of the root cause that made a
// scenario or session fail, -1 when none did: for a scenario, the judged
// error finding (not background) its reason names; for a session, its
// first judged error finding.
func (r *Report) explainedBy(idx map[rootKey]int, fs []Finding, inScenario bool, reason string) int {
	for _, f := range fs {
		if f.Severity < check.Error || f.Background || (inScenario && reason != f.Rule+": "+f.Message) {
			continue
		}
		if k := r.rootOf(idx, f, inScenario); k >= 0 {
			return k
		}
	}
	return -1
}

// dirWords names a side for a reader.
func dirWords(d wire.Direction) string {
	switch d {
	case wire.ClientToServer:
		return "client → server"
	case wire.ServerToClient:
		return "server → client"
	}
	return ""
}
