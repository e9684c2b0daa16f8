package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wsconform/wsconform/reports"
)

// reportScheme prefixes the URI of a report resource (a --json report of
// run, validate, replay, gate or wsproxy); the rest is its absolute path.
const reportScheme = "wsconform://report"

// maxReportScenarios bounds the scenarios a report summary lists.
const maxReportScenarios = 100

// reportSummary is what a report resource reads as: the verdict and what
// decided it, not the wire logs.
type reportSummary struct {
	Path      string         `json:"path"`
	Kind      string         `json:"kind"`
	Tool      string         `json:"tool"`
	Command   string         `json:"command,omitempty"`
	Verdict   string         `json:"verdict"`
	Counts    map[string]int `json:"counts"`
	Dialects  []string       `json:"dialects,omitempty"`
	Targets   []string       `json:"targets,omitempty"`
	Scenarios []runScenario  `json:"scenarios,omitempty"`
	// MoreScenarios counts the scenarios left out: passed ones, and any
	// beyond maxReportScenarios.
	MoreScenarios int       `json:"more_scenarios,omitempty"`
	Problems      []Problem `json:"problems"`
	Errors        []string  `json:"errors,omitempty"`
	Notes         []string  `json:"notes,omitempty"`
}

// isReport says whether a .json file is a wsconform report, by its first
// bytes: the format member comes first in every report written.
func isReport(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(`"`+reports.Format+`"`))
}

func reportURI(abs string) string {
	return reportScheme + (&url.URL{Path: filepath.ToSlash(abs)}).EscapedPath()
}

// readReport serves a report resource, its path checked as a tool's path
// argument is.
func (s *Server) readReport(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rest, ok := strings.CutPrefix(uri, reportScheme)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	p, err := url.PathUnescape(rest)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	path, err := s.openPath("uri", filepath.FromSlash(p))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", p, err)
	}
	defer f.Close()
	rep, err := reports.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	b, err := json.Marshal(summarize(p, reports.Redact(rep)))
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

// summarize keeps what decided a report's verdict: the scenarios that
// did not pass and the root causes, each with the requirements its rule
// checks.
func summarize(path string, rep *reports.Report) reportSummary {
	out := reportSummary{Path: path, Kind: rep.Kind, Tool: rep.Tool, Command: rep.Command, Verdict: string(rep.Verdict),
		Counts: map[string]int{}, Dialects: rep.Dialects, Problems: []Problem{}, Errors: rep.Errors, Notes: rep.Notes}
	for v, n := range rep.Counts {
		out.Counts[string(v)] = n
	}
	for _, t := range rep.Targets {
		out.Targets = append(out.Targets, t.Name)
	}
	for _, sc := range rep.Scenarios {
		if sc.Verdict == reports.Passed || len(out.Scenarios) == maxReportScenarios {
			out.MoreScenarios++
			continue
		}
		out.Scenarios = append(out.Scenarios, runScenario{ID: sc.ID, Name: sc.Name, Verdict: string(sc.Verdict), Reason: sc.Reason,
			Level: sc.Level, Requirements: sc.Requirements})
	}
	requires := map[string][]string{}
	for _, r := range catalogue() {
		requires[r.ID] = r.Requires
	}
	for _, rc := range rep.RootCauses {
		if len(out.Problems) == 50 {
			break
		}
		out.Problems = append(out.Problems, Problem{Rule: rc.Rule, Severity: rc.Severity.String(), Evidence: string(rc.Evidence),
			Requirements: requires[rc.Rule], Spec: rc.Spec, Quote: rc.Quote, Message: rc.Message, Type: rc.Type, Pointer: rc.Pointer,
			Dir: string(rc.Dir), Expected: rc.Expected, Actual: rc.Actual, Count: rc.Count, Frames: []int64{rc.First.Frame},
			Sessions: rc.Sessions})
	}
	return out
}
