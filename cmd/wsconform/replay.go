package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/wsconform/wsconform/cmd/internal/cli"
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/exit"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/replay"
	"github.com/wsconform/wsconform/internal/version"
	"github.com/wsconform/wsconform/reports"
)

const againstAbout = `Plays the client side of a recording (wsproxy --record, or a Chrome DevTools
HAR file) against a live server, and compares what the server answers with
what the recorded server answered. Each recorded connection is opened again
(same path and query), its client frames are sent in order, and before each
one the replay waits until the server has sent the answers the recorded
client had at that point (counted by message type; heartbeats left out;
each answer waited for at most --answer-timeout, then it is missing and the
replay goes on). Connections the recording dropped are dropped (TCP cut),
closed ones are closed with their code, and reconnections resume with what
the new server handed out: ids it minted anew (session, run, request ids)
are learned from its answers and put into later client frames and URLs,
and cursors (minicodex last_seen_event_id, myagent last_seq, mitto
after_seq) are mapped onto its numbering.

Every new frame goes through the check engine, as in validate, and each
connection's server stream is aligned with the recorded one: a message of
the same type and place with other members is "changed" (the members are
named by JSON pointer), one the new server did not send is "missing", one it
sent on top is "extra", one it sent a few places away, unchanged, "moved"
(shown, not a difference: a spec's order is the ordering rules' to judge).
Members that differ between runs by nature (timestamps, model text) are
ignored per dialect; --ignore adds more.

Credentials: recordings redact them (token=redacted(19)). Give them back
with --query NAME=VALUE (hostd hosts: --query host_token=…), --header for
handshake headers, or, for hostd's app endpoint, --login USER:PASSWORD,
which logs in (POST /auth/login) and uses the fresh access token as the
token query value. A redacted query value left without one is a usage error.
A credential redacted inside a client message (an apiKey member) is given
with --set apiKey=VALUE; a note names each one sent as recorded.

Example:
  wsproxy --upstream ws://127.0.0.1:7337 --listen 127.0.0.1:8080 --record bug.jsonl
  wsconform replay --against ws://127.0.0.1:7337 bug.jsonl --html replay.html

Exit codes: 0 the server conforms and every connection matches within the
masks, 1 a diff or an error finding, 2 usage error (no RECORDING or
--against, an unreadable file, a credential missing), 3 target unreachable
(the reason says whether nothing listens or the handshake was refused), an
empty recording, or a harness error, 130 interrupted (Ctrl-C, SIGTERM) before
the recording was played to its end: nothing judged, no report.`

// againstFlags are the parsed flags of wsconform replay.
type againstFlags struct {
	against, dialect, pace  string
	protocol                string
	ignore, headers, query  []string
	set                     []string
	login, record, color    string
	answerTimeout, timeout  time.Duration
	quiet, verbose, insecur bool
	out                     reportFlags
}

func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "--against URL [flags] RECORDING", againstAbout, stdout)
	var f againstFlags
	fs.StringVar(&f.against, "against", "", "server to replay against: ws://host:port (its scheme and host replace the recorded ones; a path is a prefix)")
	fs.StringVar(&f.dialect, "dialect", "auto", "dialect: "+strings.Join(dialect.Names(), ", ")+" or auto (from the recording)")
	fs.StringVar(&f.protocol, "protocol", "", cli.ProtocolUsage)
	fs.StringVar(&f.pace, "pace", replay.PaceFast, "fast (each client frame once its answers came) or original (also keep the recorded pauses)")
	fs.StringArrayVar(&f.ignore, "ignore", nil, "member to leave out of the diff (repeatable): /data/ts, /data/*/ts, ts (any depth), TYPE:/pointer")
	fs.DurationVar(&f.answerTimeout, "answer-timeout", replay.DefaultAnswerTimeout, "longest wait for each answer the recorded client had before its next frame; then it is missing")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "bound on the whole replay")
	fs.StringArrayVar(&f.headers, "header", nil, "header for every handshake and the login, 'Key: Value' (repeatable)")
	fs.StringArrayVar(&f.query, "query", nil, "NAME=VALUE replaces the recorded (often redacted) value of a query parameter (repeatable), e.g. host_token=… for hostd hosts")
	fs.StringArrayVar(&f.set, "set", nil, "MASK=VALUE puts VALUE in the client's frames in place of the recorded (often redacted) value (repeatable): apiKey=sk-… (any depth), auth:/data/token=…")
	fs.StringVar(&f.login, "login", "", "hostd: log in as `USER:PASSWORD` (POST /auth/login) and use the access token as the token query value")
	fs.StringVar(&f.record, "record", "", "also write the replay's own traffic as a recording to `FILE`")
	f.out.addFlags(fs)
	fs.BoolVarP(&f.insecur, "insecure", "k", false, "accept any TLS certificate of a wss:// target")
	fs.StringVar(&f.color, "color", console.ColorAuto, "color output: auto, always or never (NO_COLOR is honoured)")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print only the connections that differ, the problems and the verdict")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "print every row of every connection, matching ones too")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if f.protocol != "" {
		if fs.Changed("dialect") {
			return usageErr("replay: --protocol and --dialect exclude each other")
		}
		name, err := cli.Protocol(f.protocol, stderr)
		if err != nil {
			return usageErr("replay: --protocol: %v", err)
		}
		f.dialect = name
	}
	opts, err := f.check(fs)
	if err != nil {
		return err
	}
	human := stdout
	if f.out.toStdout() {
		human = stderr
	}
	p := console.New(human, f.color)
	plan, err := replay.Load(fs.Arg(0), f.dialect)
	if err != nil {
		return againstPlanErr(fs.Arg(0), plan, err)
	}
	if err := f.credentials(ctx, plan, &opts); err != nil {
		return err
	}
	return f.execute(ctx, p, stdout, plan, opts, args)
}

// check validates the flags before any work and turns them into options.
func (f *againstFlags) check(fs *flagSet) (replay.Options, error) {
	opts := replay.Options{Pace: f.pace, Ignore: f.ignore, AnswerTimeout: f.answerTimeout, Insecure: f.insecur,
		Header: http.Header{}, Query: map[string]string{}, Limits: reports.DefaultWireLimits,
		Check: check.Options{Limits: check.DefaultLimits}}
	switch {
	case fs.NArg() == 0:
		return opts, usageErr("replay: no RECORDING given (wsconform replay --against URL RECORDING)")
	case fs.NArg() > 1:
		return opts, usageErr("replay: one RECORDING at a time, got %d", fs.NArg())
	case f.against == "":
		return opts, usageErr("replay: --against URL is required: the server to replay against")
	case f.pace != replay.PaceFast && f.pace != replay.PaceOriginal:
		return opts, usageErr("replay: --pace must be fast or original")
	case f.answerTimeout <= 0 || f.timeout <= 0:
		return opts, usageErr("replay: --answer-timeout and --timeout must be positive")
	case f.quiet && f.verbose:
		return opts, usageErr("replay: --quiet and --verbose contradict each other: pick one")
	case f.dialect != "auto" && !dialect.Known(f.dialect):
		return opts, usageErr("replay: unknown dialect %q (known: %s, or auto)", f.dialect, strings.Join(dialect.Names(), ", "))
	}
	switch f.color {
	case console.ColorAuto, console.ColorAlways, console.ColorNever:
	default:
		return opts, usageErr("replay: --color must be auto, always or never")
	}
	if err := cli.NeedScheme("--against", f.against, "servers are"); err != nil {
		return opts, usageErr("replay: %v", err)
	}
	if _, err := replay.HTTPBase(f.against); err != nil {
		return opts, usageErr("replay: --against %q: %v", f.against, err)
	}
	opts.Against = f.against
	if _, err := replay.VolatileMasks("", f.ignore); err != nil {
		return opts, usageErr("replay: --ignore: %v", err)
	}
	for _, s := range f.set {
		if _, err := replay.ParseSet(s); err != nil {
			return opts, usageErr("replay: --set: %v", err)
		}
	}
	opts.Set = f.set
	if err := cli.ParseHeaders("--header", f.headers, opts.Header); err != nil {
		return opts, usageErr("replay: %v", err)
	}
	if err := cli.ParsePairs("--query", f.query, opts.Query); err != nil {
		return opts, usageErr("replay: %v", err)
	}
	if f.login != "" {
		if u, _, ok := strings.Cut(f.login, ":"); !ok || u == "" {
			return opts, usageErr("replay: --login wants USER:PASSWORD")
		}
	}
	if err := f.out.check(); err != nil {
		return opts, usageErr("replay: %v", err)
	}
	if err := cli.CheckOutput("--record", f.record); err != nil {
		return opts, usageErr("replay: %v", err)
	}
	return opts, nil
}

// againstPlanErr sorts the errors of reading a recording: an empty one is
// exit 3 as in validate, anything else a usage error that says what.
func againstPlanErr(path string, plan *replay.Plan, err error) error {
	switch {
	case errors.Is(err, replay.ErrNoFrames) && plan != nil && len(plan.Problems) > 0 && len(plan.Conns) == 0:
		return usageErr("replay: cannot read RECORDING %s: not a recording or HAR file (%d unreadable %s; the first, %s)",
			path, len(plan.Problems), plural(len(plan.Problems), "part", "parts"), plan.Problems[0])
	case errors.Is(err, replay.ErrNoFrames):
		return harnessErr(fmt.Errorf("replay: %s: nothing to replay: the recording holds no data frame", path))
	case errors.Is(err, os.ErrNotExist):
		return usageErr("replay: cannot read RECORDING %s: no such file", path)
	}
	return usageErr("replay: cannot read RECORDING: %v", err)
}

// credentials logs in when asked (hostd) and refuses a replay that would
// send a redacted query value.
func (f *againstFlags) credentials(ctx context.Context, plan *replay.Plan, opts *replay.Options) error {
	if f.login != "" {
		tok, err := replay.Login(ctx, f.against, f.login, opts.Header)
		switch {
		case errors.Is(err, replay.ErrUnreachable):
			return harnessErr(fmt.Errorf("replay: --login: %w", err))
		case err != nil:
			return usageErr("replay: --login: %v", err)
		}
		opts.Query["token"] = tok
	}
	missing := replay.RedactedQuery(plan, opts.Query)
	if len(missing) == 0 {
		return nil
	}
	names := make([]string, 0, len(missing))
	for k := range missing {
		names = append(names, k)
	}
	sort.Strings(names)
	var parts []string
	for _, k := range names {
		parts = append(parts, fmt.Sprintf("%s (on %s)", k, strings.Join(missing[k], ", ")))
	}
	hint := "give --query NAME=VALUE"
	if dialect.BaseOf(plan.Dialect) == "hostd" {
		hint = "give --login USER:PASSWORD for token and --query host_token=VALUE for host_token"
	}
	return usageErr("replay: the recording redacted the query value of %s: %s", strings.Join(parts, ", "), hint)
}

// execute replays, prints, writes the reports and maps the verdict to
// the exit code.
func (f *againstFlags) execute(ctx context.Context, p *console.Printer, stdout io.Writer, plan *replay.Plan, opts replay.Options, args []string) error {
	started := time.Now()
	rctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	p.Bold("%s", plan.Source)
	p.Printf("  %s", plan.Dialect)
	p.Dim(" (%s)", plan.DialectReason)
	p.Printf(" → %s\n", f.against)
	res, err := replay.Run(rctx, plan, opts)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			// not the target's fault: nothing was judged, so there is no
			// report to write
			return exit.InterruptedErr(fmt.Errorf("replay: interrupted by %s before the recording was played to its end: nothing was judged, no report written", interruptedBy(ctx)))
		case errors.Is(err, replay.ErrUnreachable):
			return harnessErr(fmt.Errorf("replay: %w", err))
		case rctx.Err() != nil:
			return harnessErr(fmt.Errorf("replay: not done within --timeout %s: %w", f.timeout, err))
		}
		return harnessErr(fmt.Errorf("replay: %w", err))
	}
	rep := reports.New(reports.KindReplay, version.String(), started)
	rep.Finished = time.Now()
	rep.Command = "wsconform replay " + shellJoin(args)
	rep.Dialects = []string{plan.Dialect}
	rep.Targets = []reports.Target{{Name: "against", URL: f.against}}
	rep.Sessions, rep.Replays, rep.Notes = res.Sessions, res.Diffs, res.Notes
	for _, pr := range plan.Problems {
		rep.Notes = append(rep.Notes, "skipped an unreadable part of the recording: "+pr.String())
	}
	rep.Tally()
	printAgainst(p, rep, f.quiet, f.verbose)
	if f.record != "" {
		if err := writeFile(f.record, func(w io.Writer) error {
			return replay.WriteRecording(w, res, recording.Header{Tool: "wsconform replay " + version.String(), Started: started, KeepSecrets: f.out.noRedact})
		}); err != nil {
			return harnessErr(err)
		}
		p.Dim("%s\n", cli.Written("recording of the replay", f.record))
	}
	if err := writeReports(rep, f.out, stdout, p); err != nil {
		return harnessErr(err)
	}
	switch rep.Verdict {
	case reports.Failed:
		return errFailed
	case reports.Error:
		return &exit.Error{Code: exitHarness}
	}
	return nil
}
