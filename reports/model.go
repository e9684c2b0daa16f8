package reports

import (
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// Format and Version identify the JSON form of a Report, so that tools
// reading it can tell when its shape changes.
const (
	Format  = "wsconform-report"
	Version = 1
)

// Kinds of report: who fed it.
const (
	KindRun      = "run"
	KindProxy    = "proxy"
	KindValidate = "validate"
	// KindGate is a `wsconform gate` report: the proxy's sessions, judged on
	// the client's frames only, and scenarios for the command's outcome.
	KindGate = "gate"
)

// Judged reports whether a finding of a scenario (inScenario) or a session
// decides its verdict. In a run, findings on the frames a scenario sent
// itself (its own, often deliberately invalid, input) do not; in a gate,
// findings on the reference server's frames do not, since the client is
// judged.
func (r *Report) Judged(f Finding, inScenario bool) bool { return Judged(r.Kind, f, inScenario) }

// Judged is (*Report).Judged for a report of kind being built: the one
// place that says which side is on trial, used by the runner and the gate
// for their verdicts and by the writers to show them.
func Judged(kind string, f Finding, inScenario bool) bool {
	switch {
	case inScenario:
		return f.Dir != wire.ClientToServer
	case kind == KindGate:
		return f.Dir != wire.ServerToClient
	}
	return true
}

// Verdict is the outcome of a scenario, a session or a whole report.
type Verdict string

// The verdicts of DESIGN.md, from best to worst (see Rank).
const (
	Passed Verdict = "passed"
	// Observation: the scenario checked only what the spec leaves open (an
	// interpretation, a MAY) and the target did otherwise; it is reported
	// ("the spec does not say; this server: …") but never judged: it
	// counts as a pass for the exit code and the report's verdict.
	Observation Verdict = "observation"
	NonStrict   Verdict = "non-strict"
	Skipped     Verdict = "skipped"
	// Inconclusive: the target could not do what the scenario needs for
	// reasons of its environment (no model key, a flow that needs a
	// person); the reason quotes the server's own message.
	Inconclusive Verdict = "inconclusive"
	// Flaky: runs of the same scenario (--repeat) disagreed; the reason
	// lists the outcomes.
	Flaky  Verdict = "flaky"
	Failed Verdict = "failed"
	Error  Verdict = "error"
	// NotRun: the user stopped the run (Ctrl-C, SIGTERM) before the
	// scenario finished: it had not started, or it was stopped while it
	// ran. It proves nothing either way; its steps show how far it got.
	NotRun Verdict = "not-run"
)

// Verdicts lists every verdict in display order.
var Verdicts = []Verdict{Passed, Observation, NonStrict, Failed, Flaky, Inconclusive, Skipped, NotRun, Error}

// Rank orders verdicts for "the worst of": an error outranks a failure
// because a harness that failed says nothing about the target; flaky is
// below failed (it passed at least once) and above non-strict. Not-run is
// above non-strict, so that an interrupted run never reads as a pass, and
// below flaky and failed, which say something about the target. An
// observation is just above passed: it says something, but judges nothing.
func (v Verdict) Rank() int {
	switch v {
	case Passed:
		return 0
	case Observation:
		return 1
	case Skipped:
		return 2
	case Inconclusive:
		return 3
	case NonStrict:
		return 4
	case NotRun:
		return 5
	case Flaky:
		return 6
	case Failed:
		return 7
	case Error:
		return 8
	}
	return 0
}

// Worst returns the worse of two verdicts.
func Worst(a, b Verdict) Verdict {
	if b.Rank() > a.Rank() {
		return b
	}
	return a
}

// FromFindings is the verdict findings alone give: an error finding fails,
// a warning makes it non-strict.
func FromFindings(fs []check.Finding) Verdict {
	w, ok := check.Worst(fs)
	switch {
	case !ok:
		return Passed
	case w >= check.Error:
		return Failed
	case w >= check.Warning:
		return NonStrict
	}
	return Passed
}

// checkFindings unwraps report findings for check.Worst.
func checkFindings(fs []Finding) []check.Finding {
	out := make([]check.Finding, len(fs))
	for i, f := range fs {
		out[i] = f.Finding
	}
	return out
}

// Report is everything a writer needs. Its JSON form is the --json output.
type Report struct {
	Format   string    `json:"format"`
	Version  int       `json:"version"`
	Kind     string    `json:"kind"`
	Tool     string    `json:"tool"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Verdict is the worst verdict of the report, after baselines.
	Verdict  Verdict         `json:"verdict"`
	Counts   map[Verdict]int `json:"counts"`
	Dialects []string        `json:"dialects"`
	Targets  []Target        `json:"targets"`
	// Command is how the report was produced, for reproducing it.
	Command   string     `json:"command,omitempty"`
	Scenarios []Scenario `json:"scenarios,omitempty"`
	Sessions  []Session  `json:"sessions,omitempty"`
	// Replays are the per-connection comparisons of a replay with its
	// recording (reports/replay.go); a connection that does not match
	// fails the report (Tally).
	Replays []ReplayDiff `json:"replays,omitempty"`
	// RootCauses are the distinct problems the report's findings show,
	// each listed once (Tally fills it); an error among them fails the
	// report even when every scenario passed.
	RootCauses []RootCause `json:"root_causes,omitempty"`
	// Stale lists baseline entries that did not fail any more.
	Stale []BaselineEntry `json:"stale_baseline,omitempty"`
	// Errors are harness failures: any makes the report's verdict error.
	Errors []string `json:"errors,omitempty"`
	// Notes are what a reader should know that does not change the
	// verdict: skipped malformed lines, frames left out of the wire log.
	Notes []string `json:"notes,omitempty"`
	// Coverage is what the run says of each requirement of its dialects'
	// registries (reports/coverage.go); nil when no registry was read.
	Coverage *Coverage `json:"coverage,omitempty"`
	// Interrupted says that the user stopped the command before it was
	// done ("interrupted by the user after 12 of 40 scenarios"); what it
	// did not finish is not-run (MarkInterrupted).
	Interrupted string `json:"interrupted,omitempty"`
	// Shard is "I/N" for one part of a run split across CI jobs (run
	// --shard); merge puts the parts together (MergeShards).
	Shard string `json:"shard,omitempty"`
}

// Target is one server under test (or the upstream of a proxy).
type Target struct {
	Name string `json:"name"`
	URL  string `json:"url"`
	// Reference is true for the embedded reference server.
	Reference bool `json:"reference,omitempty"`
}

// Scenario is one Gherkin scenario run against one target.
type Scenario struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Feature string   `json:"feature"`
	File    string   `json:"file,omitempty"`
	Line    int      `json:"line,omitempty"`
	Dialect string   `json:"dialect"`
	Target  string   `json:"target"`
	Level   string   `json:"level,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	// Requirement is the spec text the scenario checks (its description).
	Requirement string `json:"requirement,omitempty"`
	// Requirements are the ids of the registry's requirements the scenario
	// cites (@req:ID), its primary one first; Primary is that one, whose
	// evidence and level gave the scenario its level.
	Requirements []string        `json:"requirements,omitempty"`
	Primary      *RequirementRef `json:"primary_requirement,omitempty"`
	Verdict      Verdict         `json:"verdict"`
	Reason       string          `json:"reason,omitempty"`
	Baselined    string          `json:"baselined,omitempty"`
	Duration     time.Duration   `json:"duration_ns"`
	Steps        []Step          `json:"steps"`
	Findings     []Finding       `json:"findings,omitempty"`
	Frames       []Frame         `json:"frames,omitempty"`
	// Rerun is the command line that runs only this scenario again.
	Rerun string `json:"rerun,omitempty"`
}

// Step is one Gherkin step and how it went.
type Step struct {
	Keyword  string        `json:"keyword"`
	Text     string        `json:"text"`
	Status   string        `json:"status"` // passed, failed, skipped, undefined, pending
	Error    string        `json:"error,omitempty"`
	Expected string        `json:"expected,omitempty"`
	Actual   string        `json:"actual,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

// Finding is a check finding with where it was made.
type Finding struct {
	check.Finding
	Session string `json:"session,omitempty"`
	// Background marks a scenario's finding on a frame none of its steps
	// was about: it does not decide the scenario's verdict but joins the
	// report's root causes.
	Background bool `json:"background,omitempty"`
}

// Frame is one frame of a wire log. Payload is the text as is, or base64
// for binary payloads (Binary set); large payloads are cut (Truncated set).
type Frame struct {
	Index     int64          `json:"index"`
	Time      time.Time      `json:"time"`
	Conn      string         `json:"conn"`
	Dir       wire.Direction `json:"dir"`
	Op        string         `json:"op"`
	Type      string         `json:"type,omitempty"`
	Seq       string         `json:"seq,omitempty"`
	Size      int            `json:"size"`
	Payload   string         `json:"payload"`
	Binary    bool           `json:"binary,omitempty"`
	Truncated bool           `json:"truncated,omitempty"`
	CloseCode int            `json:"close_code,omitempty"`
}

// Session is one logical session seen by the proxy or in a recording: its
// connections (with reconnect lineage), findings and wire log.
type Session struct {
	ID      string `json:"id"`
	Dialect string `json:"dialect"`
	Reason  string `json:"dialect_reason,omitempty"`
	// Source is where the session was read from (a recording's path), for
	// a validate report of several files.
	Source   string       `json:"source,omitempty"`
	Verdict  Verdict      `json:"verdict"`
	Conns    []Connection `json:"connections"`
	Findings []Finding    `json:"findings,omitempty"`
	Frames   []Frame      `json:"frames,omitempty"`
	// FramesTotal counts every frame, also those not kept in Frames.
	FramesTotal int64 `json:"frames_total"`
}

// Connection is one WebSocket connection of a session.
type Connection struct {
	ID     string    `json:"id"`
	Parent string    `json:"parent,omitempty"`
	URL    string    `json:"url"`
	Opened time.Time `json:"opened"`
	Closed time.Time `json:"closed,omitzero"`
	// CloseCode and CloseBy say how it ended (1006 when no close frame).
	CloseCode   int    `json:"close_code,omitempty"`
	CloseReason string `json:"close_reason,omitempty"`
	CloseBy     string `json:"close_by,omitempty"`
	Frames      int64  `json:"frames"`
}

// BaselineEntry is a known failure: a scenario id (optionally per target)
// and why it is accepted.
type BaselineEntry struct {
	ID     string `json:"id"`
	Target string `json:"target,omitempty"`
	Reason string `json:"reason"`
}

// New starts a report of kind.
func New(kind, tool string, started time.Time) *Report {
	return &Report{Format: Format, Version: Version, Kind: kind, Tool: tool,
		Started: started, Counts: map[Verdict]int{}, Verdict: Passed}
}

// Tally recomputes Counts and Verdict from the scenarios and sessions. A
// baselined failure counts as failed but does not fail the report.
func (r *Report) Tally() {
	r.Counts = map[Verdict]int{}
	r.Verdict = Passed
	add := func(v Verdict, baselined bool) {
		r.Counts[v]++
		if !baselined {
			r.Verdict = Worst(r.Verdict, v)
		}
	}
	for _, s := range r.Scenarios {
		add(s.Verdict, s.Baselined != "" && s.Verdict == Failed)
	}
	for _, s := range r.Sessions {
		add(s.Verdict, false)
	}
	for _, d := range r.Replays {
		if !d.Matched {
			r.Verdict = Worst(r.Verdict, Failed)
		}
	}
	r.RootCauses = r.groupRootCauses()
	for _, rc := range r.RootCauses {
		if rc.Background { // no scenario's verdict carries it
			r.Verdict = Worst(r.Verdict, rc.Verdict())
		}
	}
	if len(r.Errors) > 0 {
		r.Verdict = Error
	}
	if r.Verdict == Skipped || r.Verdict == Observation {
		// not applicable is not a fault, nor is doing what the spec leaves
		// open; the counts say what did not run and what was observed
		r.Verdict = Passed
	}
}
