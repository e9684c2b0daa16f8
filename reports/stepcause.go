package reports

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// StepCause is what a root cause made of step failures says beyond a
// finding's fields: a server that never answers one message fails every
// scenario that waits for the answer, and a reader should see that once,
// as one problem with its count, not 26 times "received no message".
type StepCause struct {
	// Verdict is the verdict the grouped scenarios got.
	Verdict Verdict `json:"verdict"`
	// Step is the failed step's text with its quoted values and numbers
	// normalised ("Then the client receives \"…\" within N s").
	Step string `json:"step"`
	// Awaited is the message type the step waited for, when it did.
	Awaited string `json:"awaited,omitempty"`
	// Got is what came instead, normalised so that ids, counts and
	// timestamps do not split the group.
	Got string `json:"got,omitempty"`
	// Hypothesis is a one-line explanation where one is evident from the
	// recorded frames, or the server's own words for an inconclusive one.
	Hypothesis string `json:"hypothesis,omitempty"`
	// Wire is an excerpt of the first scenario's frames, up to the failure.
	Wire []Frame `json:"wire,omitempty"`
}

// stepWireFrames is how many frames of the first scenario a step cause
// keeps: the failure is at the end of its frames (the steps after a failed
// one are skipped), so the last few show what led to it.
const stepWireFrames = 6

// stepCauseMin is how many scenarios must share a step failure for it to
// be a root cause: a failure seen once is already shown, with its reason,
// in its scenario and in the report's "needs attention" list.
const stepCauseMin = 2

// stepKey groups step failures: what actually happened, not where.
type stepKey struct {
	verdict                             Verdict
	dialect, step, awaited, got, server string
}

// failedStep is the step whose failure gave a scenario its verdict, nil
// when its verdict came from something else (a finding, a harness error).
func failedStep(s *Scenario) *Step {
	switch s.Verdict {
	case Passed, Skipped, NotRun, Error:
		return nil
	}
	for i := range s.Steps {
		st := &s.Steps[i]
		if st.Status == "failed" {
			if strings.Contains(s.Reason, st.Text+": "+st.Error) {
				return st
			}
			return nil
		}
	}
	return nil
}

// serverWords is the part of an inconclusive verdict's reason that gives
// the target's environment, before the failure it explains.
func serverWords(s *Scenario) string {
	if s.Verdict != Inconclusive {
		return ""
	}
	if i := strings.Index(s.Reason, " (then "); i >= 0 {
		return s.Reason[:i]
	}
	return ""
}

var (
	reQuoted  = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	reUUID    = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	reTime    = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b`)
	reHex     = regexp.MustCompile(`(?i)\b[0-9a-f]*\d[0-9a-f]*[a-f][0-9a-f]*\b|\b[0-9a-f]*[a-f][0-9a-f]*\d[0-9a-f]*\b`)
	reIDish   = regexp.MustCompile(`\b([A-Za-z]+[-_])\d+\b`)
	reNumber  = regexp.MustCompile(`\d+(?:\.\d+)?`)
	reMoreCnt = regexp.MustCompile(`…N more, `)
)

// NormaliseFailure makes two failures that differ only in ids, counts,
// timestamps and numbers equal: a uuid, a timestamp, a hex id of 8 or more
// digits, a prefixed id ("req-17") and any other number each become one
// placeholder. What stays is the shape of what happened and the words of
// the server.
func NormaliseFailure(s string) string {
	s = reUUID.ReplaceAllString(s, "<id>")
	s = reTime.ReplaceAllString(s, "<time>")
	s = reHex.ReplaceAllStringFunc(s, func(h string) string {
		if len(h) >= 8 {
			return "<id>"
		}
		return h
	})
	s = reIDish.ReplaceAllString(s, "${1}<id>")
	s = reNumber.ReplaceAllString(s, "N")
	s = reMoreCnt.ReplaceAllString(s, "")
	return s
}

// normaliseStep is a step's pattern: its quoted values as "…" (they are
// the scenario's own data, the awaited type is kept apart) and its numbers
// as N.
func normaliseStep(text string) string {
	return reNumber.ReplaceAllString(reQuoted.ReplaceAllString(text, `"…"`), "N")
}

// awaitedOf is the message type a receive step waited for: the first
// quoted value of its expectation ("\"answer\" within 10s").
func awaitedOf(st *Step) string {
	if st.Expected == "" {
		return ""
	}
	if m := reQuoted.FindString(st.Expected); m != "" && strings.HasPrefix(st.Expected, m) {
		return strings.Trim(m, `"`)
	}
	return ""
}

// groupStepCauses groups the step failures of the report's non-passing
// scenarios by what happened (verdict, dialect, the step's pattern, the
// awaited type, what came instead, and for an inconclusive one the
// server's words), keeping the groups of stepCauseMin scenarios or more.
func (r *Report) groupStepCauses() []RootCause {
	byKey := map[stepKey]*RootCause{}
	members := map[stepKey][]*Scenario{}
	var order []stepKey
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		st := failedStep(s)
		if st == nil {
			continue
		}
		got := st.Actual
		if got == "" {
			got = st.Error
		}
		k := stepKey{verdict: s.Verdict, dialect: s.Dialect, step: normaliseStep(st.Keyword + " " + st.Text),
			awaited: awaitedOf(st), got: NormaliseFailure(got), server: NormaliseFailure(serverWords(s))}
		rc, ok := byKey[k]
		if !ok {
			rc = &RootCause{Rule: "step", Severity: stepSeverity(s.Verdict), Message: st.Error,
				Expected: st.Expected, Actual: st.Actual, First: RootCauseRef{Scenario: s.ID, Target: s.Target},
				Step: &StepCause{Verdict: s.Verdict, Step: k.step, Awaited: k.awaited, Got: k.got, Wire: wireEnd(s.Frames)}}
			byKey[k] = rc
			order = append(order, k)
		}
		rc.Count++
		rc.Scenarios = append(rc.Scenarios, r.scenarioWhere(s))
		members[k] = append(members[k], s)
	}
	var out []RootCause
	for _, k := range order {
		rc := byKey[k]
		if rc.Count < stepCauseMin {
			continue
		}
		rc.Step.Hypothesis = r.hypothesis(k, rc, members[k])
		out = append(out, *rc)
	}
	return out
}

// stepSeverity ranks a step cause among the findings' root causes.
func stepSeverity(v Verdict) check.Severity {
	switch v {
	case Failed, Flaky:
		return check.Error
	case NonStrict:
		return check.Warning
	}
	return check.Info
}

// wireEnd is the end of a scenario's wire log.
func wireEnd(fs []Frame) []Frame {
	return append([]Frame(nil), fs[max(0, len(fs)-stepWireFrames):]...)
}

// lastSent is the type of the last message the client sent.
func lastSent(fs []Frame) string {
	for i := len(fs) - 1; i >= 0; i-- {
		if fs[i].Dir == wire.ClientToServer && fs[i].Type != "" {
			return fs[i].Type
		}
	}
	return ""
}

var reWithin = regexp.MustCompile(`within (\S+)$`)

// hypothesis is the one line a step cause can say about its cause: the
// server's words for an inconclusive group; for a group that got nothing,
// the message after which the server fell silent, and the message type
// that scenarios of the same dialect which passed sent first and these
// did not.
func (r *Report) hypothesis(k stepKey, rc *RootCause, ss []*Scenario) string {
	if k.server != "" {
		return serverWords(ss[0])
	}
	if !strings.HasPrefix(k.got, "received no message") {
		return ""
	}
	after := lastSent(ss[0].Frames)
	if after == "" {
		return ""
	}
	sent := map[string]bool{}
	for _, s := range ss {
		if lastSent(s.Frames) != after {
			return ""
		}
		for _, f := range s.Frames {
			if f.Dir == wire.ClientToServer {
				sent[f.Type] = true
			}
		}
	}
	within := ""
	if m := reWithin.FindStringSubmatch(rc.Expected); m != nil {
		within = " within " + m[1]
	}
	line := fmt.Sprintf("after `%s`, the server sent nothing%s in %d scenarios", after, within, len(ss))
	if first := r.sentFirstByPassing(k.dialect, after, sent); first != "" {
		line += fmt.Sprintf("; those that first sent `%s` got answers", first)
	}
	return line
}

// sentFirstByPassing is a message type that every passed scenario of the
// dialect which sent `after` had sent before it, and that the failing
// ones (sent) never sent; "" when there is none or no such scenario.
func (r *Report) sentFirstByPassing(dialect, after string, sent map[string]bool) string {
	var common map[string]bool
	var order []string
	for i := range r.Scenarios {
		s := &r.Scenarios[i]
		if s.Verdict != Passed || s.Dialect != dialect {
			continue
		}
		before := map[string]bool{}
		var seq []string
		found := false
		for _, f := range s.Frames {
			if f.Dir != wire.ClientToServer || f.Type == "" {
				continue
			}
			if f.Type == after {
				found = true
				break
			}
			if !before[f.Type] {
				before[f.Type] = true
				seq = append(seq, f.Type)
			}
		}
		if !found {
			continue
		}
		if common == nil {
			common, order = before, seq
			continue
		}
		for t := range common {
			if !before[t] {
				delete(common, t)
			}
		}
	}
	for _, t := range order {
		if common[t] && !sent[t] {
			return t
		}
	}
	return ""
}

// sortRootCauses puts the worst first, then the most frequent.
func sortRootCauses(out []RootCause) {
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Severity != out[j].Severity {
			return out[i].Severity > out[j].Severity
		}
		return out[i].Count > out[j].Count
	})
}

// stepCauseIndex maps each scenario (as RootCause.Scenarios names it)
// that a step cause groups to that root cause's position in RootCauses.
func (r *Report) stepCauseIndex() map[string]int {
	m := map[string]int{}
	for i, rc := range r.RootCauses {
		if rc.Step == nil {
			continue
		}
		for _, w := range rc.Scenarios {
			m[w] = i
		}
	}
	return m
}

// stepCauseOf is the position in RootCauses of the step cause that groups
// a scenario's failure (idx from stepCauseIndex), -1 when none does.
func (r *Report) stepCauseOf(idx map[string]int, s *Scenario) int {
	if i, ok := idx[r.scenarioWhere(s)]; ok {
		return i
	}
	return -1
}

// wireLineMax is how much of a payload a wire excerpt line shows.
const wireLineMax = 160

// WireLine is one frame of a wire excerpt as a line: its index, side
// (→ client to server, ← server to client), op or type, and the start of
// its payload.
func WireLine(f Frame) string {
	arrow := "←"
	if f.Dir == wire.ClientToServer {
		arrow = "→"
	}
	what := f.Type
	if f.Op != "" && f.Op != wire.OpText.String() {
		what = f.Op
		if f.CloseCode != 0 {
			what += " " + strconv.Itoa(f.CloseCode)
		}
	}
	p := f.Payload
	if f.Binary {
		p = fmt.Sprintf("(%d bytes)", f.Size)
	}
	if r := []rune(p); len(r) > wireLineMax {
		p = string(r[:wireLineMax]) + "…"
	}
	return strings.TrimSpace(fmt.Sprintf("#%d %s %s %s", f.Index, arrow, what, p))
}

// wireLines is a wire excerpt, one line a frame.
func wireLines(fs []Frame) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		out = append(out, WireLine(f))
	}
	return out
}
