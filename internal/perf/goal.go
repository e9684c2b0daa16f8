package perf

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A Figure's Goal is read, to say whether it is met, as clauses separated
// by ";", each
//
//	[SUBJECT] OP NUMBER[k|M] [× REF] [words]
//
// with OP one of ≥ ≤ > < = (>= <= too; a bare number means =), × or an x
// right after the number, and the words after it (a unit) ignored. With × REF the clause holds SUBJECT's
// median to NUMBER times REF's median (a ratio), otherwise to NUMBER.
// A clause without a subject takes the previous clause's; the first one
// without a subject holds every subject but REF. Examples:
//
//	≥ 300k                                  every subject at least 300,000
//	wsproxy ≥ 0.8× tcp-relay; ≥ 10× mitmproxy
//	< 50 MB
//	0                                       every subject exactly 0
//
// A goal that does not read so is shown but not judged.
var goalClause = regexp.MustCompile(`^\s*(?:([A-Za-z][\w.-]*)\s+)?(≥|>=|≤|<=|<|>|=)?\s*([0-9][0-9.,]*)([kM]?)(?:(?:\s*×|x)\s*([A-Za-z][\w.-]*))?(?:\s.*)?$`)

// goal is one clause of a Goal.
type goal struct {
	text    string // as written
	subject string // "" for every subject but ref
	op      string // ≥ ≤ > < =
	n       float64
	ref     string // "" unless a ratio
}

// parseGoal reads a Goal; false when any clause does not read.
func parseGoal(s string) ([]goal, bool) {
	if strings.TrimSpace(s) == "" {
		return nil, false
	}
	var gs []goal
	subject := ""
	for _, part := range strings.Split(s, ";") {
		m := goalClause.FindStringSubmatch(part)
		if m == nil {
			return nil, false
		}
		n, err := strconv.ParseFloat(strings.ReplaceAll(m[3], ",", ""), 64)
		if err != nil {
			return nil, false
		}
		switch m[4] {
		case "k":
			n *= 1e3
		case "M":
			n *= 1e6
		}
		if m[1] != "" {
			subject = m[1]
		}
		op := m[2]
		switch op {
		case "":
			op = "="
		case ">=":
			op = "≥"
		case "<=":
			op = "≤"
		}
		gs = append(gs, goal{text: strings.TrimSpace(part), subject: subject, op: op, n: n, ref: m[5]})
	}
	return gs, true
}

// holds says whether v satisfies the clause's comparison.
func (g goal) holds(v float64) bool {
	switch g.op {
	case "≥":
		return v >= g.n
	case "≤":
		return v <= g.n
	case ">":
		return v > g.n
	case "<":
		return v < g.n
	}
	return v == g.n
}

// verdict is one clause judged on a figure.
type verdict struct {
	judged, met bool
	ratios      []string // "wsproxy/tcp-relay 0.83×" for a ratio clause
	why         string   // why it is not judged
}

// judge holds a figure to one clause. notInstalled names subjects that
// are missing because their program is not installed, with how to
// install it, e.g. "mitmproxy" → "not installed: apt-get install mitmproxy".
func (g goal) judge(f *Figure, order []string, notInstalled map[string]string) verdict {
	subjects := []string{g.subject}
	if g.subject == "" {
		subjects = nil
		for _, s := range order {
			if s != g.ref {
				subjects = append(subjects, s)
			}
		}
	}
	missing := func(s string) string {
		if why, ok := notInstalled[s]; ok {
			return s + ": " + why
		}
		return "no figure for " + s
	}
	var ref float64
	if g.ref != "" {
		r, ok := f.Median(g.ref)
		if !ok || r == 0 {
			return verdict{why: missing(g.ref)}
		}
		ref = r
	}
	if len(subjects) == 0 {
		return verdict{why: "no figure"}
	}
	v := verdict{judged: true, met: true}
	for _, s := range subjects {
		m, ok := f.Median(s)
		if !ok {
			return verdict{why: missing(s)}
		}
		if g.ref != "" {
			m /= ref
			v.ratios = append(v.ratios, fmt.Sprintf("%s/%s %.2f×", s, g.ref, m))
		}
		if !g.holds(m) {
			v.met = false
		}
	}
	return v
}
