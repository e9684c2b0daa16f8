package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/wsconform/wsconform/cmd/internal/cli"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/fixture"
	"github.com/wsconform/wsconform/internal/gate"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/version"
	"github.com/wsconform/wsconform/internal/web"
	"github.com/wsconform/wsconform/reports"
)

const gateAbout = `The CI gate for client implementations. Starts the reference server and the
recording proxy on free loopback ports, runs CMD with the proxy's URL in its
environment, waits for it, then judges every frame the client exchanged.

Environment of CMD:
  WSCONFORM_URL        ws://127.0.0.1:PORT/ws, the main endpoint (hostd: /ws/app);
                       --env-var renames it
  WSCONFORM_BASE_URL   ws://127.0.0.1:PORT      WSCONFORM_HTTP_URL  http://127.0.0.1:PORT
  WSCONFORM_DIALECT    the dialect
  hostd: WSCONFORM_APP_URL, WSCONFORM_HOST_URL and the demo login WSCONFORM_USER,
         WSCONFORM_PASSWORD, WSCONFORM_HOST_TOKEN

Only the client is judged: findings on frames it sent (a resume from an event it
never received, an ack of an unseen seq, a malformed command ...) fail the gate;
findings on server frames come from --fault and are reported, not blamed.
--fault makes the reference server misbehave (drop-after=N, close=CODE@N,
delay=DUR, duplicate=TYPE ...) so that reconnect and resume logic is exercised.

--replay FILE serves the recording's server side instead of the reference server
(its dialect is the recording's): the client gets what the recorded server sent,
and every client frame must match what the recorded client sent (volatile members
and --ignore masks aside, ids the client mints may differ when used consistently).
A difference, a frame that never comes within --wait, one the recording lacks, or a
recorded connection the client never opens fails the gate (replay.client-mismatch);
the report carries the per-connection diff.

Exit codes: 0 when CMD exited 0 and no error finding was made on a client frame
(with --replay: and the client matched the recording);
1 when either failed (the output says which); 2 usage (also: CMD not found);
3 harness error; 130 interrupted (Ctrl-C, SIGTERM): CMD was stopped, and the
command and traffic checks are "not run" in the reports, never failed.`

func runGate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("gate", "(--dialect NAME [--fault SPEC]... | --replay FILE [--ignore MASK]...) [--html F] [--junit F] [--json F] [--markdown F] -- CMD [ARGS...]", gateAbout, stdout)
	fs.SetInterspersed(false) // CMD's own flags are CMD's
	name := fs.String("dialect", "", "dialect the client speaks ("+strings.Join(dialect.Names(), ", ")+"); required")
	protocol := fs.String("protocol", "", cli.ProtocolUsage+"; needs --replay: an imported protocol has no reference server, so the server side is the recording's (as serve --replay serves it)")
	faults := fs.StringArray("fault", nil, "fault the reference server injects into every connection (repeatable)")
	seed := fs.Uint64("seed", 1, "seed for jitter faults")
	envVar := fs.String("env-var", gate.DefaultEnvVar, "name of the variable that carries the main endpoint's URL")
	record := fs.String("record", "", "record the client's traffic to `FILE` (JSON Lines; wsconform validate reads it)")
	timeout := fs.Duration("timeout", 0, "stop CMD (SIGTERM, then SIGKILL) after this long; 0: no limit")
	webAddr := fs.String("web", "", "serve wsproxy's live view of the client's frames and findings on `ADDR` (loopback) while CMD runs")
	var out reportFlags
	out.addFlags(fs)
	verbose := fs.BoolP("verbose", "v", false, "print every frame the client exchanges, not only findings")
	quiet := fs.BoolP("quiet", "q", false, "print no live findings, only the verdict and its reasons (the reports keep everything)")
	colorMode := fs.String("color", console.ColorAuto, "color output: auto, always or never (NO_COLOR is honoured)")
	var rf replayFlags
	rf.addFlags(fs)
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	command := fs.Args()
	if err := rf.check("gate", fs); err != nil {
		return err
	}
	if *protocol != "" {
		switch {
		case fs.Changed("dialect"):
			return usageErr("gate: --protocol and --dialect exclude each other")
		case rf.path == "":
			return usageErr("gate: --protocol needs --replay FILE: an imported protocol has no reference server; record its server with wsproxy --protocol and serve the recording")
		}
		pname, err := cli.Protocol(*protocol, stderr)
		if err != nil {
			return usageErr("gate: --protocol: %v", err)
		}
		rf.dialect = pname
	}
	var fx *fixture.Fixture
	if rf.path != "" {
		var err error
		if fx, err = gateFixture(rf, *name, len(*faults) > 0, console.New(stderr, *colorMode)); err != nil {
			return err
		}
		*name = fx.Dialect()
	}
	switch {
	case *name == "":
		return usageErr("gate: --dialect is required")
	case !dialect.Known(*name):
		return usageErr("gate: unknown dialect %q (known: %s)", *name, strings.Join(dialect.Names(), ", "))
	case len(command) == 0:
		return usageErr("gate: no command: wsconform gate --dialect %s -- CMD [ARGS...]", *name)
	case *envVar == "" || strings.ContainsAny(*envVar, "= "):
		return usageErr("gate: --env-var %q is not a variable name", *envVar)
	case *timeout < 0:
		return usageErr("gate: --timeout must not be negative")
	case *quiet && *verbose:
		return usageErr("gate: --quiet and --verbose contradict each other: pick one")
	}
	specs, err := fault.ParseAll(*faults)
	if err != nil {
		return usageErr("gate: %v", err)
	}
	if err := out.check(); err != nil {
		return usageErr("gate: %v", err)
	}
	if err := cli.CheckOutput("--record", *record); err != nil {
		return usageErr("gate: %v", err)
	}
	if *webAddr != "" { // before anything is made that a refusal would leave behind
		if err := web.CheckListen(*webAddr, false); err != nil {
			return usageErr("gate: --web: %v (gate's live view is for this machine only)", err)
		}
	}
	opts := gate.Options{Dialect: *name, Faults: specs, Seed: *seed, EnvVar: *envVar, Command: command,
		Stdout: stdout, Stderr: stderr, Console: stderr, Verbose: *verbose, Color: *colorMode,
		Timeout: *timeout, Tool: version.String()}
	if *quiet {
		opts.Console = io.Discard
	}
	if fx != nil {
		opts.Upstream = &gate.Upstream{Name: "replay", Handler: fx, Path: fx.Paths()[0], Shutdown: fx.Shutdown, Judge: fx.Judge}
	}
	var lv *web.Listening
	tempRecord := false
	if *webAddr != "" {
		if *record == "" { // "Save HAR" reads the recording
			if *record, err = gateWebRecording(); err != nil {
				return err
			}
			tempRecord = true
			// last: after the recording is closed and the view stopped
			defer removeGateRecording(stderr, *colorMode, *record)
		}
		if lv, err = startGateWeb(ctx, *webAddr, *record, out.noRedact, fx != nil, "wsconform gate "+shellJoin(args)); err != nil {
			return err
		}
		defer lv.Stop()
		opts.Live = lv.Observer()
		opts.Attached = func(pr *proxy.Proxy) { lv.Start(gateSource{p: pr, fx: fx}) }
		if fx != nil { // the page's replay diffs follow the fixture
			opts.UpstreamChanged = lv.ReplaysChanged
		}
		kept := ""
		if tempRecord {
			kept = ", removed on exit: --record FILE keeps one"
		}
		console.New(stderr, *colorMode).Dim("live view %s (served while the command runs; recording to %s%s)\n", lv.URL, *record, kept)
	}
	if *record != "" {
		f, err := os.Create(*record)
		if err != nil {
			return harnessErr(fmt.Errorf("gate: %w", err))
		}
		defer f.Close()
		opts.Record = f
		if out.noRedact {
			opts.Record = recording.KeepSecrets(f)
		}
	}
	p := console.New(stderr, *colorMode)
	res, err := gate.Run(ctx, opts)
	if errors.Is(err, gate.ErrNotRun) {
		return usageErr("gate: %v", err)
	}
	if err != nil {
		return harnessErr(fmt.Errorf("gate: %w", err))
	}
	res.Report.Command = "wsconform gate " + shellJoin(args)
	if *timeout > 0 && ctx.Err() == nil && errors.Is(res.CommandErr, context.DeadlineExceeded) {
		res.CommandErr = fmt.Errorf("the client command ran past --timeout (%s) and was stopped", *timeout)
	}
	stopped := ctx.Err() != nil && errors.Is(res.CommandErr, context.Canceled)
	if stopped {
		gateInterrupted(res.Report, interruptedBy(ctx))
	}
	printGate(p, res)
	if *record != "" && !tempRecord {
		p.Dim("%s\n", cli.Written("recording", *record))
	}
	if err := writeReports(res.Report, out, stdout, p); err != nil {
		return harnessErr(err)
	}
	if stopped {
		return interrupted()
	}
	if !res.Passed() {
		return errFailed
	}
	return nil
}

// printGate says what was judged and which part failed, from the report
// redacted.
func printGate(p *console.Printer, res gate.Result) {
	res.Report = reports.Redact(res.Report)
	p.Printf("\n")
	if res.Report.Interrupted != "" {
		p.Warn("○ client command stopped: %s\n", res.Report.Interrupted)
	} else if res.CommandErr != nil {
		p.Fail("✗ client command failed: ")
		p.Printf("%v\n", res.CommandErr)
	} else {
		p.Pass("✓ client command exited 0\n")
	}
	frames, server := int64(0), 0
	for _, s := range res.Report.Sessions {
		frames += s.FramesTotal
		for _, f := range s.Findings {
			if !res.Report.Judged(f, false) {
				server++
			}
		}
	}
	// Each distinct problem once, with its count: the same warning on 18
	// acks is one line of work for the client's developer, not 18.
	printRootCauses(p, res.Report)
	switch {
	case res.Connections == 0 && res.Report.Interrupted != "":
		p.Dim("  the client opened no WebSocket connection before it was stopped\n")
	case res.Connections == 0:
		p.Fail("✗ the client opened no WebSocket connection through the gate\n")
	case res.ClientErrors > 0:
		p.Fail("✗ %d error findings on client frames", res.ClientErrors)
		p.Printf(" (%d frames, %d connections)\n", frames, res.Connections)
	default:
		p.Pass("✓ client frames conform")
		p.Printf(" (%d frames, %d connections, %d warnings)\n", frames, res.Connections, res.ClientWarnings)
	}
	if server > 0 {
		from := "the injected faults"
		if len(res.Report.Replays) > 0 {
			from = "the recorded server's own"
		}
		p.Dim("  %d findings on server frames (%s) are not blamed on the client\n", server, from)
	}
	printGateReplay(p, res)
	p.Printf("\n")
	if res.Report.Interrupted != "" {
		p.Warn("INTERRUPTED")
	} else if res.Passed() {
		p.Pass("PASS")
	} else {
		p.Fail("FAIL")
	}
	p.Printf("  %s\n", time.Since(res.Report.Started).Round(10*time.Millisecond))
}

// printGateReplay says, for gate --replay, whether the client did what the
// recorded client did.
func printGateReplay(p *console.Printer, res gate.Result) {
	if len(res.Report.Replays) == 0 {
		return
	}
	rows := 0
	for _, d := range res.Report.Replays {
		rows += len(d.Rows)
	}
	if res.UpstreamFailures == 0 {
		p.Pass("✓ the client did what the recorded client did")
		p.Printf(" (%d connections, %d client frames compared)\n", len(res.Report.Replays), rows)
		return
	}
	p.Fail("✗ %d client frames differ from the recording", res.UpstreamFailures)
	p.Printf(" (%d connections, %d client frames compared)\n", len(res.Report.Replays), rows)
}
