package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/wsconform/wsconform/cmd/internal/cli"
	"github.com/wsconform/wsconform/cmd/internal/completion"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/exit"
	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/netguard"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/version"
	"github.com/wsconform/wsconform/internal/web"
	"github.com/wsconform/wsconform/reports"
)

// DefaultListen is loopback only: a proxy that records traffic must not be
// reachable from other machines unless the user asks.
const DefaultListen = "127.0.0.1:8080"

// Exit codes and errors that carry them, shared with the other command.
const (
	exitOK      = exit.OK
	exitFail    = exit.Fail
	exitUsage   = exit.Usage
	exitHarness = exit.Harness
)

var (
	usageErr   = exit.UsageErr
	harnessErr = exit.HarnessErr
	errFailed  = exit.Failed
)

// exitCode prints err and returns the code main exits with.
func exitCode(err error, stderr io.Writer) int {
	return exit.Code(err, stderr, "wsproxy", nil)
}

// options are the parsed flags.
type options struct {
	upstream, listen, dialect string
	// protocol is --protocol FILE; protocolNotes what its import says the
	// document leaves out, printed when the proxy starts.
	protocol, protocolNotes   string
	record, json, html, junit string
	markdown                  string
	faults                    []string
	seed                      uint64
	quiet, strict, insecure   bool
	mirrorDrops               bool
	noRedact                  bool
	tlsCert, tlsKey           string
	maxFrame                  int64
	writeTimeout, dialTimeout time.Duration
	queue, validationQueue    int
	color                     string
	showVersion               bool
	host, origin              string
	paths, allowHosts         []string
	allowOrigins              []string
	memoryBudget              int64
	maxConns                  int
	idleTimeout               time.Duration
	web                       string
	webRemote                 bool
	// tempRecord: record is the temporary file --web made (no --record),
	// removed on exit.
	tempRecord bool
}

func parseFlags(args []string, stdout io.Writer) (options, bool, error) {
	var o options
	fs := newFlagSet(&o)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			printHelp(stdout, fs)
			return o, true, nil
		}
		return o, false, usageErr("%s", cli.FlagError(fs, err))
	}
	if o.showVersion {
		fmt.Fprintln(stdout, version.Info("wsproxy"))
		return o, true, nil
	}
	if o.protocol != "" {
		if fs.Changed("dialect") {
			return o, false, usageErr("--protocol and --dialect exclude each other")
		}
		var notes strings.Builder
		name, err := cli.Protocol(o.protocol, &notes)
		if err != nil {
			return o, false, usageErr("--protocol: %v", err)
		}
		o.dialect, o.protocolNotes = name, notes.String()
	}
	return o, false, o.check(fs)
}

// newFlagSet declares every flag of wsproxy into o; completion is
// generated from the same set.
func newFlagSet(o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet("wsproxy", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.Usage = func() {}
	fs.StringVar(&o.upstream, "upstream", "", "`URL` of the server: ws:// or wss://, optionally with a path prefix (required)")
	fs.StringVar(&o.listen, "listen", DefaultListen, "`ADDR` to listen on; port 0 picks a free port; loopback unless you ask")
	fs.StringVar(&o.dialect, "dialect", "auto", "dialect: "+strings.Join(dialect.Names(), ", ")+", or auto (from the first connection's path and frames)")
	fs.StringVar(&o.protocol, "protocol", "", cli.ProtocolUsage)
	fs.StringVar(&o.record, "record", "", "record every frame to `FILE` (JSON Lines, each line written before its frame is relayed; `wsconform validate FILE` judges it again)")
	fs.StringVar(&o.html, "html", "", "on exit, write the HTML report to `FILE`")
	fs.StringVar(&o.junit, "junit", "", "on exit, write JUnit XML to `FILE`")
	fs.StringVar(&o.json, "json", "", "on exit, write the JSON report to `FILE`")
	fs.StringVar(&o.markdown, "markdown", "", "on exit, write a Markdown summary to `FILE` (it is also appended to $GITHUB_STEP_SUMMARY when that is set)")
	fs.StringArrayVar(&o.faults, "fault", nil, "inject a fault, `SPEC` as below; c2s: or s2c: (default) picks the direction (repeatable)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed for jitter faults (connection n uses seed+n)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "print findings, failures and the summary only, not every frame")
	fs.BoolVar(&o.strict, "strict", false, "exit 1 on a failed verdict (an error finding), 3 on an error verdict (refused or failed handshakes, nothing tested)")
	fs.BoolVarP(&o.insecure, "insecure", "k", false, "do not verify the upstream's TLS certificate (self-signed wss://)")
	fs.BoolVar(&o.mirrorDrops, "mirror-drops", false, "when a peer vanishes without a close frame, cut the other side's TCP connection too (it sees 1006, as without the proxy) instead of closing it with 1011 (client) or 1001 (upstream)")
	fs.BoolVar(&o.noRedact, "no-redact", false, "keep credentials (token query values, Authorization and Cookie headers, apiKey/password members of frames, tokens such as Bearer …, sk-…, JWTs, ghp_… and AWS keys anywhere) in the recording and reports; by default they are redacted, keeping their length")
	fs.StringVar(&o.tlsCert, "tls-cert", "", "serve TLS (wss://, https://) with this certificate `FILE` (with --tls-key)")
	fs.StringVar(&o.tlsKey, "tls-key", "", "private key `FILE` for --tls-cert")
	fs.Int64Var(&o.maxFrame, "max-frame", proxy.DefaultMaxFrame, "largest message relayed, in `BYTES`; a larger one closes its connection with 1009 (at most the default while recording, so that the recording reads back)")
	fs.DurationVar(&o.writeTimeout, "write-timeout", proxy.DefaultWriteTimeout, "deadline of each write to a peer; a peer that does not read for this long is disconnected")
	fs.DurationVar(&o.dialTimeout, "dial-timeout", proxy.DefaultDialTimeout, "how long the upstream has to complete a WebSocket handshake (the client then gets 504)")
	fs.IntVar(&o.queue, "queue", proxy.DefaultQueueMessages, "messages buffered per direction of each connection before the sender is slowed down")
	fs.IntVar(&o.validationQueue, "validation-queue", proxy.DefaultValidationFrames, "frames waiting for the validator; beyond it frames are relayed and recorded, not checked (reported)")
	fs.StringArrayVar(&o.paths, "path", nil, "judge only WebSocket connections whose path matches `GLOB` (repeatable; others are relayed and recorded, not judged)")
	fs.StringVar(&o.host, "host", proxy.HostKeep, "Host header for the upstream: keep (the client's, like Caddy and Traefik) or upstream (the upstream's own, for an upstream that routes by name)")
	fs.StringVar(&o.origin, "origin", proxy.OriginKeep, "Origin header for the upstream: keep, or upstream (an Origin naming the proxy becomes the upstream's; use with --host upstream)")
	fs.StringArrayVar(&o.allowHosts, "allow-host", nil, "also accept requests whose Host is `NAME` (repeatable; * accepts any); others get 403 (DNS rebinding)")
	fs.StringArrayVar(&o.allowOrigins, "allow-origin", nil, "also relay WebSockets opened by pages of `ORIGIN` (scheme://host[:port], repeatable or comma-separated; * allows any page); "+
		"pages of this machine (localhost, 127.0.0.1, [::1], the --listen host; any port) and clients without Origin always pass, other sites' pages get 403")
	fs.Int64Var(&o.memoryBudget, "memory-budget", proxy.DefaultMemoryBudget, "`BYTES` buffered for slow peers across all connections; the connection that exceeds it is closed with 1013")
	fs.IntVar(&o.maxConns, "max-conns", proxy.DefaultMaxConns, "WebSocket connections relayed at once (-1: no limit); a client beyond it gets 503")
	fs.DurationVar(&o.idleTimeout, "idle-timeout", proxy.DefaultIdleTimeout, "close a connection on which neither peer sent a frame for this long (-1s: never)")
	fs.StringVar(&o.web, "web", "", "serve a live web view of sessions, connections, frames and findings on `ADDR` (e.g. 127.0.0.1:8081; loopback only); without --record it records to a temporary file for its Save HAR, removed on exit")
	fs.BoolVar(&o.webRemote, "web-allow-remote", false, "let --web listen on, and answer, addresses other than loopback (the page shows every frame)")
	fs.StringVar(&o.color, "color", console.ColorAuto, "color output: auto, always or never (NO_COLOR is honoured)")
	fs.BoolVar(&o.showVersion, "version", false, "print the name, version, commit and Go version, and exit")
	return fs
}

func (o options) check(fs *pflag.FlagSet) error {
	switch {
	case fs.NArg() > 0 && o.upstream == "" && strings.Contains(fs.Arg(0), "://"):
		return usageErr("the upstream is a flag: wsproxy --upstream %s", fs.Arg(0))
	case fs.NArg() > 0:
		return usageErr("unexpected argument %q", fs.Arg(0))
	case o.upstream == "":
		return usageErr("--upstream is required (for example --upstream ws://127.0.0.1:7337)")
	case o.dialect != "auto" && !dialect.Known(o.dialect):
		return usageErr("unknown dialect %q (known: %s, or auto)", o.dialect, strings.Join(dialect.Names(), ", "))
	case (o.tlsCert == "") != (o.tlsKey == ""):
		return usageErr("--tls-cert and --tls-key go together")
	case o.maxFrame <= 0:
		return usageErr("--max-frame must be positive")
	case proxy.CheckMaxFrame(o.maxFrame, o.record != "" || o.web != "") != nil:
		return usageErr("%v", proxy.CheckMaxFrame(o.maxFrame, true))
	case o.writeTimeout <= 0 || o.dialTimeout <= 0:
		return usageErr("--write-timeout and --dial-timeout must be positive")
	case o.queue <= 0 || o.validationQueue <= 0:
		return usageErr("--queue and --validation-queue must be positive")
	case o.host != proxy.HostKeep && o.host != proxy.HostUpstream:
		return usageErr("--host must be keep or upstream")
	case o.origin != proxy.OriginKeep && o.origin != proxy.OriginUpstream:
		return usageErr("--origin must be keep or upstream")
	case o.memoryBudget <= 0:
		return usageErr("--memory-budget must be positive")
	case o.maxConns == 0:
		return usageErr("--max-conns must be positive, or -1 for no limit")
	case o.idleTimeout == 0:
		return usageErr("--idle-timeout must be positive, or negative for never")
	}
	if err := cli.NeedScheme("--upstream", o.upstream, "upstreams are"); err != nil {
		return usageErr("%v", err)
	}
	if err := proxy.CheckPaths(o.paths); err != nil {
		return usageErr("%v", err)
	}
	if _, err := netguard.ParseOrigins("--allow-origin", o.allowOrigins); err != nil {
		return usageErr("%v", err)
	}
	// checked now, not at Ctrl-C when the session is over
	if err := cli.CheckOutputs(cli.Output{Flag: "--record", Path: o.record}, cli.Output{Flag: "--html", Path: o.html},
		cli.Output{Flag: "--junit", Path: o.junit}, cli.Output{Flag: "--json", Path: o.json},
		cli.Output{Flag: "--markdown", Path: o.markdown}); err != nil {
		return usageErr("%v", err)
	}
	switch o.color {
	case console.ColorAuto, console.ColorAlways, console.ColorNever:
	default:
		return usageErr("--color must be auto, always or never")
	}
	if o.web != "" {
		if err := web.CheckListen(o.web, o.webRemote); err != nil {
			return usageErr("--web: %v, or add --web-allow-remote", err)
		}
	}
	return nil
}

func printHelp(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, `Usage: wsproxy --upstream URL [--listen %s] [--dialect NAME|auto] [--record FILE]
               [--html F] [--junit F] [--json F] [--markdown F] [--fault SPEC]... [--quiet] [--strict] [--insecure]
       wsproxy completion bash|zsh|fish
       wsproxy --version

Relays every WebSocket connection accepted on --listen to the upstream (same path and query,
Origin, Cookie, Authorization and other end-to-end headers, the client's subprotocols) and
reverse-proxies plain HTTP requests to it, so one --upstream serves a whole app. Every frame is
judged against the dialect's spec off the relay path and printed (stderr) with its findings;
--record writes every frame to disk as it passes. SIGINT or SIGTERM closes every connection with
1001, writes the reports and prints a summary.

When ready it prints one JSON line on stdout:
  {"type":"listening","url":"ws://127.0.0.1:8080",...}
and, on exit, {"type":"finished","verdict":...}. Everything for humans goes to stderr.

Host and Origin: by default the upstream gets the client's Host and Origin unchanged, so a
server that compares them (gorilla's default CheckOrigin) accepts a page loaded through the
proxy. An upstream that routes by host name needs --host upstream --origin upstream.
A WebSocket opened by a page of another site is refused (403, proxy.origin-refused) unless
--allow-origin lists it: pages of this machine (any port) and clients without Origin pass.

A handshake the upstream refuses (4xx, 5xx) or that cannot reach it is a proxy.upstream-refused
finding. When no connection was judged (or it refused a judged session's reconnection) it makes
the verdict error; next to judged sessions it is a warning. A run in which no WebSocket
connection was made is an error.
Connections outside --path, or (without --path) whose first frames are not the dialect's
messages, are relayed and recorded but not judged; the report lists them once per path.

Flags:
`, DefaultListen)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprint(w, "\nFaults (--fault SPEC, seeded with --seed):\n")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, k := range fault.Kinds {
		fmt.Fprintf(tw, "  %s\t%s\n", k.Syntax, k.Summary)
	}
	_ = tw.Flush()
	fmt.Fprint(w, "\nExit codes: 0 done (whatever the verdict without --strict), 1 failed verdict with --strict,\n"+
		"2 usage error, 3 cannot listen or write the recording or a report, or an error verdict with --strict.\n")
}

// listening is the JSON line printed on stdout when the proxy is ready.
type listening struct {
	Type     string   `json:"type"`
	URL      string   `json:"url"`
	HTTP     string   `json:"http"`
	Upstream string   `json:"upstream"`
	Dialect  string   `json:"dialect"`
	Record   string   `json:"record,omitempty"`
	Faults   []string `json:"faults,omitempty"`
	// Web is the live view's page (--web).
	Web string `json:"web,omitempty"`
}

// finished is the JSON line printed on stdout on exit.
type finished struct {
	Type     string          `json:"type"`
	Verdict  reports.Verdict `json:"verdict"`
	Sessions int             `json:"sessions"`
	Errors   int             `json:"errors"`
	Warnings int             `json:"warnings"`
	Infos    int             `json:"infos"`
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "completion" {
		return runCompletion(args[1:], stdout)
	}
	o, done, err := parseFlags(args, stdout)
	if done || err != nil {
		return err
	}
	fmt.Fprint(stderr, o.protocolNotes)
	specs, err := fault.ParseAll(o.faults)
	if err != nil {
		return usageErr("%v", err)
	}
	var tlsCfg *tls.Config
	if o.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(o.tlsCert, o.tlsKey)
		if err != nil {
			return harnessErr(fmt.Errorf("load TLS certificate: %w", err))
		}
		tlsCfg = &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"http/1.1"}}
	}
	if err := proxy.CheckUpstream(o.upstream); err != nil {
		return usageErr("%v", err)
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", o.listen)
	if err != nil {
		return harnessErr(fmt.Errorf("listen on %s: %w", o.listen, err))
	}
	cfg := proxy.Config{
		Upstream: o.upstream, Dialect: o.dialect, Faults: specs, Seed: o.seed, Insecure: o.insecure, MirrorDrops: o.mirrorDrops,
		MaxFrame: o.maxFrame, WriteTimeout: o.writeTimeout, DialTimeout: o.dialTimeout,
		QueueMessages: o.queue, ValidationFrames: o.validationQueue,
		Host: o.host, Origin: o.origin, Paths: o.paths, AllowHosts: o.allowHosts, AllowOrigins: o.allowOrigins, Listen: o.listen,
		MemoryBudget: o.memoryBudget, MaxConns: o.maxConns, IdleTimeout: o.idleTimeout,
		Console: stderr, Quiet: o.quiet, Color: o.color, Tool: "wsproxy " + version.String(),
	}
	var lv *web.Listening
	tempRec := false
	if o.web != "" {
		if o.record == "" {
			if o.record, err = tempRecording(); err != nil {
				ln.Close()
				return err
			}
			tempRec, o.tempRecord = true, true
			// Last of all, once the recording is closed and the live
			// view (which reads it for Save HAR) has stopped.
			defer removeTempRecording(stderr, o)
		}
		if lv, err = startWeb(ctx, o, args); err != nil {
			ln.Close()
			return err
		}
		defer lv.Stop()
		cfg.Live = lv.Observer()
	}
	if o.record != "" {
		// Created only once the address is ours: a second proxy started by
		// mistake must not truncate the first one's recording.
		f, err := os.Create(o.record)
		if err != nil {
			ln.Close()
			return harnessErr(fmt.Errorf("create the recording: %w", err))
		}
		defer f.Close()
		cfg.Record = f
		if o.noRedact {
			cfg.Record = recording.KeepSecrets(f)
		}
	}
	p, err := proxy.New(cfg)
	if err != nil {
		ln.Close()
		return usageErr("%v", err)
	}
	if lv != nil {
		lv.Start(p)
	}
	started := time.Now()
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, TLSConfig: tlsCfg,
		// HTTP/2 off: WebSockets upgrade over HTTP/1.1.
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
		ErrorLog:     log.New(io.Discard, "", 0)}
	served := make(chan error, 1)
	go func() {
		if tlsCfg != nil {
			served <- srv.ServeTLS(ln, "", "")
		} else {
			served <- srv.Serve(ln)
		}
	}()
	webURL := ""
	if lv != nil {
		webURL = lv.URL
	}
	if err := announce(stdout, stderr, o, netguard.Dialable(ln.Addr().String()), p.Upstream(), webURL, tlsCfg != nil); err != nil {
		_ = srv.Close()
		_ = p.Shutdown(context.Background())
		return harnessErr(err)
	}
	if tempRec {
		announceTempRecording(stderr, o)
	}
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
	}
	return finish(stdout, stderr, o, args, srv, p, started, serveErr)
}

// announce prints the ready line on stdout and the banner on stderr, and
// warns (without failing: the upstream may come up later) when the
// upstream is not reachable yet or the listener is not on loopback.
func announce(stdout, stderr io.Writer, o options, addr, upstream, webURL string, tlsOn bool) error {
	ws, web := "ws://", "http://"
	if tlsOn {
		ws, web = "wss://", "https://"
	}
	l := listening{Type: "listening", URL: ws + addr, HTTP: web + addr, Upstream: upstream, Dialect: o.dialect,
		Record: o.record, Faults: o.faults, Web: webURL}
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", b); err != nil {
		return fmt.Errorf("print the listening line: %w", err)
	}
	p := console.New(stderr, o.color)
	p.Bold("wsproxy")
	p.Printf(" %s → %s", ws+addr, upstream)
	p.Dim(" · dialect %s", o.dialect)
	if o.record != "" {
		p.Dim(" · recording %s", o.record)
	}
	p.Printf("\n")
	if webURL != "" {
		p.Bold("live view")
		p.Printf(" %s\n", webURL)
	}
	if host, _, err := net.SplitHostPort(o.listen); err == nil && !isLoopback(host) {
		p.Warn("warning: listening on %s, reachable from other machines\n", o.listen)
	}
	if err := probe(upstream); err != nil {
		p.Warn("warning: the upstream is not reachable yet (%v); connections fail until it is\n", err)
	}
	return nil
}

// probe tries a TCP connection to the upstream.
func probe(upstream string) error {
	host := strings.TrimPrefix(strings.TrimPrefix(upstream, "ws://"), "wss://")
	if i := strings.IndexByte(host, '/'); i >= 0 {
		host = host[:i]
	}
	if _, _, err := net.SplitHostPort(host); err != nil {
		port := "80"
		if strings.HasPrefix(upstream, "wss://") {
			port = "443"
		}
		host = net.JoinHostPort(strings.Trim(host, "[]"), port)
	}
	c, err := net.DialTimeout("tcp", host, 500*time.Millisecond)
	if err != nil {
		return err
	}
	return c.Close()
}

// finish shuts down (close 1001 to every connection, drain, flush), writes
// the reports and the summary, and decides the exit code.
func finish(stdout, stderr io.Writer, o options, args []string, srv *http.Server, p *proxy.Proxy, started time.Time, serveErr error) error {
	// Both at once: the server stops accepting and lets plain HTTP requests
	// finish, while the proxy ends its WebSocket connections and the
	// upstream handshakes in progress (which the server would wait for).
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srvDone := make(chan struct{})
	go func() { _ = srv.Shutdown(ctx); close(srvDone) }()
	shutErr := p.Shutdown(ctx)
	<-srvDone
	_ = srv.Close()
	r := p.Report()
	r.Started = started
	r.Command = "wsproxy " + strings.Join(args, " ")
	var errs []error
	var written []string
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		errs = append(errs, fmt.Errorf("serve: %w", serveErr))
	}
	if shutErr != nil {
		r.Errors = append(r.Errors, shutErr.Error())
		r.Tally()
	}
	out := r // what the files show: r redacted unless --no-redact
	if !o.noRedact {
		out = reports.Redact(r)
	}
	for _, w := range []struct {
		path  string
		write func(io.Writer, *reports.Report) error
		kind  string
	}{{o.json, reports.WriteJSON, "JSON report"}, {o.html, reports.WriteHTML, "HTML report"},
		{o.junit, reports.WriteJUnit, "JUnit XML"}, {o.markdown, reports.WriteMarkdown, "Markdown summary"}} {
		if w.path == "" {
			continue
		}
		if err := writeFile(w.path, out, w.write); err != nil {
			errs = append(errs, err)
			continue
		}
		written = append(written, cli.Written(w.kind, w.path))
	}
	if err := reports.AppendStepSummary(out); err != nil {
		errs = append(errs, err)
	}
	p.PrintSummary(r)
	con := console.New(stderr, o.color)
	if o.record != "" && !o.tempRecord {
		con.Dim("%s (judge it again: wsconform validate %s)\n", cli.Written("recording", o.record), o.record)
	}
	for _, line := range written {
		con.Dim("%s\n", line)
	}
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		con.Dim("appended the Markdown summary to $GITHUB_STEP_SUMMARY (%s)\n", path)
	}
	e, wn, i := p.Counts()
	b, _ := json.Marshal(finished{Type: "finished", Verdict: r.Verdict, Sessions: len(r.Sessions), Errors: e, Warnings: wn, Infos: i})
	fmt.Fprintf(stdout, "%s\n", b)
	if err := p.RecordingErr(); err != nil {
		errs = append(errs, fmt.Errorf("the recording is incomplete: %w", err))
	}
	if len(errs) > 0 {
		return harnessErr(errors.Join(errs...))
	}
	if o.strict {
		switch {
		case r.Verdict == reports.Error:
			return harnessErr(fmt.Errorf("verdict error: %s", errorVerdictWhy(r)))
		case e > 0 || r.Verdict == reports.Failed:
			return errFailed
		}
	}
	return nil
}

// errorVerdictWhy says in one line why a report's verdict is error.
func errorVerdictWhy(r *reports.Report) string {
	n := 0
	var rules []string
	for _, s := range r.Sessions {
		if s.Verdict == reports.Error {
			n += max(len(s.Findings), 1)
			for _, f := range s.Findings {
				if !slices.Contains(rules, f.Rule) {
					rules = append(rules, f.Rule)
				}
			}
		}
	}
	var parts []string
	if n > 0 {
		parts = append(parts, fmt.Sprintf("%d handshakes or requests refused or failed (%s)", n, strings.Join(rules, ", ")))
	}
	parts = append(parts, r.Errors...)
	if len(parts) == 0 {
		return "see the report"
	}
	return strings.Join(parts, "; ")
}

func writeFile(path string, r *reports.Report, write func(io.Writer, *reports.Report) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if err := write(f, r); err != nil {
		f.Close()
		return fmt.Errorf("write report %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write report %s: %w", path, err)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// runCompletion prints the completion script of a shell, generated from
// the flag set wsproxy parses.
func runCompletion(args []string, stdout io.Writer) error {
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		fmt.Fprint(stdout, `Usage: wsproxy completion bash|zsh|fish

Prints a shell completion script for wsproxy's flags:
  bash:  source <(wsproxy completion bash)
  zsh:   wsproxy completion zsh > "${fpath[1]}/_wsproxy"
  fish:  wsproxy completion fish > ~/.config/fish/completions/wsproxy.fish
`)
		return nil
	}
	if len(args) != 1 {
		return usageErr("completion: name one shell: bash, zsh or fish")
	}
	if err := completion.Write(stdout, args[0], "wsproxy", completionCommands(), completionChoices()); err != nil {
		return usageErr("completion: %v", err)
	}
	return nil
}

func completionCommands() []completion.Command {
	var o options
	return []completion.Command{{Flags: newFlagSet(&o)}}
}

func completionChoices() map[string][]string {
	return map[string][]string{
		"dialect": append(dialect.Names(), "auto"),
		"color":   {console.ColorAuto, console.ColorAlways, console.ColorNever},
		"host":    {proxy.HostKeep, proxy.HostUpstream},
		"origin":  {proxy.OriginKeep, proxy.OriginUpstream},
	}
}
