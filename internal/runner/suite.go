package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/wsconform/wsconform/features"
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/reports"
)

// Options choose what runs against what.
type Options struct {
	// Dialects selects the dialects to run; empty means all.
	Dialects []string
	Targets  []Target
	// Headers go on every handshake and HTTP request (auth, cookies, Origin).
	Headers http.Header
	// Vars are variables every scenario starts with ({user}, {host_token}).
	Vars map[string]string
	// Tags is a godog tag expression ("@must && ~@slow"); it also sees a
	// scenario's derived level as a tag.
	Tags string
	// Section selects the scenarios whose primary requirement's section
	// contains it, ignoring case and a leading § ("load_events").
	Section string
	// Shard runs one part of the selected scenarios (run --shard I/N).
	Shard Shard
	// Scripted runs @scripted scenarios against targets that are not the
	// reference server: the user says the target understands the hints.
	Scripted bool
	// AllowMutations runs @mutates-target scenarios against targets that
	// are not the reference server: the user accepts that they change its
	// stored state (credentials, skills, backups).
	AllowMutations bool
	// Repeat runs every scenario this many times; a scenario whose
	// verdicts differ is flaky. 0 and 1 mean once.
	Repeat int
	// SessionCmd, when set, runs before each scenario (sh -c) and prints
	// the URL to test and optional headers: for servers that create a
	// session over HTTP first or need a fresh cookie.
	SessionCmd string
	// SessionCleanupCmd, when set, runs (sh -c) after each scenario that
	// SessionCmd made a session for, with that session's URL in
	// $WSCONFORM_SESSION_URL and as $1: servers limit how many sessions
	// stay open.
	SessionCleanupCmd string
	// Answer is how clients answer the server's prompts (approvals,
	// confirmations, asks) that a scenario does not answer itself:
	// approve (the default), deny, first or none.
	Answer string
	// Opening, when not nil, replaces every dialect's opening (the
	// messages a real client sends right after connecting, client.json's
	// "opening"); an empty list sends none.
	Opening  []OpeningStep
	Timeouts Timeouts
	// Features replaces the embedded features (--features DIR).
	Features fs.FS
	Insecure bool
	// Concurrency is how many scenarios run at once per target; 0 means
	// DefaultConcurrency, or one where the target URL names a session
	// every scenario would share (sessionurl.go).
	Concurrency int
	// Notice, when set, hears one-line remarks on how the run goes (it
	// runs scenarios one at a time because they share a session).
	Notice func(string)
	// Progress, when set, is called once per scenario as it ends, one call
	// at a time.
	Progress func(reports.Scenario)
	Check    check.Options
}

// run is one call of Run.
type run struct {
	ctx   context.Context
	opts  Options
	cat   *Catalog
	specs map[string]*clientSpec
	mu    sync.Mutex
	out   []reports.Scenario
	// halted holds, per target name, the environment error that stopped
	// it (envstop.go).
	halted   map[string]string
	noticeMu sync.Mutex
}

// scenarioRun is what a World knows about where it runs.
type scenarioRun struct {
	run    *run
	target Target
	c      *Case
}

// Run runs the selected scenarios against every target and returns one
// result per scenario and target. It returns an error only when nothing
// could be run (bad features, bad options); a target that cannot be
// reached gives error verdicts.
func Run(ctx context.Context, opts Options) ([]reports.Scenario, error) {
	if opts.Timeouts == (Timeouts{}) {
		opts.Timeouts = DefaultTimeouts
	}
	if opts.Concurrency < 0 {
		opts.Concurrency = 0
	}
	cat, err := Load(opts)
	if err != nil {
		return nil, err
	}
	progress := opts.Progress
	if opts.Repeat > 1 {
		opts.Progress = nil // one line per scenario, once its runs are merged
	}
	r := &run{ctx: ctx, opts: opts, cat: cat, specs: map[string]*clientSpec{}}
	for _, c := range cat.Cases {
		if _, ok := r.specs[c.Dialect]; !ok {
			if r.specs[c.Dialect], err = loadClientSpec(r.fsys(), c.Dialect); err != nil {
				return nil, err
			}
		}
	}
	for _, t := range opts.Targets {
		r.target(ctx, t) // once ctx ends, what is left is not-run
	}
	if opts.Repeat > 1 {
		r.out = mergeRepeats(r.out)
		for _, s := range r.out {
			if progress != nil && !(s.Verdict == reports.NotRun && s.Reason == NotStarted) {
				progress(s)
			}
		}
	}
	SortResults(r.out, opts.Targets)
	return r.out, nil
}

// Load reads the catalog Options select: the features, the dialects, the tags.
func Load(opts Options) (*Catalog, error) {
	fsys := opts.Features
	if fsys == nil {
		fsys = features.FS
	}
	for _, d := range opts.Dialects {
		if !dialect.Known(d) {
			return nil, fmt.Errorf("unknown dialect %q (known: %s)", d, strings.Join(dialect.Names(), ", "))
		}
	}
	tags := opts.Tags
	if len(opts.Dialects) > 0 {
		tags = joinTags(tags, "@"+strings.Join(opts.Dialects, ",@"))
	}
	cat, err := LoadCatalog(fsys, featurePaths(opts), tags)
	if err != nil {
		return nil, err
	}
	cat.selectSection(opts.Section)
	if opts.Shard.Count > 1 {
		cat.Cases = opts.Shard.pick(cat.Cases) // the registries stay whole: merge needs them
	}
	return cat, nil
}

// featurePaths reads only the folders of the selected dialects from the
// embedded features, so one dialect's features never depend on another's.
// A user's directory is read whole: its layout is the user's.
func featurePaths(opts Options) []string {
	if opts.Features != nil || len(opts.Dialects) == 0 {
		return []string{"."}
	}
	return append([]string(nil), opts.Dialects...)
}

func joinTags(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " && " + b
}

// Why scenarios are skipped against a foreign target, with the flag that
// runs them.
const (
	SkipScripted = reports.NeedsScripted
	SkipMutates  = "changes the target's stored state outside its session (pass --allow-mutations to run it against this target)"
	SkipFixture  = "reads data only the reference server ships (demo skills, commands, back ends); it runs against the reference server only"
)

// SkipReason says why the case does not run against the target with
// these options ("" when it runs): fixtures of the reference server, hints
// the user did not say the target follows, state the user did not allow
// the run to change.
func (c *Case) SkipReason(t Target, opts Options) string {
	switch {
	case t.Reference:
		return ""
	case c.Fixture:
		return SkipFixture
	case c.Scripted && !opts.Scripted:
		return SkipScripted
	case c.MutatesTarget && !opts.AllowMutations:
		return SkipMutates
	}
	return ""
}

// target runs the catalog against one target: the concurrent scenarios,
// then the @serial ones one at a time.
func (r *run) target(ctx context.Context, t Target) {
	var parallel, serial []*Case
	for _, c := range r.cat.Cases {
		switch why := c.SkipReason(t, r.opts); {
		case why != "":
			r.add(skipped(c, t, why))
		case c.Serial:
			serial = append(serial, c)
		default:
			parallel = append(parallel, c)
		}
	}
	if len(parallel)+len(serial) == 0 {
		return
	}
	conc := r.concurrencyFor(t) // said before the pre-check, which may stop the run
	if err := r.preflight(ctx, t, append(parallel, serial...)); err != nil {
		var env *EnvironmentError
		for i, c := range append(parallel, serial...) {
			switch {
			case ctx.Err() != nil:
				r.notRun(c, t)
			case errors.As(err, &env) && i > 0:
				r.add(notRunAfter(c, t, env.Why)) // one error says it
			default:
				r.add(errored(c, t, err.Error()))
			}
		}
		return
	}
	for i := 0; i < max(1, r.opts.Repeat); i++ {
		r.suite(ctx, t, parallel, conc, r.workingFor(t, conc))
		r.suite(ctx, t, serial, 1, 1)
	}
}

// suite runs cases against a target through godog, concurrency at a
// time, working of them outside a window (schedule.go).
func (r *run) suite(ctx context.Context, t Target, cases []*Case, concurrency, working int) {
	if len(cases) == 0 {
		return
	}
	if ctx.Err() != nil {
		for _, c := range cases {
			r.notRun(c, t)
		}
		return
	}
	// the catalog selected the cases (the tags, the derived levels, the
	// section): their ids alone say what runs
	tags := idTags(cases)
	var sched *schedule
	if concurrency > 1 {
		// godog starts them all; the gate lets concurrency of them run,
		// the longest expected first (schedule.go)
		sched = newSchedule(cases, concurrency, working, r.opts)
		concurrency = max(concurrency, r.cat.pickles)
	}
	suite := godog.TestSuite{
		Name: "wsconform",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			r.initScenario(sc, t, sched)
		},
		Options: &godog.Options{
			FS:             r.fsys(),
			Paths:          featurePaths(r.opts),
			Tags:           tags,
			Format:         "progress",
			Output:         io.Discard,
			Concurrency:    concurrency,
			DefaultContext: ctx,
			NoColors:       true,
		},
	}
	suite.Run()
}

// Why a scenario is not-run: the run's context ended (the user stopped
// it) before the scenario started, or while it ran. Either way it proves
// nothing about the target, so it is neither failed nor an error.
const (
	NotStarted = "not started"
	Stopped    = "stopped while it ran"
)

// notRun adds a scenario the run was stopped before; it is not a
// scenario that ended, so Progress does not hear of it.
func (r *run) notRun(c *Case, t Target) {
	s := caseResult(c, t)
	s.Verdict, s.Reason = reports.NotRun, NotStarted
	r.mu.Lock()
	defer r.mu.Unlock()
	r.out = append(r.out, s)
}

func (r *run) fsys() fs.FS {
	if r.opts.Features != nil {
		return r.opts.Features
	}
	return features.FS
}

// idTags selects exactly these cases.
func idTags(cs []*Case) string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = tagID + strings.SplitN(c.ID, "#", 2)[0]
	}
	return strings.Join(ids, ",")
}

func (r *run) add(s reports.Scenario) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.out = append(r.out, s)
	if r.opts.Progress != nil {
		r.opts.Progress(s)
	}
}

// initScenario hooks one scenario: Before waits for its turn (sched, when
// not nil) and makes its World, the step hook records each step, After
// closes its clients and judges it.
func (r *run) initScenario(sc *godog.ScenarioContext, t Target, sched *schedule) {
	register(sc)
	sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
		c, ok := r.cat.byPickle[p.Id]
		if !ok {
			// an example of an outline whose other examples the catalog
			// selected (they share its @id): not part of this run
			if sched != nil {
				sched.gate.absent()
			}
			return ctx, godog.ErrSkip
		}
		if sched != nil {
			// ctx is the scenario's own: godog cancels it once the
			// scenario is over, which gives its place back
			turn, err := sched.gate.enter(ctx, sched.rank[c])
			if err != nil {
				r.notRun(c, t) // stopped while it waited
				return ctx, err
			}
			context.AfterFunc(ctx, turn.leave)
			ctx = context.WithValue(ctx, turnKey{}, turn)
		}
		if err := r.ctx.Err(); err != nil {
			// godog runs every scenario it was given: those it reaches
			// after the run was stopped do nothing (the error skips their
			// steps) and are not-run; no World, so After adds nothing
			r.notRun(c, t)
			return ctx, err
		}
		if why := r.haltedBy(t); why != "" {
			r.add(notRunAfter(c, t, why))
			return ctx, godog.ErrSkip
		}
		w, err := r.newWorld(&scenarioRun{run: r, target: t, c: c})
		ctx = context.WithValue(ctx, worldKey{}, w)
		if err != nil {
			w.setupErr = err
			return ctx, err
		}
		ctx, w.cancel = context.WithTimeout(ctx, w.budget())
		w.started = time.Now()
		return ctx, nil
	})
	sc.StepContext().Before(func(ctx context.Context, st *godog.Step) (context.Context, error) {
		if turn, ok := ctx.Value(turnKey{}).(*ticket); ok {
			// a window gives the working place back; work after it waits
			// for one (schedule.go)
			if listens(st.Text, r.opts.Timeouts) {
				turn.listen()
			} else if err := turn.resume(ctx); err != nil {
				return ctx, err
			}
		}
		if w := worldOf(ctx); w != nil {
			w.stepStart = time.Now()
		}
		return ctx, nil
	})
	sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
		if w := worldOf(ctx); w != nil {
			w.stepDone(st, status, err)
		}
		return ctx, nil
	})
	sc.After(func(ctx context.Context, p *godog.Scenario, err error) (context.Context, error) {
		if w := worldOf(ctx); w != nil {
			r.add(w.finish(err))
		}
		return ctx, nil
	})
}

// newWorld prepares a scenario's state.
func (r *run) newWorld(sc *scenarioRun) (*World, error) {
	d, err := dialect.Get(sc.c.Dialect)
	w := &World{sc: sc, d: d, to: r.opts.Timeouts, vars: map[string]string{}, headers: http.Header{},
		clients: map[string]*client{}, conns: map[string]int{}, lastRef: map[string]string{}, cancel: func() {}, started: time.Now()}
	for _, st := range sc.c.pickle.Steps {
		w.steps = append(w.steps, reports.Step{Keyword: r.cat.keyword(st), Text: st.Text, Status: "skipped"})
		w.stepIDs = append(w.stepIDs, st.Id)
	}
	if err != nil {
		return w, &HarnessError{Err: err}
	}
	w.checker = check.NewSession(d, r.opts.Check)
	w.spec, w.answerPolicy = r.specs[d.Dialect], r.opts.Answer
	if w.answerPolicy == "" {
		w.answerPolicy = AnswerApprove
	}
	for k, v := range r.opts.Vars {
		w.vars[k] = v
	}
	w.vars["unique"] = unique()
	w.vars["scenario"] = sc.c.ID
	for k, vs := range r.opts.Headers {
		w.headers[k] = append([]string(nil), vs...)
	}
	url := sc.target.urlFor(d.Dialect)
	if r.opts.SessionCmd != "" {
		setup, err := runSessionCmd(r.ctx, r.opts.SessionCmd, url, d.Dialect, sc.c.ID)
		if err != nil {
			r.halt(sc.target, err)
			return w, &HarnessError{Err: err}
		}
		url, w.sessionURL = setup.URL, setup.URL
		for k, vs := range setup.Headers {
			w.headers[k] = vs
		}
	}
	if w.ep, err = newEndpoints(url, d); err != nil {
		return w, &HarnessError{Err: err}
	}
	return w, nil
}

func unique() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// stepDone records how a step went.
// preconditionFailed says why the scenario could not be set up on this
// target when its first failed step is a Given: the context the
// requirement is about was never reached (the target joins sessions, logs
// in or resumes another way than the scenario reads the spec), so the
// scenario proves nothing either way and is inconclusive, never passed.
func (w *World) preconditionFailed() string {
	for i, st := range w.steps {
		if st.Status != "failed" {
			continue
		}
		if w.sc.c.pickle.Steps[i].Type == messages.PickleStepType_CONTEXT {
			return "precondition not met on this target"
		}
		return ""
	}
	return ""
}

func (w *World) stepDone(st *godog.Step, status godog.StepResultStatus, err error) {
	for i, id := range w.stepIDs {
		if id != st.Id {
			continue
		}
		s := &w.steps[i]
		s.Status = status.String()
		s.Duration = time.Since(w.stepStart)
		if err != nil {
			s.Error = err.Error()
			var f *Failure
			if errors.As(err, &f) {
				s.Error, s.Expected, s.Actual = f.Msg, f.Expected, f.Actual
			}
			w.stepErrs = append(w.stepErrs, err)
		}
	}
}

// finish closes the scenario's clients and judges it.
func (w *World) finish(err error) reports.Scenario {
	for _, c := range w.clients {
		c.closeWith(1000, "scenario over")
	}
	w.cancel()
	w.sc.run.runSessionCleanup(w.sc.run.ctx, w.sessionURL, w.sc.target.urlFor(w.sc.c.Dialect), w.sc.c.Dialect, w.sc.c.ID)
	c := w.sc.c
	s := caseResult(c, w.sc.target)
	s.Steps, s.Duration = w.steps, time.Since(w.started)
	if w.checker != nil {
		s.Findings, s.Frames = w.snapshot()
	}
	if w.sc.run.ctx.Err() != nil {
		// Stopped by the user while it ran: its steps failed because the
		// run's context ended, not because of the target, and the frames
		// it saw may stop mid-exchange. The wire log stays; its findings
		// judge nothing.
		s.Verdict, s.Reason, s.Findings = reports.NotRun, Stopped, nil
		return s
	}
	env := w.envReason
	if env == "" {
		env = w.preconditionFailed()
	}
	s.Verdict, s.Reason = judge(c, w.steps, append(w.stepErrs, w.setupErr, err), s.Findings, env)
	if s.Verdict == reports.Passed && len(w.unobserved) > 0 {
		s.Reason = NotObservable + strings.Join(w.unobserved, "; ")
	}
	return s
}

func skipped(c *Case, t Target, why string) reports.Scenario {
	s := caseResult(c, t)
	s.Verdict, s.Reason = reports.Skipped, why
	return s
}

func errored(c *Case, t Target, why string) reports.Scenario {
	s := caseResult(c, t)
	s.Verdict, s.Reason = reports.Error, why
	return s
}

func caseResult(c *Case, t Target) reports.Scenario {
	s := reports.Scenario{ID: c.ID, Name: c.Name, Feature: c.Feature, File: c.File, Line: c.Line,
		Dialect: c.Dialect, Target: t.Name, Level: c.Level, Tags: c.Tags, Requirement: c.Requirement, Requirements: c.Reqs}
	if c.Primary != nil {
		s.Primary = reports.Ref(*c.Primary)
	}
	return s
}

// SortResults orders results as the features are written: by target (in
// the order given), dialect (canonical order), file, line and id, so
// reports do not depend on which scenario finished first.
func SortResults(out []reports.Scenario, targets []Target) {
	rank := map[string]int{}
	for i, t := range targets {
		rank["t:"+t.Name] = i
	}
	for i, d := range dialect.Names() {
		rank["d:"+d] = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Target != b.Target:
			return rank["t:"+a.Target] < rank["t:"+b.Target]
		case a.Dialect != b.Dialect:
			return rank["d:"+a.Dialect] < rank["d:"+b.Dialect]
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		}
		return a.ID < b.ID
	})
}
