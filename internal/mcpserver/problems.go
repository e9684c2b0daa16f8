package mcpserver

import (
	"sort"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/reports"
)

// Problem is one distinct problem: the findings of one rule on one
// message type and member from one side, however many frames showed it
// (the report's root-cause grouping, with the frames listed).
type Problem struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity" jsonschema:"error (a stated requirement broken), warning or info"`
	Evidence string `json:"evidence,omitempty" jsonschema:"what the spec gives for the rule: stated, shown or interpretation"`
	// Requirements are the registry ids the rule checks (explain them).
	Requirements []string `json:"requirements,omitempty" jsonschema:"ids of the spec requirements the rule checks; explain gives their words"`
	Spec         string   `json:"spec,omitempty" jsonschema:"the spec file and section"`
	Quote        string   `json:"quote,omitempty" jsonschema:"the spec's words the rule rests on"`
	Message      string   `json:"message"`
	Type         string   `json:"type,omitempty" jsonschema:"the message type of the offending frame"`
	Pointer      string   `json:"pointer,omitempty" jsonschema:"JSON pointer of the member at fault"`
	Dir          string   `json:"dir,omitempty" jsonschema:"c2s blames the client, s2c the server"`
	Expected     string   `json:"expected,omitempty"`
	Actual       string   `json:"actual,omitempty"`
	Diff         string   `json:"diff,omitempty"`
	Count        int      `json:"count" jsonschema:"how many findings the problem groups"`
	// Frames are the frame indexes of the findings (the first maxProblemFrames).
	Frames   []int64  `json:"frames" jsonschema:"frame indexes of the findings (the first 20); frames shows them"`
	Sessions []string `json:"sessions,omitempty"`
	Conns    []string `json:"connections,omitempty"`
}

// maxProblemFrames is how many frame indexes a problem lists.
const maxProblemFrames = 20

// problemKey groups findings as reports' root causes do.
type problemKey struct{ rule, typ, ptr, dir string }

// problems groups findings into distinct problems, worst first, then by
// count, then by first frame; at most max of them (the rest are counted
// in the second result).
func problems(fs []reports.Finding, max int) ([]Problem, int) {
	byKey := map[problemKey]*Problem{}
	var order []problemKey
	for _, f := range fs {
		k := problemKey{f.Rule, f.Type, f.Pointer, string(f.Dir)}
		p := byKey[k]
		if p == nil {
			p = &Problem{Rule: f.Rule, Severity: f.Severity.String(), Evidence: string(f.Evidence), Requirements: f.Requires,
				Spec: f.Spec, Quote: f.Quote, Message: f.Message, Type: f.Type, Pointer: f.Pointer, Dir: string(f.Dir),
				Expected: f.Expected, Actual: f.Actual, Diff: f.Diff, Frames: []int64{}}
			byKey[k] = p
			order = append(order, k)
		}
		p.Count++
		if len(p.Frames) < maxProblemFrames {
			p.Frames = append(p.Frames, f.Frame)
		}
		p.Sessions = addOnce(p.Sessions, f.Session)
		p.Conns = addOnce(p.Conns, f.Conn)
	}
	out := make([]Problem, 0, len(order))
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	sort.SliceStable(out, func(i, j int) bool {
		si, sj := severityRank(out[i].Severity), severityRank(out[j].Severity)
		if si != sj {
			return si > sj
		}
		return out[i].Count > out[j].Count
	})
	if len(out) > max {
		return out[:max], len(out) - max
	}
	return out, 0
}

func severityRank(s string) int {
	var sev check.Severity
	if sev.UnmarshalText([]byte(s)) != nil {
		return -1
	}
	return int(sev)
}

// addOnce appends s unless it is empty or there, keeping lists short.
func addOnce(list []string, s string) []string {
	if s == "" || len(list) >= maxProblemFrames {
		return list
	}
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// counts are findings by severity.
type counts struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

func (c *counts) add(s check.Severity) {
	switch {
	case s >= check.Error:
		c.Errors++
	case s == check.Warning:
		c.Warnings++
	default:
		c.Infos++
	}
}

// verdictOf is validate's verdict for findings: failed on an error,
// non-strict on a warning, passed otherwise.
func verdictOf(c counts) string {
	switch {
	case c.Errors > 0:
		return "failed"
	case c.Warnings > 0:
		return "non-strict"
	}
	return "passed"
}
