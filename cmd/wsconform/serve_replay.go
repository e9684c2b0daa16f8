package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/fixture"
	"github.com/wsconform/wsconform/internal/replay"
	"github.com/wsconform/wsconform/reference/server"
	"github.com/wsconform/wsconform/reports"
)

// replayFlags are the flags serve and gate share for --replay.
type replayFlags struct {
	path, pace string
	// dialect is the protocol gate --protocol names ("" : the recording's).
	dialect string
	ignore  []string
	wait    time.Duration
}

func (r *replayFlags) addFlags(fs *flagSet) {
	fs.StringVar(&r.path, "replay", "", "serve the server's side of the recording `FILE` (JSONL or HAR) instead of the reference server; its dialect is the recording's")
	fs.StringVar(&r.pace, "pace", fixture.PaceFast, "with --replay: fast (as fast as the client reads) or original (the recorded pauses)")
	fs.StringArrayVar(&r.ignore, "ignore", nil, "with --replay: a member the comparison of client frames ignores (repeatable): /data/ts, ts, TYPE:/pointer")
	fs.DurationVar(&r.wait, "wait", fixture.DefaultWait, "with --replay: how long a recorded client frame is waited for before it counts as missing")
}

// check rejects the replay-only flags without --replay.
func (r *replayFlags) check(cmd string, fs *flagSet) error {
	if r.path != "" {
		if r.pace != fixture.PaceFast && r.pace != fixture.PaceOriginal {
			return usageErr("%s: --pace %q is not fast or original", cmd, r.pace)
		}
		if r.wait <= 0 {
			return usageErr("%s: --wait must be positive", cmd)
		}
		return nil
	}
	for _, name := range []string{"pace", "ignore", "wait", "loop"} {
		if f := fs.Lookup(name); f != nil && f.Changed {
			return usageErr("%s: --%s applies to --replay only", cmd, name)
		}
	}
	return nil
}

// load reads the recording and the masks; mistakes in either are the
// user's (exit 2).
func (r *replayFlags) load(cmd string) (*replay.Plan, replay.Masks, error) {
	plan, err := replay.Load(r.path, r.dialect)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, replay.ErrNoFrames) {
			return nil, nil, usageErr("%s: --replay: %v", cmd, err)
		}
		return nil, nil, usageErr("%s: --replay: %v", cmd, err)
	}
	masks, err := replay.VolatileMasks(plan.Dialect, r.ignore)
	if err != nil {
		return nil, nil, usageErr("%s: --ignore: %v", cmd, err)
	}
	return plan, masks, nil
}

// serveReplay is `serve --replay`: the fixture on the listen address
// until SIGINT, mismatches live on stderr and a summary at the end.
func serveReplay(ctx context.Context, listen string, guard server.Guard, rf replayFlags, loop bool, colorMode string, stdout, stderr io.Writer) error {
	plan, masks, err := rf.load("serve")
	if err != nil {
		return err
	}
	// The fixture's connections print live while this goroutine prints
	// the banner and the summary.
	stderr = console.Shared(stderr, new(sync.Mutex))
	p := console.New(stderr, colorMode)
	fx, err := fixture.New(fixture.Options{Plan: plan, Pace: rf.pace, Masks: masks, Wait: rf.wait, Loop: loop,
		Guard: guard, Check: true, Events: func(e fixture.Event) { printFixtureEvent(p, e) }})
	if err != nil {
		return harnessErr(fmt.Errorf("serve: %w", err))
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", listen)
	if err != nil {
		return harnessErr(fmt.Errorf("serve: %w", err))
	}
	srv := &http.Server{Handler: fx, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends with Close below
	if host, _, err := net.SplitHostPort(listen); err == nil && !isLoopback(host) {
		fmt.Fprintf(stderr, "wsconform: warning: listening on %s, reachable from other machines\n", listen)
	}
	url := "ws://" + ln.Addr().String()
	l := listening{Type: "listening", URL: url, Dialects: []string{plan.Dialect},
		Endpoints: map[string][]string{plan.Dialect: fx.Paths()}, Replay: rf.path, Pace: rf.pace}
	if err := printJSONLine(stdout, l); err != nil {
		_ = srv.Close()
		return harnessErr(err)
	}
	after := "a further connection is refused (410); --loop serves it again"
	if loop {
		after = "then it is served again from the start (--loop)"
	}
	p.Dim("replaying %s: %s (%s), %d recorded connections on %s, pace %s; each client connection takes the next one on its path, %s\n",
		rf.path, plan.Dialect, plan.DialectReason, len(plan.Conns), strings.Join(fx.Paths(), ", "), rf.pace, after)
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = fx.Shutdown(sctx)
	_ = srv.Close()
	printReplaySummary(p, fx)
	if err != nil {
		return harnessErr(fmt.Errorf("serve: %w", err))
	}
	return nil
}

// printFixtureEvent is the live console of a replay.
func printFixtureEvent(p *console.Printer, e fixture.Event) {
	where := e.Conn
	if e.Recorded != "" {
		where = fmt.Sprintf("%s (recorded %s)", e.Conn, e.Recorded)
	}
	switch e.Kind {
	case fixture.EvOpened:
		p.Dim("→ %s %s\n", e.URL, e.Message)
	case fixture.EvRound:
		p.Warn("↻ %s\n", e.Message)
	case fixture.EvRefused:
		p.Warn("✗ refused %s: %s\n", e.URL, e.Message)
	case fixture.EvMismatch, fixture.EvFinding:
		if e.Finding != nil {
			p.Finding(*e.Finding, where)
		}
	case fixture.EvClosed:
		p.Dim("← %s ended: %s\n", e.Conn, e.Message)
	}
}

// printReplaySummary says, per connection served, how the client compared
// with the recorded one, and which recorded connections no client took.
func printReplaySummary(p *console.Printer, fx *fixture.Fixture) {
	rs := fx.Results()
	p.Printf("\n")
	p.Bold("replay summary")
	p.Printf(" (%d connections served)\n", len(rs))
	mismatched, findings := 0, 0
	for _, r := range rs {
		counts := map[string]int{}
		for _, row := range r.Rows {
			counts[row.Op]++
		}
		findings += len(r.Findings)
		same := fmt.Sprintf("%d same", counts[reports.DiffSame])
		if n := counts[reports.DiffMoved]; n > 0 {
			same += fmt.Sprintf(", %d moved (independent frames in another order)", n)
		}
		line := fmt.Sprintf("  %s ← recorded %s  %s: %s, %d changed, %d missing, %d extra; %d conformance findings",
			r.Conn, r.Recorded, r.Path, same, counts[reports.DiffChanged], counts[reports.DiffMissing], counts[reports.DiffExtra], len(r.Findings))
		if r.Matched() {
			p.Pass("  ✓")
		} else {
			mismatched++
			p.Fail("  ✗")
		}
		p.Printf("%s\n", line)
	}
	if unused := fx.Unused(); len(unused) > 0 && len(rs) > 0 {
		var ids []string
		for _, c := range unused {
			ids = append(ids, c.ID)
		}
		p.Dim("  not replayed (no client took them): %s\n", strings.Join(ids, ", "))
	}
	switch {
	case len(rs) == 0:
		p.Dim("  no client connected\n")
	case mismatched == 0 && findings == 0:
		p.Pass("every client did what the recorded client did\n")
	default:
		p.Fail("%d of %d connections differ from the recording, %d conformance findings on client frames\n", mismatched, len(rs), findings)
	}
}

// gateFixture is the fixture of `gate --replay`; --dialect, when given,
// must be the recording's, and --fault does not apply.
func gateFixture(rf replayFlags, dialectName string, faults bool, p *console.Printer) (*fixture.Fixture, error) {
	if faults {
		return nil, usageErr("gate: --fault does not apply to --replay (the recording's own endings are reproduced)")
	}
	plan, masks, err := rf.load("gate")
	if err != nil {
		return nil, err
	}
	if dialectName != "" && dialectName != plan.Dialect {
		return nil, usageErr("gate: --dialect %s, but the recording is %s (%s); --replay needs no --dialect", dialectName, plan.Dialect, plan.DialectReason)
	}
	fx, err := fixture.New(fixture.Options{Plan: plan, Pace: rf.pace, Masks: masks, Wait: rf.wait,
		Events: func(e fixture.Event) {
			if e.Kind == fixture.EvMismatch || e.Kind == fixture.EvRefused {
				printFixtureEvent(p, e)
			}
		}})
	if err != nil {
		return nil, harnessErr(fmt.Errorf("gate: %w", err))
	}
	return fx, nil
}
