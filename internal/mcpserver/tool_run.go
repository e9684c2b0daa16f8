package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/reports"
)

// runArgs are run_scenarios' arguments.
type runArgs struct {
	Target       string   `json:"target,omitempty" jsonschema:"the server: a ws:// URL on loopback (its endpoint, or the base URL of a dialect with several); absent: the embedded reference server"`
	Dialect      string   `json:"dialect" jsonschema:"the target's dialect: minicodex, hostd, myagent, mitto or coworker"`
	Tags         string   `json:"tags,omitempty" jsonschema:"a tag expression selecting scenarios: '@id:minicodex.resume.from-start', '@req:minicodex.handshake.reply', '@must && ~@scripted'"`
	Section      string   `json:"section,omitempty" jsonschema:"only scenarios whose primary requirement's spec section contains this text"`
	Mutate       []string `json:"mutate,omitempty" jsonschema:"reference server only: deliberate violations it commits (wsconform serve --list-mutations), to see what a fault looks like"`
	Scripted     bool     `json:"scripted,omitempty" jsonschema:"also run @scripted scenarios against a target: it follows the test-mode hints"`
	MaxScenarios int      `json:"max_scenarios,omitempty" jsonschema:"refuse to run more scenarios than this, 1 to 500 (default 50): narrow with tags"`
}

func (a *runArgs) check() error {
	if a.Dialect == "" {
		return fmt.Errorf("argument \"dialect\": name the target's dialect")
	}
	if err := checkDialect(a.Dialect); err != nil {
		return err
	}
	if len(a.Mutate) > 0 && a.Target != "" {
		return fmt.Errorf("argument \"mutate\": mutations apply to the embedded reference server, not to a target")
	}
	if len(a.Mutate) > 20 {
		return fmt.Errorf("argument \"mutate\": at most 20 mutations")
	}
	return inRange("max_scenarios", a.MaxScenarios, 1, 500)
}

// runScenario is one scenario's outcome.
type runScenario struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Verdict      string   `json:"verdict" jsonschema:"passed, non-strict, observation, failed, inconclusive, flaky, skipped, error or not-run"`
	Reason       string   `json:"reason,omitempty" jsonschema:"why: the failed step, the server's words, the skip reason"`
	Level        string   `json:"level,omitempty"`
	Requirements []string `json:"requirements,omitempty"`
	FailedStep   string   `json:"failed_step,omitempty"`
	Expected     string   `json:"expected,omitempty"`
	Actual       string   `json:"actual,omitempty"`
}

// runResult is what run_scenarios returns.
type runResult struct {
	Target    string         `json:"target"`
	Dialect   string         `json:"dialect"`
	Verdict   string         `json:"verdict" jsonschema:"the run's worst verdict"`
	Counts    map[string]int `json:"counts" jsonschema:"scenarios per verdict"`
	Scenarios []runScenario  `json:"scenarios"`
	Problems  []Problem      `json:"problems" jsonschema:"distinct problems in the target's frames, each once"`
	Notes     []string       `json:"notes,omitempty"`
}

// runScenarios runs the selected scenarios as `wsconform run` does.
func (s *Server) runScenarios(ctx context.Context, a runArgs) (runResult, error) {
	opts := runner.Options{Dialects: []string{a.Dialect}, Tags: a.Tags, Section: a.Section, Scripted: a.Scripted,
		Headers: http.Header{}, Vars: map[string]string{}, Timeouts: runner.DefaultTimeouts}
	if a.Target != "" {
		if _, err := s.checkURL("target", a.Target, "ws", "wss"); err != nil {
			return runResult{}, err
		}
		u, err := runner.ParseTargetURL(a.Target)
		if err != nil {
			return runResult{}, fmt.Errorf("argument \"target\": %w", err)
		}
		opts.Targets = []runner.Target{{Name: u.Host, URL: u.String()}}
	}
	cat, err := runner.Load(opts)
	if err != nil {
		return runResult{}, fmt.Errorf("argument \"tags\": %w", err)
	}
	limit := orDefault(a.MaxScenarios, 50)
	switch {
	case len(cat.Cases) == 0:
		return runResult{}, fmt.Errorf("no scenario of %s matches tags %q and section %q; explain a requirement to find its scenarios", a.Dialect, a.Tags, a.Section)
	case len(cat.Cases) > limit:
		return runResult{}, fmt.Errorf("%d scenarios match, more than max_scenarios %d: narrow them with tags (@req:ID, @id:ID) or raise max_scenarios", len(cat.Cases), limit)
	}
	if a.Target == "" {
		srv, t, err := runner.StartReference(ctx, opts.Dialects, a.Mutate)
		if err != nil {
			return runResult{}, err
		}
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		}()
		opts.Targets = []runner.Target{t}
		opts.Vars = runner.ReferenceVars()
	}
	started := time.Now()
	results, err := runner.Run(ctx, opts)
	if err != nil {
		return runResult{}, err
	}
	rep := reports.New(reports.KindRun, s.cfg.Version, started)
	rep.Finished, rep.Scenarios = time.Now(), results
	if ctx.Err() != nil {
		rep.MarkInterrupted("the call's time limit")
	}
	rep.Tally()
	rep = reports.Redact(rep)
	out := runResult{Target: opts.Targets[0].URL, Dialect: a.Dialect, Verdict: string(rep.Verdict), Counts: map[string]int{},
		Scenarios: []runScenario{}, Notes: rep.Notes}
	if opts.Targets[0].Reference {
		out.Target = "the embedded reference server (" + opts.Targets[0].URL + ")"
	}
	var all []reports.Finding
	for _, sc := range rep.Scenarios {
		out.Counts[string(sc.Verdict)]++
		rs := runScenario{ID: sc.ID, Name: sc.Name, Verdict: string(sc.Verdict), Reason: sc.Reason, Level: sc.Level, Requirements: sc.Requirements}
		for _, st := range sc.Steps {
			if st.Status == "failed" {
				rs.FailedStep, rs.Expected, rs.Actual = st.Text, st.Expected, st.Actual
				break
			}
		}
		out.Scenarios = append(out.Scenarios, rs)
		for _, f := range sc.Findings {
			if f.Session == "" {
				f.Session = sc.ID
			}
			all = append(all, f)
		}
	}
	out.Problems, _ = problems(all, 50)
	return out, nil
}
