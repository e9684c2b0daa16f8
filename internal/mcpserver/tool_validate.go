package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/reports"
)

// validateArgs are validate_recording's arguments.
type validateArgs struct {
	Path        string `json:"path" jsonschema:"path of a recording (.jsonl from wsproxy --record) or a HAR file, under the server's roots; relative to the first root"`
	Dialect     string `json:"dialect,omitempty" jsonschema:"minicodex, hostd, myagent, mitto or coworker; absent or auto: from the recording"`
	OneSession  bool   `json:"one_session,omitempty" jsonschema:"judge all connections of the file as one logical session"`
	MaxProblems int    `json:"max_problems,omitempty" jsonschema:"most distinct problems to return, 1 to 500 (default 50)"`
}

func (a *validateArgs) check() error {
	if err := checkDialect(a.Dialect, "auto"); err != nil {
		return err
	}
	return inRange("max_problems", a.MaxProblems, 1, 500)
}

// checkDialect accepts "", a known dialect, or one of extra.
func checkDialect(name string, extra ...string) error {
	if name == "" || dialect.Known(name) {
		return nil
	}
	for _, e := range extra {
		if name == e {
			return nil
		}
	}
	return fmt.Errorf("argument \"dialect\": unknown dialect %q (known: %s)", name, strings.Join(dialect.Names(), ", "))
}

// validateResult is what validate_recording returns.
type validateResult struct {
	Path          string    `json:"path"`
	Source        string    `json:"source" jsonschema:"jsonl (a wsconform recording) or har"`
	Dialect       string    `json:"dialect"`
	DialectReason string    `json:"dialect_reason"`
	Verdict       string    `json:"verdict" jsonschema:"passed, non-strict (warnings only) or failed (a stated requirement broken)"`
	Sessions      int       `json:"sessions"`
	Connections   int       `json:"connections"`
	Frames        int       `json:"frames"`
	Counts        counts    `json:"counts"`
	Problems      []Problem `json:"problems"`
	// MoreProblems counts the distinct problems left out by max_problems.
	MoreProblems int      `json:"more_problems,omitempty"`
	Unreadable   []string `json:"unreadable,omitempty" jsonschema:"parts of the file that could not be read"`
	Notes        []string `json:"notes,omitempty"`
}

// validateRecording judges a file with validate.File, as `wsconform
// validate` does, and groups its findings into distinct problems,
// redacted as the command's --json is.
func (s *Server) validateRecording(ctx context.Context, a validateArgs) (validateResult, error) {
	path, err := s.openPath("path", a.Path)
	if err != nil {
		return validateResult{}, err
	}
	res, err := validate.File(ctx, path, validate.Options{Dialect: orAuto(a.Dialect), OneSession: a.OneSession,
		Check: check.Options{Limits: check.DefaultLimits}})
	if err != nil {
		return validateResult{}, fileError(a.Path, err)
	}
	out := validateResult{Path: a.Path, Source: string(res.Source), Dialect: res.Dialect, DialectReason: res.DialectReason,
		Sessions: res.Sessions, Connections: res.Conns, Frames: res.Frames, Notes: res.Notes}
	fs := make([]reports.Finding, 0, len(res.Findings))
	for _, f := range res.Findings {
		out.Counts.add(f.Severity)
		fs = append(fs, reports.Finding{Finding: reports.RedactFinding(f.Finding), Session: f.Session})
	}
	for _, p := range res.Problems {
		out.Unreadable = append(out.Unreadable, p.String())
	}
	out.Verdict = verdictOf(out.Counts)
	out.Problems, out.MoreProblems = problems(fs, orDefault(a.MaxProblems, 50))
	return out, nil
}

// fileError says what kind of file trouble stopped a tool.
func fileError(path string, err error) error {
	switch {
	case errors.Is(err, validate.ErrNoDialect):
		return fmt.Errorf("%s: %w; name it with the dialect argument (%s)", path, err, strings.Join(dialect.Names(), ", "))
	case errors.Is(err, validate.ErrNoFrames):
		return fmt.Errorf("%s: %w: it is empty or not a recording or HAR file", path, err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

func orAuto(d string) string {
	if d == "" {
		return "auto"
	}
	return d
}
