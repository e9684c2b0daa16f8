package gate

import (
	"context"
	"errors"
	"fmt"
	"github.com/wsconform/wsconform/internal/netguard"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/reports"
)

// Options configure one gate run.
type Options struct {
	Dialect string
	// Faults are injected by the reference server into every connection,
	// so that the client's reconnect and resume logic is exercised.
	Faults []fault.Spec
	Seed   uint64
	// EnvVar renames WSCONFORM_URL.
	EnvVar string
	// Command is the client's command and its arguments.
	Command []string
	// Stdout and Stderr receive the command's output.
	Stdout, Stderr io.Writer
	// Console receives the proxy's live log (findings only unless Verbose).
	Console io.Writer
	Verbose bool
	Color   string
	// Record, when set, receives the recording of the client's traffic.
	Record io.Writer
	// Timeout bounds the command (0: no bound but the context's).
	Timeout time.Duration
	Tool    string
	// Upstream, when set, replaces the reference server (gate --replay:
	// a recording's fixture); Faults do not apply then.
	Upstream *Upstream
	// Live, when set, is told everything the proxy judges as it happens
	// (gate --web: the live view), and Attached gets the proxy once it
	// runs (for the view's report downloads).
	Live     proxy.LiveObserver
	Attached func(*proxy.Proxy)
	// UpstreamChanged, when set with Upstream, is told whenever the
	// upstream's verdict may have changed (gate --replay --web: the live
	// view fetches the replay diffs again); see watchUpstream. It is called
	// from the proxy's validator and must return at once.
	UpstreamChanged func()
}

// Upstream is a server the gate runs in place of the reference server,
// behind the same proxy.
type Upstream struct {
	// Name is the target's name in the report ("replay").
	Name string
	// Handler serves the client's connections (through the proxy).
	Handler http.Handler
	// Path is the main endpoint's path for WSCONFORM_URL ("": the
	// dialect's).
	Path string
	// Shutdown ends the handler's connections once the proxy stopped.
	Shutdown func(context.Context) error
	// Judge adds the upstream's own verdict to the report once everything
	// stopped and returns how many failures it found; any fails the gate.
	Judge func(*reports.Report) int
}

// Result is the outcome of a gate run.
type Result struct {
	Report *reports.Report
	// CommandErr is why the command failed (nil when it exited 0).
	CommandErr error
	// ClientErrors counts error findings on frames the client sent;
	// Connections counts the WebSocket connections it opened.
	ClientErrors, ClientWarnings, Connections int
	// UpstreamFailures is what Upstream.Judge found (replay mismatches).
	UpstreamFailures int
}

// Passed reports whether the gate passes: the command succeeded, the
// client talked, and no error finding was made on its frames.
func (r Result) Passed() bool {
	return r.CommandErr == nil && r.ClientErrors == 0 && r.Connections > 0 && r.UpstreamFailures == 0
}

// ErrNotRun says the command could not be started at all (not found, not
// executable): a mistake in the gate's invocation, not a client failure.
var ErrNotRun = errors.New("command could not be started")

// Run starts the reference server and the proxy, runs the command, and
// judges the client's traffic.
func Run(ctx context.Context, opts Options) (Result, error) {
	d, err := dialect.Get(opts.Dialect)
	if err != nil {
		return Result{}, err
	}
	if len(opts.Command) == 0 {
		return Result{}, errors.New("no command given")
	}
	shareWriters(&opts)
	watchUpstream(&opts)
	started := time.Now()
	up, err := startUpstream(ctx, d.Dialect, opts)
	if err != nil {
		return Result{}, err
	}
	defer up.stop(context.Background()) //nolint:errcheck // a second stop after the one below is a no-op
	p, base, stop, err := startProxy(d.Dialect, up.url, opts)
	if err != nil {
		return Result{}, err
	}
	env := Env(d, base, opts.EnvVar)
	if opts.Upstream != nil && opts.Upstream.Path != "" {
		env = EnvPath(d, base, opts.Upstream.Path, opts.EnvVar)
	}
	cmdErr := runCommand(ctx, opts, env)
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := stop(sctx); err != nil {
		return Result{}, fmt.Errorf("stop proxy: %w", err)
	}
	if err := up.stop(sctx); err != nil {
		return Result{}, err
	}
	if errors.Is(cmdErr, ErrNotRun) {
		return Result{}, cmdErr
	}
	res := judge(p.Report(), cmdErr, opts, up.name, up.url)
	if opts.Upstream != nil && opts.Upstream.Judge != nil {
		res.UpstreamFailures = opts.Upstream.Judge(res.Report)
		res.Report.Tally()
	}
	res.Report.Started = started
	res.Report.Finished = time.Now()
	return res, nil
}

// startProxy serves the proxy on a free loopback port in front of the
// reference server and returns its base URL and how to stop it.
func startProxy(name, upstream string, opts Options) (*proxy.Proxy, string, func(context.Context) error, error) {
	// MirrorDrops: the reference's drop-after fault cuts its TCP connection,
	// and a client talking to it directly would see exactly that (1006)
	p, err := proxy.New(proxy.Config{Upstream: upstream, Dialect: name, Record: opts.Record,
		Console: opts.Console, Quiet: !opts.Verbose, Color: opts.Color, Tool: opts.Tool, MirrorDrops: true, Live: opts.Live,
		// The console shows what the client is blamed for; the server's
		// findings (faults injected, or a recorded server's own) are in
		// the reports, counted in the summary.
		ConsoleShows: func(f check.Finding) bool {
			return reports.Judged(reports.KindGate, reports.Finding{Finding: f}, false)
		}})
	if err != nil {
		return nil, "", nil, fmt.Errorf("start proxy: %w", err)
	}
	if opts.Attached != nil {
		opts.Attached(p)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, fmt.Errorf("start proxy: %w", err)
	}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	stop := func(ctx context.Context) error {
		err := p.Shutdown(ctx)
		srv.Close()
		return err
	}
	return p, "ws://" + netguard.Dialable(ln.Addr().String()), stop, nil
}

// runCommand runs the client's command with the gate's environment. On
// cancellation it gets SIGTERM, then SIGKILL five seconds later.
func runCommand(ctx context.Context, opts Options, env []string) error {
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, opts.Command[0], opts.Command[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = opts.Stdout, opts.Stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: %v", ErrNotRun, err)
	}
	err := cmd.Wait()
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("%s: stopped after %w: %w", strings.Join(opts.Command, " "), ctx.Err(), err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", strings.Join(opts.Command, " "), err)
	}
	return nil
}

// judge turns the proxy's report into the gate's: only findings on client
// frames (and the proxy's own, which say what it could not check) decide a
// session's verdict, and a "client command" scenario carries the command's
// outcome.
func judge(r *reports.Report, cmdErr error, opts Options, target, upstream string) Result {
	if r == nil {
		r = reports.New(reports.KindProxy, opts.Tool, time.Now())
	}
	r.Kind = reports.KindGate
	r.Command = "wsconform gate --dialect " + opts.Dialect + " -- " + strings.Join(opts.Command, " ")
	r.Targets = []reports.Target{{Name: target, URL: upstream, Reference: target == "reference"}}
	r.Dialects = []string{opts.Dialect}
	res := Result{Report: r, CommandErr: cmdErr}
	for i := range r.Sessions {
		s := &r.Sessions[i]
		res.Connections += len(s.Conns)
		var blamed []check.Finding
		for _, f := range s.Findings {
			if !r.Judged(f, false) {
				continue
			}
			blamed = append(blamed, f.Finding)
			switch f.Severity {
			case check.Error:
				res.ClientErrors++
			case check.Warning:
				res.ClientWarnings++
			}
		}
		s.Verdict = reports.FromFindings(blamed)
	}
	cmd := reports.Scenario{ID: "gate.command", Name: "the client command succeeds", Dialect: opts.Dialect,
		Target: target, Level: "must", Verdict: reports.Passed,
		Steps: []reports.Step{{Keyword: "Run", Text: strings.Join(opts.Command, " "), Status: "passed"}}}
	if cmdErr != nil {
		cmd.Verdict, cmd.Reason = reports.Failed, cmdErr.Error()
		cmd.Steps[0].Status, cmd.Steps[0].Error = "failed", cmdErr.Error()
	}
	traffic := reports.Scenario{ID: "gate.traffic", Name: "the client talks to the server", Dialect: opts.Dialect,
		Target: target, Level: "must", Verdict: reports.Passed,
		Reason: fmt.Sprintf("%d WebSocket connections", res.Connections)}
	if res.Connections == 0 {
		traffic.Verdict, traffic.Reason = reports.Failed, "the client opened no WebSocket connection through the gate (is it using $"+envVar(opts)+"?)"
	}
	r.Scenarios = []reports.Scenario{cmd, traffic}
	r.Tally()
	return res
}

func envVar(opts Options) string {
	if opts.EnvVar != "" {
		return opts.EnvVar
	}
	return DefaultEnvVar
}
