package hostd_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference/agent"
	"github.com/wsconform/wsconform/reference/hostd"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// runHost runs a ScriptedHost against srv until the test ends.
func runHost(t *testing.T, srv *reftest.Server, opts hostd.HostOptions) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- hostd.RunScriptedHost(ctx, srv.URL, opts) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("scripted host: %v", err)
		}
	})
}

// scripted starts a server, an app and a scripted host, and returns them
// with the host's first run (started, greeting, prompt) read.
func scripted(t *testing.T, cfg server.Config, opts hostd.HostOptions) (*reftest.Server, *reftest.Client, string, string) {
	t.Helper()
	srv := start(t, cfg)
	tok := login(t, srv)
	app := dialApp(t, srv, tok, "")
	if opts.IDs == nil {
		opts.IDs = server.Sequential()
	}
	runHost(t, srv, opts)
	run := expectRunStart(t, app)
	return srv, app, tok, run
}

// expectRunStart reads a run's opening and returns its run_id.
func expectRunStart(t *testing.T, app *reftest.Client) string {
	t.Helper()
	got := app.ExpectSeq("run.started", "run.output", "run.awaiting_input")
	if got[0].Int("/seq") != 1 || got[2].Str("/data/reason") != "prompt" || !strings.Contains(got[1].Str("/data/text"), "scripted agent ready") {
		t.Fatalf("run opening: %s / %s / %s", got[0].Raw, got[1].Raw, got[2].Raw)
	}
	return got[0].Str("/run_id")
}

// say posts an input and returns what the app receives up to and
// including the next run.awaiting_input or run.exited.
func say(t *testing.T, srv *reftest.Server, app *reftest.Client, tok, run, id, text string) []reftest.Msg {
	t.Helper()
	if r := postInput(t, srv, tok, run, id, text); r.status != http.StatusAccepted {
		t.Fatalf("post %q: %d %s", text, r.status, r.raw)
	}
	in := app.Expect("run.input")
	if in.Str("/data/input_id") != id || in.Str("/data/text_sha256") != sum(text) || in.Str("/data/actor") != "web" ||
		in.Str("/data/text_redacted") != strings.TrimRight(text, "\n") {
		t.Fatalf("run.input %s", in.Raw)
	}
	var out []reftest.Msg
	for {
		m := app.Next()
		out = append(out, m)
		if m.Type == "run.awaiting_input" || m.Type == "run.exited" {
			return out
		}
	}
}

// text joins the run.output texts of a stream.
func text(msgs []reftest.Msg, stream string) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.Type == "run.output" && m.Str("/data/stream") == stream {
			b.WriteString(m.Str("/data/text"))
		}
	}
	return b.String()
}

func TestScriptedHost(t *testing.T) {
	t.Parallel()
	srv, app, tok, run := scripted(t, server.Config{}, hostd.HostOptions{})
	n := 0
	next := func() string { n++; return uuid(n) }
	tests := []struct {
		name, input string
		stdout      string
		end, reason string // last message type, awaiting reason
	}{
		{"echo", "hello there\n", "Echo: hello there\n", "run.awaiting_input", "prompt"},
		{"tool asks permission", "/tool shell {\"cmd\":\"ls\"}\n", "", "run.awaiting_input", "permission"},
		{"approved", "y\n", "[shell] shell ran with 1 argument(s)\nTool shell finished.\n", "run.awaiting_input", "prompt"},
		{"tool again", "/tool rm\n", "", "run.awaiting_input", "permission"},
		{"denied", "no\n", "Tool rm was denied; continuing without it.\n", "run.awaiting_input", "prompt"},
		{"exec runs without asking", "/exec read\n", "[read] read ran with 0 argument(s)\nTool read finished.\n", "run.awaiting_input", "prompt"},
		{"confirm question", "/ask Proceed?\n", "", "run.awaiting_input", "choice"},
		{"answer", "yes\n", "You answered: yes\nThanks for answering.\n", "run.awaiting_input", "prompt"},
		{"text question", "/ask text Your name?\n", "", "run.awaiting_input", "prompt"},
		{"text answer", "Ada\n", "You answered: Ada\nThanks for answering.\n", "run.awaiting_input", "prompt"},
		{"think", "/think step by step\n", "step by step\nDone thinking.\n", "run.awaiting_input", "prompt"},
		{"stream", "/stream 3\n", "chunk 1 of 3. chunk 2 of 3. chunk 3 of 3. \n", "run.awaiting_input", "prompt"},
	}
	for _, tt := range tests {
		got := say(t, srv, app, tok, run, next(), tt.input)
		last := got[len(got)-1]
		if out := text(got, "stdout"); out != tt.stdout || last.Type != tt.end || last.Str("/data/reason") != tt.reason {
			t.Errorf("%s: stdout %q, ended %s; want %q, %s %s", tt.name, out, last.Raw, tt.stdout, tt.end, tt.reason)
		}
	}
	// /fail: stderr, exit 1, and a new run.
	got := say(t, srv, app, tok, run, next(), "/fail boom\n")
	if last := got[len(got)-1]; text(got, "stderr") != "error: boom\n" || last.Int("/data/exit_code") != 1 || last.Str("/run_id") != run {
		t.Errorf("/fail: stderr %q, ended %s", text(got, "stderr"), last.Raw)
	}
	run2 := expectRunStart(t, app)
	if run2 == run {
		t.Fatalf("no new run after /fail")
	}
	if r := postInput(t, srv, tok, run, next(), "x\n"); r.status != http.StatusConflict || r.str("error") != "run_exited" {
		t.Errorf("input to the exited run: %d %s", r.status, r.raw)
	}
	// A duplicate input_id is not written twice.
	id := next()
	say(t, srv, app, tok, run2, id, "once\n")
	if r := postInput(t, srv, tok, run2, id, "once\n"); r.status != http.StatusOK || r.str("status") != "duplicate" {
		t.Errorf("duplicate post: %d %s", r.status, r.raw)
	}
	// run.stop: term → 143, kill → 137, each followed by a new run.
	for _, sig := range []struct {
		data map[string]any
		code int64
	}{{map[string]any{}, 143}, {map[string]any{"signal": "kill"}, 137}} {
		app.Send(stop(run2, sig.data))
		m := app.Next()
		if m.Type != "run.exited" || m.Int("/data/exit_code") != sig.code || m.Str("/run_id") != run2 {
			t.Fatalf("stop %v: got %s (the duplicate must not have produced anything)", sig.data, m.Raw)
		}
		run2 = expectRunStart(t, app)
	}
}

// TestScriptedHostStopsSlowStream: a stop lands mid-stream and the rest of
// the stream never comes.
func TestScriptedHostStopsSlowStream(t *testing.T) {
	t.Parallel()
	srv, app, tok, run := scripted(t, server.Config{}, hostd.HostOptions{Pace: agent.Pace{Slow: 20 * time.Millisecond}})
	if r := postInput(t, srv, tok, run, uuid(1), "/slow 50\n"); r.status != http.StatusAccepted {
		t.Fatalf("post: %d", r.status)
	}
	app.Expect("run.input")
	app.Expect("run.output")
	app.Send(stop(run, map[string]any{}))
	for {
		m := app.Next()
		if m.Type == "run.exited" {
			if m.Int("/data/exit_code") != 143 {
				t.Errorf("exited %s", m.Raw)
			}
			break
		}
		if m.Type != "run.output" {
			t.Fatalf("got %s before run.exited", m.Raw)
		}
	}
	expectRunStart(t, app)
}

// TestScriptedHostQueuesInput: input typed while the program is busy is
// recorded at once and read when the program next waits.
func TestScriptedHostQueuesInput(t *testing.T) {
	t.Parallel()
	srv, app, tok, run := scripted(t, server.Config{}, hostd.HostOptions{Pace: agent.Pace{Slow: 10 * time.Millisecond}})
	postInput(t, srv, tok, run, uuid(1), "/slow 5\n")
	postInput(t, srv, tok, run, uuid(2), "queued\n")
	msgs := app.Until("run.awaiting_input")
	msgs = append(msgs, app.Until("run.awaiting_input")...)
	if out := text(msgs, "stdout"); out != "chunk 1 of 5. chunk 2 of 5. chunk 3 of 5. chunk 4 of 5. chunk 5 of 5. \nEcho: queued\n" {
		t.Errorf("stdout %q", out)
	}
}

// TestScriptedHostReconnects: the server drops the host connection every
// few acks; the host reconnects and replays its spool, and the app gets
// every seq exactly once, in order (the checker would flag a duplicate).
func TestScriptedHostReconnects(t *testing.T) {
	t.Parallel()
	q := url.Values{"fault": {"drop-after=4"}}
	srv, app, tok, run := scripted(t, server.Config{}, hostd.HostOptions{Query: q, Retry: time.Millisecond})
	if r := postInput(t, srv, tok, run, uuid(1), "/stream 40\n"); r.status != http.StatusAccepted {
		t.Fatalf("post: %d %s", r.status, r.raw)
	}
	msgs := app.Until("run.awaiting_input")
	want := int64(3) // started, greeting, prompt
	for _, m := range msgs {
		want++
		if m.Int("/seq") != want {
			t.Fatalf("app got seq %d, want %d: %s", m.Int("/seq"), want, m.Raw)
		}
	}
	if out := text(msgs, "stdout"); !strings.HasPrefix(out, "chunk 1 of 40. ") || !strings.HasSuffix(out, "chunk 40 of 40. \n") {
		t.Errorf("stdout %q", out)
	}
}

// TestScriptedHostRefused: wrong credentials end RunScriptedHost with an
// error instead of retrying forever.
func TestScriptedHostRefused(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	err := hostd.RunScriptedHost(context.Background(), srv.HTTP, hostd.HostOptions{HostToken: "wrong"})
	if err == nil || !strings.Contains(err.Error(), "4401") {
		t.Errorf("RunScriptedHost with a wrong token: %v", err)
	}
	if err := hostd.RunScriptedHost(context.Background(), "ftp://x", hostd.HostOptions{}); err == nil {
		t.Error("RunScriptedHost accepted an ftp URL")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := hostd.RunScriptedHost(ctx, "ws://127.0.0.1:1", hostd.HostOptions{}); err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("RunScriptedHost with a canceled ctx: %v", err)
	}
}

// TestDeterminism: the same script on two fresh servers with sequential
// ids and a fixed clock gives byte-identical frames, to the app and to the
// host.
func TestDeterminism(t *testing.T) {
	t.Parallel()
	fixed := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return fixed }
	record := func() (appFrames, hostFrames []string) {
		srv, app, tok, run := scripted(t, server.Config{Now: now}, hostd.HostOptions{Now: now})
		for i, in := range []string{"hi\n", "/tool x\n", "y\n", "/stream 4\n"} {
			for _, m := range say(t, srv, app, tok, run, uuid(i+1), in) {
				appFrames = append(appFrames, string(m.Raw))
			}
		}
		app.Send(stop(run, map[string]any{}))
		appFrames = append(appFrames, string(app.Expect("run.exited").Raw))
		expectRunStart(t, app)
		// A late app's replay: the whole log, as relayed.
		late := dialApp(t, srv, tok, "&host_id=scripted-host")
		for {
			m := late.Next()
			appFrames = append(appFrames, string(m.Raw))
			if m.Type == "run.awaiting_input" && m.Str("/run_id") != run {
				break
			}
		}
		// What a host gets: acks (ts from the server's clock) and commands.
		host := dialHost(t, srv, "test-host", "")
		host.Send(started("t", 1))
		hostFrames = append(hostFrames, string(host.Expect("run.ack").Raw))
		appFrames = append(appFrames, string(app.Expect("run.started").Raw)) // ts stamped by the server
		app.Send(sendInput("t", uuid(9), "x\n"))
		hostFrames = append(hostFrames, string(host.Expect("run.send_input").Raw))
		return appFrames, hostFrames
	}
	a1, h1 := record()
	a2, h2 := record()
	if !reflect.DeepEqual(a1, a2) || !reflect.DeepEqual(h1, h2) {
		t.Errorf("frames differ:\n%v\n%v\n%v\n%v", a1, a2, h1, h2)
	}
	if len(a1) < 20 {
		t.Errorf("only %d frames compared", len(a1))
	}
}

// TestMounted: under /hostd/ (wsconform serve --dialect all) every path
// works, the scripted host included.
func TestMounted(t *testing.T) {
	t.Parallel()
	mount := func(env *server.Env) http.Handler {
		mux := http.NewServeMux()
		mux.Handle("/hostd/", http.StripPrefix("/hostd", hostd.New(env)))
		return mux
	}
	srv := reftest.Start(t, "hostd", mount, reftest.Options{Config: server.Config{Heartbeat: -1}})
	r := do(t, srv, http.MethodPost, "/hostd/auth/login", "", map[string]any{"username": "demo", "password": "demo"})
	tok := r.str("access_token")
	app := srv.Dial(t, "/hostd/ws/app?token="+tok)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- hostd.RunScriptedHost(ctx, srv.HTTP+"/hostd/", hostd.HostOptions{}) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	run := expectRunStart(t, app)
	in := do(t, srv, http.MethodPost, "/hostd/runs/"+run+"/input", "Bearer "+tok, map[string]any{"input_id": uuid(1), "text": "hi\n"})
	if in.status != http.StatusAccepted {
		t.Fatalf("input: %d %s", in.status, in.raw)
	}
	if out := text(app.Until("run.awaiting_input"), "stdout"); out != "Echo: hi\n" {
		t.Errorf("stdout %q", out)
	}
}
