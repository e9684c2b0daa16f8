package reports

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"
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

// WriteJUnit writes the report as JUnit XML: one testsuite per dialect and
// target (or one for the sessions of a proxy or validate report), the
// failure detail (expected vs actual, findings, the last frames) in the
// failure body and the wire log in system-out.
func WriteJUnit(w io.Writer, r *Report) error {
	out := junitSuites{Name: "wsconform " + r.Kind, Time: seconds(r.Finished.Sub(r.Started).Seconds())}
	bySuite := map[string]*junitSuite{}
	var order []string
	suite := func(name string) *junitSuite {
		if s, ok := bySuite[name]; ok {
			return s
		}
		bySuite[name] = &junitSuite{Name: name, Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05")}
		order = append(order, name)
		return bySuite[name]
	}
	for _, sc := range r.Scenarios {
		name := sc.Dialect
		if len(r.Targets) > 1 {
			name += " @ " + sc.Target
		}
		s := suite(name)
		c := junitCase{Name: sc.ID + ": " + sc.Name, Classname: sc.Dialect + "." + strings.TrimSuffix(baseName(sc.File), ".feature"),
			Time: seconds(sc.Duration.Seconds()), SystemOut: cdata(wireLog(sc.Frames))}
		s.add(&c, sc.Verdict, sc.Reason, xmlSafe(scenarioDetail(sc)), sc.Baselined)
		s.Cases = append(s.Cases, c)
	}
	for _, se := range r.Sessions {
		s := suite("sessions " + se.Dialect)
		c := junitCase{Name: "session " + se.ID, Classname: se.Dialect + ".session", Time: "0", SystemOut: cdata(wireLog(se.Frames))}
		reason := ""
		if len(se.Findings) > 0 {
			reason = se.Findings[0].Rule + ": " + se.Findings[0].Message
		}
		s.add(&c, se.Verdict, reason, xmlSafe(findingsDetail(se.Findings)+framesDetail(se.Frames)), "")
		s.Cases = append(s.Cases, c)
	}
	sort.Strings(order)
	for _, name := range order {
		s := bySuite[name]
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
		s.Time = "0"
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
	case v == Error:
		s.Errors++
		c.Error = &junitProblem{Message: oneLine(reason), Type: "error", Body: detail}
	case v == Skipped:
		s.Skipped++
		c.Skipped = &junitProblem{Message: oneLine(reason)}
	}
}

func scenarioDetail(sc Scenario) string {
	var b strings.Builder
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
	b.WriteString(findingsDetail(sc.Findings))
	b.WriteString(framesDetail(sc.Frames))
	if sc.Rerun != "" {
		fmt.Fprintf(&b, "\nRe-run: %s\n", sc.Rerun)
	}
	return b.String()
}

func findingsDetail(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		if f.Dir == "c2s" {
			continue
		}
		fmt.Fprintf(&b, "\n%s %s (frame %d, %s): %s\n", f.Severity, f.Rule, f.Frame, f.Spec, f.Message)
		if f.Expected != "" || f.Actual != "" {
			fmt.Fprintf(&b, "  expected: %s\n  actual:   %s\n", f.Expected, f.Actual)
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
		arrow := "→"
		if f.Dir == "s2c" {
			arrow = "←"
		}
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
