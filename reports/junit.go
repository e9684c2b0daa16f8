package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/check"
)

// lastFrames is how many frames a JUnit failure body quotes.
const lastFrames = 10

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr,omitempty"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

// junitText is a CDATA section, so a wire log reads as it was sent.
type junitText struct {
	Text string `xml:",cdata"`
}

type junitProblem struct {
	Message string `xml:"message,attr,omitempty"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",cdata"`
}

// WriteJUnit writes the report as JUnit XML, in the shape CI viewers
// (GitHub and GitLab test reports, Jenkins, Azure) read: one testsuite per
// dialect and target (per dialect and recording for sessions), one
// testcase per scenario or session. A failure's body holds the reason,
// the steps with expected vs actual, the findings and the last frames; the
// wire log goes to system-out. Beside each such suite, a "· root causes"
// suite has one testcase per distinct problem seen there (failed for an
// error, with the spec's words, expected vs actual, the count and the
// scenarios it reached), so that a dashboard counts problems, not the
// scenarios a problem happened to reach. A "replay" suite has one
// testcase per replayed connection, failed with its differing rows when it
// does not match its recording (junit_replay.go). Harness errors of the whole report become
// an errored testcase of a "wsconform" suite, so that they are not lost.
func WriteJUnit(w io.Writer, r *Report) error {
	out := junitSuites{Name: "wsconform " + r.Kind, Time: seconds(r.Finished.Sub(r.Started).Seconds())}
	bySuite := map[string]*junitSuite{}
	var order []string
	secs := map[string]float64{}
	suite := func(name string) *junitSuite {
		if s, ok := bySuite[name]; ok {
			return s
		}
		bySuite[name] = &junitSuite{Name: name, Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05")}
		order = append(order, name)
		return bySuite[name]
	}
	inScenario := func(f Finding) bool { return r.Judged(f, true) }
	inSession := func(f Finding) bool { return r.Judged(f, false) }
	for _, sc := range r.Scenarios {
		name := sc.Dialect
		if len(r.Targets) > 1 {
			name += " @ " + sc.Target
		}
		s := suite(name)
		secs[name] += sc.Duration.Seconds()
		c := junitCase{Name: sc.ID + ": " + sc.Name, Classname: sc.Dialect + "." + strings.TrimSuffix(baseName(sc.File), ".feature"),
			Time: seconds(sc.Duration.Seconds()), SystemOut: cdata(observationNote(sc) + nonStrictDetail(sc.Verdict, sc.Findings, inScenario) + wireLog(sc.Frames))}
		s.add(&c, sc.Verdict, sc.Reason, xmlSafe(scenarioDetail(sc, inScenario)), sc.Baselined)
		s.Cases = append(s.Cases, c)
	}
	sources := map[string]bool{}
	for _, se := range r.Sessions {
		sources[se.Source] = true
	}
	for _, se := range r.Sessions {
		name := se.Dialect
		if name == "" {
			name = "sessions"
		}
		if len(sources) > 1 {
			name += " @ " + se.Source
		}
		s := suite(name)
		d := sessionSpan(se).Seconds()
		secs[name] += d
		caseName := "session " + se.ID
		if se.Source != "" {
			caseName += " (" + se.Source + ")"
		}
		c := junitCase{Name: caseName, Classname: se.Dialect + ".session", Time: seconds(d),
			SystemOut: cdata(nonStrictDetail(se.Verdict, se.Findings, inSession) + wireLog(se.Frames))}
		s.add(&c, se.Verdict, sessionReason(se, inSession), xmlSafe(sessionDetail(se, inSession)), "")
		s.Cases = append(s.Cases, c)
	}
	for _, c := range replayCases(r) {
		s := suite(replaySuite)
		secs[replaySuite] += c.secs
		s.add(&c.junitCase, c.verdict, c.message, c.detail, "")
		s.Cases = append(s.Cases, c.junitCase)
	}
	for _, rs := range rootCauseSuites(r) {
		s := suite(rs.name)
		for _, c := range rs.cases {
			s.add(&c.junitCase, c.verdict, c.message, c.detail, c.baselined)
			if c.Failure != nil {
				c.Failure.Type = "root cause"
			}
			s.Cases = append(s.Cases, c.junitCase)
		}
	}
	for _, c := range requirementCases(r) {
		s := suite(c.suite)
		s.Tests++
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Skipped != nil:
			s.Skipped++
		}
		s.Cases = append(s.Cases, c.junitCase)
	}
	if len(r.Errors) > 0 {
		s := suite("wsconform")
		c := junitCase{Name: "harness", Classname: "wsconform.harness", Time: "0"}
		s.add(&c, Error, r.Errors[0], xmlSafe(strings.Join(r.Errors, "\n")+"\n"), "")
		s.Cases = append(s.Cases, c)
	}
	sort.Strings(order)
	for _, name := range order {
		s := bySuite[name]
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
		s.Time = seconds(secs[name])
		out.Suites = append(out.Suites, *s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// sessionReason is the first error finding of a session, or its first
// finding.
func sessionReason(se Session, judged func(Finding) bool) string {
	first := ""
	for _, f := range se.Findings {
		if !judged(f) {
			continue
		}
		if f.Severity == check.Error {
			return f.Rule + ": " + f.Message
		}
		if first == "" {
			first = f.Rule + ": " + f.Message
		}
	}
	return first
}

// sessionSpan is how long a session lasted: its first connection's opening
// to its last close (or last kept frame).
func sessionSpan(se Session) time.Duration {
	t0 := start(se.Frames, se.Conns)
	var t1 time.Time
	late := func(t time.Time) {
		if t.After(t1) {
			t1 = t
		}
	}
	for _, c := range se.Conns {
		late(c.Closed)
	}
	for _, f := range se.Frames {
		late(f.Time)
	}
	if t0.IsZero() || t1.Before(t0) {
		return 0
	}
	return t1.Sub(t0)
}

// observationNote says, in a passing case's system-out, what an
// observation observed: the spec leaves it open, so it is no failure.
func observationNote(sc Scenario) string {
	if sc.Verdict != Observation {
		return ""
	}
	note := "Observation (the spec does not say; reported, never judged): " + sc.Reason + "\n"
	if q := sc.Primary; q != nil {
		note += fmt.Sprintf("Requirement %s (%s %s) %s: %s\n", q.ID, q.Evidence, q.Level, q.Section, q.Quote)
		if q.Reading != "" {
			note += "Our reading: " + q.Reading + "\n"
		}
	}
	return note + "\n"
}

// nonStrictDetail lists the findings of a case that passed non-strict, for
// system-out: a passing case has no failure body to carry them.
func nonStrictDetail(v Verdict, fs []Finding, judged func(Finding) bool) string {
	if v != NonStrict {
		return ""
	}
	d := findingsDetail(fs, judged)
	if d == "" {
		return ""
	}
	return "Findings (non-strict):" + d + "\nWire log:\n"
}

// add counts a case and attaches its outcome. A baselined failure is
// reported as skipped with the baseline's reason, so CI viewers stay green
// for known failures while still showing them.
func (s *junitSuite) add(c *junitCase, v Verdict, reason, detail, baselined string) {
	s.Tests++
	switch {
	case v == Failed && baselined != "":
		s.Skipped++
		c.Skipped = &junitProblem{Message: "known failure (baseline): " + baselined, Body: detail}
	case v == Failed:
		s.Failures++
		c.Failure = &junitProblem{Message: oneLine(reason), Type: "failed", Body: detail}
	case v == Flaky: // runs disagreed: a failure CI should see, typed apart
		s.Failures++
		c.Failure = &junitProblem{Message: oneLine(reason), Type: "flaky", Body: detail}
	case v == Error:
		s.Errors++
		c.Error = &junitProblem{Message: oneLine(reason), Type: "error", Body: detail}
	case v == Inconclusive: // the target's environment could not do it
		s.Skipped++
		c.Skipped = &junitProblem{Message: "inconclusive: " + oneLine(reason), Body: detail}
	case v == Skipped:
		s.Skipped++
		c.Skipped = &junitProblem{Message: oneLine(reason)}
	case v == NotRun: // the user stopped the run first: neither pass nor fail
		s.Skipped++
		c.Skipped = &junitProblem{Message: "not run: " + oneLine(reason), Body: detail}
	}
}

func scenarioDetail(sc Scenario, judged func(Finding) bool) string {
	var b strings.Builder
	if sc.Reason != "" {
		fmt.Fprintf(&b, "%s\n\n", sc.Reason)
	}
	if sc.Requirement != "" {
		fmt.Fprintf(&b, "Requirement: %s\n\n", sc.Requirement)
	}
	for _, st := range sc.Steps {
		fmt.Fprintf(&b, "%-8s %s %s\n", st.Status, st.Keyword, st.Text)
		if st.Error != "" {
			fmt.Fprintf(&b, "         %s\n", st.Error)
		}
		if st.Expected != "" || st.Actual != "" {
			fmt.Fprintf(&b, "         expected: %s\n         actual:   %s\n", st.Expected, st.Actual)
		}
	}
	b.WriteString(findingsDetail(sc.Findings, judged))
	b.WriteString(framesDetail(sc.Frames))
	if sc.Rerun != "" {
		fmt.Fprintf(&b, "\nRe-run: %s\n", sc.Rerun)
	}
	return b.String()
}

func sessionDetail(se Session, judged func(Finding) bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s (%s", se.ID, se.Dialect)
	if se.Source != "" {
		fmt.Fprintf(&b, ", from %s", se.Source)
	}
	fmt.Fprintf(&b, "): %d connections, %d frames\n", len(se.Conns), se.FramesTotal)
	for _, c := range se.Conns {
		fmt.Fprintf(&b, "  %s %s", c.ID, c.URL)
		if c.Parent != "" {
			fmt.Fprintf(&b, " (reconnects %s)", c.Parent)
		}
		if c.CloseCode != 0 {
			fmt.Fprintf(&b, " closed %d", c.CloseCode)
		}
		if c.CloseReason != "" {
			fmt.Fprintf(&b, " %q", c.CloseReason)
		}
		if c.CloseBy != "" {
			fmt.Fprintf(&b, " by %s", c.CloseBy)
		}
		b.WriteString("\n")
	}
	b.WriteString(findingsDetail(se.Findings, judged))
	b.WriteString(framesDetail(se.Frames))
	return b.String()
}

// findingsDetail lists the findings that decide the verdict (see
// Report.Judged) with expected vs actual and diff.
func findingsDetail(fs []Finding, judged func(Finding) bool) string {
	var b strings.Builder
	for _, f := range fs {
		if !judged(f) {
			continue
		}
		fmt.Fprintf(&b, "\n%s %s (frame %d", f.Severity, f.Rule, f.Frame)
		if f.Conn != "" {
			fmt.Fprintf(&b, " on %s", f.Conn)
		}
		fmt.Fprintf(&b, ", %s): %s\n", f.Spec, f.Message)
		if f.Pointer != "" {
			fmt.Fprintf(&b, "  at:       %s\n", f.Pointer)
		}
		if f.Expected != "" || f.Actual != "" {
			fmt.Fprintf(&b, "  expected: %s\n  actual:   %s\n", f.Expected, f.Actual)
		}
		if f.Diff != "" {
			fmt.Fprintf(&b, "  diff:\n    %s\n", strings.ReplaceAll(f.Diff, "\n", "\n    "))
		}
	}
	return b.String()
}

func framesDetail(frames []Frame) string {
	if len(frames) == 0 {
		return ""
	}
	from := max(0, len(frames)-lastFrames)
	return fmt.Sprintf("\nLast %d frames:\n%s", len(frames)-from, wireLog(frames[from:]))
}

// wireLog renders frames one a line: index, time, connection, direction,
// type, payload.
func wireLog(frames []Frame) string {
	var b strings.Builder
	for _, f := range frames {
		arrow := f.Dir.Arrow()
		payload := f.Payload
		if f.Op == "close" {
			payload = fmt.Sprintf("close %d %s", f.CloseCode, payload)
		}
		if len(payload) > 2000 {
			payload = payload[:2000] + "…"
		}
		fmt.Fprintf(&b, "#%d %s %s %s %s\n", f.Index, f.Time.Format("15:04:05.000"), f.Conn, arrow, payload)
	}
	return b.String()
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return xmlSafe(s)
}

func cdata(s string) *junitText {
	if s == "" {
		return nil
	}
	return &junitText{Text: xmlSafe(s)}
}

// xmlSafe replaces what XML 1.0 cannot carry even in CDATA (control
// characters a malformed frame may hold) with U+FFFD.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r == 0xFFFE, r == 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			return '\uFFFD'
		}
		return r
	}, s)
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }
