package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/wsconform/wsconform/cmd/internal/cli"
	"io"
	"log/slog"
	"net"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/netguard"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/agent"
	"github.com/wsconform/wsconform/reference/server"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "[--dialect NAME|all] [--listen ADDR] [--fault SPEC]... [--mutate NAME]... | --replay FILE [--pace fast|original] [--ignore MASK]... [--loop]", serveAbout(), stdout)
	names := fs.StringSlice("dialect", []string{"all"}, "dialects to serve, or all ("+strings.Join(dialect.Names(), ", ")+"); several are mounted under /<dialect>/")
	listen := fs.String("listen", reference.DefaultListen, "address to listen on; port 0 picks a free port")
	faults := fs.StringArray("fault", nil, "inject a fault into every connection (repeatable; see above)")
	mutate := fs.StringArray("mutate", nil, "commit a deliberate spec violation (repeatable; --list-mutations shows them)")
	listMut := fs.Bool("list-mutations", false, "print the mutations of the chosen dialects and exit")
	seed := fs.Uint64("seed", 1, "seed for jitter faults")
	maxFrame := fs.Int64("max-frame", 1<<20, "largest client message handled in bytes; larger ones get the dialect's error")
	window := fs.Int("replay-window", 1000, "events kept per session for replay")
	maxSessions := fs.Int("max-sessions", server.DefaultMaxSessions, "sessions kept for clients that come back after their last connection closed, the one left longest forgotten first (-1: no limit)")
	sessionTTL := fs.Duration("session-ttl", server.DefaultSessionTTL, "how long a session without a connection is kept for a client that comes back (negative: no limit)")
	heartbeat := fs.Duration("heartbeat", 15*time.Second, "heartbeat interval of dialects that have one; 0 disables")
	chunk := fs.Duration("chunk-delay", 0, "pause between streamed chunks of an ordinary reply")
	slow := fs.Duration("slow-delay", 100*time.Millisecond, "pause between chunks of a /slow reply")
	promptTimeout := fs.Duration("prompt-timeout", 5*time.Minute, "how long a question to the user waits before it is dismissed")
	user := fs.String("user", server.DefaultAuth.User, "hostd: login user")
	password := fs.String("password", server.DefaultAuth.Password, "hostd: login password")
	hostToken := fs.String("host-token", server.DefaultAuth.HostToken, "hostd: token host daemons present")
	noHost := fs.Bool("no-scripted-host", false, "hostd: do not connect the scripted host daemon (a real host, or a test, plays the host)")
	allowOrigins := fs.StringArray("allow-origin", nil, "also accept browser handshakes from `ORIGIN` (scheme://host[:port], repeatable or comma-separated; * accepts any); other cross-origin pages get 403")
	allowHosts := fs.StringArray("allow-host", nil, "also accept requests whose Host is `NAME` (repeatable; * accepts any); others get 403 (DNS rebinding)")
	maxConns := fs.Int("max-conns", defaultServeMaxConns, "WebSocket connections served at once (-1: no limit); one more gets 503")
	idleTimeout := fs.Duration("idle-timeout", defaultServeIdle, "close (1001) a connection whose client sent no frame for this long (negative: never)")
	verbose := fs.Bool("verbose", false, "log connections to stderr")
	var rf replayFlags
	rf.addFlags(fs)
	protocol := fs.String("protocol", "", "with --replay: the recording is of the protocol the AsyncAPI 3.0 document `FILE` describes (wsproxy --protocol recorded it); its client frames are judged by it")
	loop := fs.Bool("loop", false, "with --replay: once every recorded connection was used, serve the recording again from the start (without it: 410)")
	colorMode := fs.String("color", console.ColorAuto, "with --replay: color of the live log on stderr: auto, always or never")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("serve: unexpected argument %q", fs.Arg(0))
	}
	if err := rf.check("serve", fs); err != nil {
		return err
	}
	if *protocol != "" {
		if rf.path == "" {
			return usageErr("serve: --protocol needs --replay FILE: an imported protocol has no reference server")
		}
		name, err := cli.Protocol(*protocol, stderr)
		if err != nil {
			return usageErr("serve: --protocol: %v", err)
		}
		rf.dialect = name
	}
	if rf.path != "" {
		for _, name := range []string{"dialect", "fault", "mutate", "list-mutations"} {
			if fs.Changed(name) {
				return usageErr("serve: --%s does not apply to --replay (the recording is served as it is, in its own dialect)", name)
			}
		}
		guard, err := serveGuard(*listen, *allowOrigins, *allowHosts, *maxConns, *idleTimeout)
		if err != nil {
			return err
		}
		return serveReplay(ctx, *listen, guard, rf, *loop, *colorMode, stdout, stderr)
	}
	served, err := servedDialects(*names)
	if err != nil {
		return err
	}
	if *listMut {
		return printMutations(stdout, served)
	}
	specs, err := fault.ParseAll(*faults)
	if err != nil {
		return usageErr("serve: %v", err)
	}
	guard, err := serveGuard(*listen, *allowOrigins, *allowHosts, *maxConns, *idleTimeout)
	if err != nil {
		return err
	}
	if _, err := server.ParseMutations(*mutate, offeredMutations(served)); err != nil {
		return usageErr("serve: %v", err)
	}
	if *maxSessions == 0 || *maxSessions < -1 {
		return usageErr("serve: --max-sessions must be positive, or -1 for no limit")
	}
	if *sessionTTL == 0 {
		return usageErr("serve: --session-ttl must be positive, or negative for no limit")
	}
	hb := *heartbeat
	if hb == 0 {
		hb = -1
	}
	opts := reference.Options{
		Dialects:       served,
		Mutate:         *mutate,
		NoScriptedHost: *noHost,
		Config: server.Config{
			Faults: specs, Seed: *seed, MaxFrame: *maxFrame, ReplayWindow: *window,
			MaxSessions: *maxSessions, SessionTTL: *sessionTTL,
			Heartbeat: hb, Chunk: *chunk, Slow: *slow, PromptTimeout: *promptTimeout,
			Auth:  server.Auth{User: *user, Password: *password, HostToken: *hostToken},
			Guard: guard,
		},
	}
	if *verbose {
		opts.Log = verboseLog(stderr)
	}
	return serve(ctx, *listen, opts, stdout, stderr)
}

// serve runs the server until ctx ends (SIGINT, SIGTERM).
func serve(ctx context.Context, listen string, opts reference.Options, stdout, stderr io.Writer) error {
	srv, err := reference.Start(ctx, listen, opts)
	if err != nil {
		return harnessErr(fmt.Errorf("serve: %w", err))
	}
	if host, _, err := net.SplitHostPort(listen); err == nil && !isLoopback(host) {
		fmt.Fprintf(stderr, "wsconform: warning: listening on %s, reachable from other machines\n", listen)
	}
	if err := printListening(stdout, srv, opts); err != nil {
		_ = srv.Shutdown(context.Background())
		return harnessErr(err)
	}
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return harnessErr(fmt.Errorf("serve: %w", err))
	}
	return nil
}

// Defaults of serve's guard: generous for a developer's machine, bounded
// against a runaway client (each connection costs two goroutines and a
// send queue).
const (
	defaultServeMaxConns = 1024
	defaultServeIdle     = 2 * time.Minute
)

// serveGuard is who may talk to `wsconform serve`: same-origin browser
// pages (plus --allow-origin), requests whose Host is the listen address,
// an IP or localhost (plus --allow-host), --max-conns at once, and no
// connection that stays silent for --idle-timeout.
func serveGuard(listen string, origins, hosts []string, maxConns int, idle time.Duration) (server.Guard, error) {
	origins, err := netguard.ParseOrigins("--allow-origin", origins)
	if err != nil {
		return server.Guard{}, usageErr("serve: %v", err)
	}
	for _, h := range hosts {
		if h == "" || strings.ContainsAny(h, "/ ") {
			return server.Guard{}, usageErr("serve: --allow-host %q is not a host name or *", h)
		}
	}
	switch {
	case maxConns == 0 || maxConns < -1:
		return server.Guard{}, usageErr("serve: --max-conns must be positive, or -1 for no limit")
	case idle == 0:
		return server.Guard{}, usageErr("serve: --idle-timeout must be positive, or negative for never")
	}
	g := server.Guard{SameOrigin: true, AllowOrigins: origins, CheckHost: true, Listen: listen, AllowHosts: hosts,
		MaxConns: max(maxConns, 0), IdleTimeout: max(idle, 0)}
	return g, nil
}

// listening is the one JSON line serve prints when it is ready.
type listening struct {
	Type      string              `json:"type"`
	URL       string              `json:"url"`
	Dialects  []string            `json:"dialects"`
	Endpoints map[string][]string `json:"endpoints"`
	Mutations []string            `json:"mutations,omitempty"`
	Faults    []string            `json:"faults,omitempty"`
	// Replay and Pace are set by serve --replay: the recording served.
	Replay string `json:"replay,omitempty"`
	Pace   string `json:"pace,omitempty"`
}

func printListening(w io.Writer, srv *reference.Server, opts reference.Options) error {
	l := listening{Type: "listening", URL: srv.URL, Dialects: srv.Dialects, Endpoints: map[string][]string{}, Mutations: opts.Mutate}
	for _, d := range srv.Dialects {
		l.Endpoints[d] = srv.Endpoints(d)
	}
	for _, f := range opts.Faults {
		l.Faults = append(l.Faults, f.Text)
	}
	return printJSONLine(w, l)
}

// printJSONLine prints the listening line.
func printJSONLine(w io.Writer, l listening) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func servedDialects(names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		if n == "all" {
			return dialect.Names(), nil
		}
		if !dialect.Known(n) {
			return nil, usageErr("serve: unknown dialect %q (known: %s, or all)", n, strings.Join(dialect.Names(), ", "))
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, usageErr("serve: --dialect needs a name")
	}
	return out, nil
}

func offeredMutations(dialects []string) []server.Mutation {
	var out []server.Mutation
	for _, d := range dialects {
		out = append(out, reference.Mutations(d)...)
	}
	return out
}

func printMutations(w io.Writer, dialects []string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, m := range offeredMutations(dialects) {
		fmt.Fprintf(tw, "%s\t%s\t(%s)\n", m.Name, m.Summary, m.Fires())
	}
	return tw.Flush()
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func serveAbout() string {
	var b strings.Builder
	b.WriteString("Runs the reference server of every dialect (or the chosen ones) on loopback. When it is\n" +
		"ready it prints one JSON line on stdout:\n" +
		"  {\"type\":\"listening\",\"url\":\"ws://127.0.0.1:7337\",\"dialects\":[...],\"endpoints\":{...}}\n" +
		"and it shuts down cleanly (close 1001 to every client) on SIGINT or SIGTERM.\n\n" +
		"Browser pages from another origin are refused (403) unless --allow-origin lists them, and\n" +
		"so is a request whose Host is a name other than the listen address (DNS rebinding; IPs\n" +
		"and localhost always pass) unless --allow-host lists it. --max-conns bounds the\n" +
		"connections served at once (503 beyond), --idle-timeout closes silent ones (1001).\n\n" +
		"Sessions outlive their connections so that a client can come back and resume (its replay\n" +
		"window, up to --replay-window events each). --max-sessions (default 256) bounds those kept\n" +
		"without a connection and --session-ttl (default 10m) how long: the one left longest is\n" +
		"forgotten first, and a client back later finds its session unknown (mitto: a new, empty\n" +
		"session under its id). coworker keeps nothing once a connection closes; hostd keeps runs,\n" +
		"the last --replay-window of them.\n\n" +
		"The scripted agent answers the user's text:\n")
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, c := range agent.Commands {
		fmt.Fprintf(tw, "  %s\t%s\n", c.Syntax, c.Summary)
	}
	_ = tw.Flush()
	b.WriteString("\nFaults (--fault SPEC, or per connection with the query parameter ?fault=SPEC):\n")
	tw = tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, k := range fault.Kinds {
		fmt.Fprintf(tw, "  %s\t%s\n", k.Syntax, k.Summary)
	}
	_ = tw.Flush()
	b.WriteString("\nWith --replay FILE it serves a recording's server side instead (a fixture for UI work):\n" +
		"each client connection takes the next unused recorded connection on its path and gets the\n" +
		"recorded server frames (--pace fast or original); each client frame is compared with the\n" +
		"recorded client's (volatile members and --ignore masks aside; ids the client mints may\n" +
		"differ when used consistently), and a difference, a frame that never comes within --wait\n" +
		"or one the recording lacks is printed live as replay.client-mismatch. The recorded ending\n" +
		"is reproduced (the server's close code, or a cut TCP connection). Once every recorded\n" +
		"connection was used a further one gets 410, or the recording again with --loop. A summary\n" +
		"is printed on exit. `wsconform gate --replay FILE -- CMD` is the same as a CI gate.\n")
	return strings.TrimRight(b.String(), "\n")
}

// verboseLog is serve --verbose's log. slog's TextHandler quotes a value
// with a control or non-printable character, but not one with DEL, so
// every text (message, string and error values) goes through
// console.Escape first: what a client put in a path or an error is shown,
// never obeyed (TestServeLogEscapes).
func verboseLog(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if k := a.Value.Kind(); k == slog.KindString || k == slog.KindAny {
			a.Value = slog.StringValue(console.Escape(a.Value.String()))
		}
		return a
	}}))
}
