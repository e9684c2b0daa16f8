package check

import (
	"encoding/json"
	"fmt"

	"github.com/wsconform/wsconform/internal/wire"
)

// Severity ranks a finding. Error is a broken MUST; Warning is a SHOULD, a
// spec ambiguity, or something the checker could not verify; Info is context.
type Severity int

// Severities in increasing order, so a >= Warning reads naturally.
const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalText writes the severity by name in JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "info":
		*s = Info
	case "warning":
		*s = Warning
	case "error":
		*s = Error
	default:
		return fmt.Errorf("unknown severity %q", b)
	}
	return nil
}

// Finding is one rule firing on one frame. Expected and Actual are what a
// reader needs to fix the peer; Diff is set by replay rules.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// Evidence is what the spec gives for the rule (stated, shown,
	// interpretation); Quote the words the finding rests on.
	Evidence Evidence `json:"evidence,omitempty"`
	Spec     string   `json:"spec,omitempty"`
	Quote    string   `json:"quote,omitempty"`
	// Requires names the requirement registry entries the finding's rule
	// checks (Rule.Requires), for reports to show.
	Requires []string `json:"requires,omitempty"`
	Message  string   `json:"message"`
	Type     string   `json:"type,omitempty"`
	Pointer  string   `json:"pointer,omitempty"`
	Expected string   `json:"expected,omitempty"`
	Actual   string   `json:"actual,omitempty"`
	Diff     string   `json:"diff,omitempty"`
	Conn     string   `json:"conn,omitempty"`
	// Dir is the direction of the offending frame: a c2s finding blames
	// the client, an s2c finding the server.
	Dir   wire.Direction `json:"dir,omitempty"`
	Frame int64          `json:"frame"`
	// Related lists other frames the finding is about, such as the original
	// of an altered replay.
	Related []int64 `json:"related,omitempty"`
	// HTTP says the finding is about an HTTP exchange of the protocol
	// (Session.ObserveHTTP): Conn names the exchange and Frame is its
	// index, numbered with the frames.
	HTTP bool `json:"http,omitempty"`
}

func (f Finding) String() string {
	s := fmt.Sprintf("%s %s: %s", f.Severity, f.Rule, f.Message)
	if f.Expected != "" || f.Actual != "" {
		s += fmt.Sprintf(" (expected %s, actual %s)", f.Expected, f.Actual)
	}
	return s
}

// Worst returns the highest severity among findings, and false when there
// are none.
func Worst(fs []Finding) (Severity, bool) {
	if len(fs) == 0 {
		return Info, false
	}
	w := Info
	for _, f := range fs {
		if f.Severity > w {
			w = f.Severity
		}
	}
	return w, true
}

// short renders a decoded value for Expected/Actual, bounded so that a
// 10 MB field never ends up in a console line.
func short(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const max = 120
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// related lists a frame a finding compares with, or none (0: no frame).
func related(frame int64) []int64 {
	if frame == 0 {
		return nil
	}
	return []int64{frame}
}
