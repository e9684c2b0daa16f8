package hostd_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestSocketAuth: refused credentials are closed after the upgrade with
// 4401 (or 4400 for a missing host_id), so a browser sees why.
func TestSocketAuth(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	tests := []struct {
		name, path string
		code       int
	}{
		{"app without token", "/ws/app", 4401},
		{"app with empty token", "/ws/app?token=", 4401},
		{"app with unknown token", "/ws/app?token=at_forged", 4401},
		{"app with the host token", "/ws/app?token=" + hostToken, 4401},
		{"host without token", "/ws/host?host_id=h1", 4401},
		{"host with wrong token", "/ws/host?host_id=h1&host_token=nope", 4401},
		{"host with an access token", "/ws/host?host_id=h1&host_token=" + tok, 4401},
		{"host without host_id", "/ws/host?host_token=" + hostToken, 4400},
	}
	for _, tt := range tests {
		c := srv.Dial(t, tt.path, reftest.Group(tt.name))
		if code, reason := c.Closed(); code != tt.code || reason == "" {
			t.Errorf("%s: closed %d %q, want %d with a reason", tt.name, code, reason, tt.code)
		}
	}
	// Non-browser clients may send the token as a Bearer header instead.
	app := srv.Dial(t, "/ws/app", reftest.Header(http.Header{"Authorization": {"Bearer " + tok}}))
	host := dialHost(t, srv, "h1", "")
	sendAcked(t, host, started("r1", 1))
	app.Expect("run.started")
}

// TestFanout: every app gets each event once, with the host's seq and
// data and the server's envelope; the host gets run.ack after each.
func TestFanout(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	apps := []*reftest.Client{dialApp(t, srv, tok, ""), dialApp(t, srv, tok, "")}
	host := dialHost(t, srv, "laptop", "")
	subscribed(t, host, apps...)
	withExtras := started("run_1", 1)
	withExtras["ts"] = "2025-01-01T00:00:00Z"
	withExtras["host_id"] = "spoofed"
	withExtras["session"] = "unknown envelope members are ignored"
	withExtras["data"].(map[string]any)["pid"] = 4242
	acks := sendAcked(t, host,
		withExtras,
		output("run_1", 2, "hello\n"),
		ev("run.awaiting_input", "run_1", 3, map[string]any{"reason": "permission", "prompt": "Allow? [y/N]"}),
		ev("run.input", "run_1", 4, map[string]any{"actor": "web", "input_id": uuid(1), "text_redacted": "y", "text_sha256": sum("y\n")}),
		exited("run_1", 5, 0),
	)
	if !reflect.DeepEqual(acks, []int64{1, 2, 3, 4, 5}) { // run_1's, after sync's
		t.Errorf("acks %v", acks)
	}
	for _, app := range apps {
		got := app.ExpectSeq("run.started", "run.output", "run.awaiting_input", "run.input", "run.exited")
		if s := seqs(got); !reflect.DeepEqual(s, []int64{1, 2, 3, 4, 5}) {
			t.Errorf("app seqs %v", s)
		}
		first := got[0]
		if first.Str("/host_id") != "laptop" || first.Str("/ts") != "2025-01-01T00:00:00Z" || first.Has("/session") || first.Int("/data/pid") != 4242 {
			t.Errorf("relayed run.started %s", first.Raw)
		}
		if got[1].Str("/data/text") != "hello\n" || got[1].Str("/ts") == "" {
			t.Errorf("relayed run.output %s", got[1].Raw)
		}
	}
}

// TestStop: run.stop from an app reaches the owning host only, signal
// defaulting to term; stops the server cannot forward are dropped.
func TestStop(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	h1, h2 := dialHost(t, srv, "h1", ""), dialHost(t, srv, "h2", "")
	sendAcked(t, h1, started("r1", 1))
	sendAcked(t, h2, started("r2", 1))
	app := dialApp(t, srv, tok, "")
	app.Send(stop("r_unknown", map[string]any{}))
	app.Send(stop("r2", map[string]any{"signal": "SIGINT"}))
	app.Send(stop("r1", map[string]any{}))
	m := h1.Expect("run.stop")
	if m.Str("/run_id") != "r1" || m.Str("/data/signal") != "term" || m.Str("/host_id") != "h1" {
		t.Errorf("stop %s", m.Raw)
	}
	app.Send(stop("r2", map[string]any{"signal": "kill", "reason": "unknown members are ignored"}))
	if m := h2.Next(); m.Type != "run.stop" || m.Str("/data/signal") != "kill" {
		t.Errorf("h2 got %s, want the kill (the SIGINT stop is refused)", m.Raw)
	}
	// After run.exited, a stop is not forwarded.
	sendAcked(t, h1, exited("r1", 2, 143))
	app.Send(stop("r1", map[string]any{}))
	app.Send(sendInput("r2", uuid(1), "x\n"))
	if m := h2.Expect("run.send_input"); m.Str("/data/input_id") != uuid(1) {
		t.Errorf("h2 got %s", m.Raw)
	}
	app.Expect("run.exited")
}

// TestSendInputOverSocket: an app may send run.send_input on /ws/app; it
// is forwarded once per input_id like the HTTP endpoint.
func TestSendInputOverSocket(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	host := dialHost(t, srv, "h1", "")
	sendAcked(t, host, started("r1", 1))
	app := dialApp(t, srv, tok, "")
	app.Send(sendInput("r1", uuid(1), "a\n"))
	app.Send(sendInput("r1", uuid(1), "a\n"))
	app.Send(sendInput("r1", uuid(2), "b\n"))
	got := host.ExpectSeq("run.send_input", "run.send_input")
	if got[0].Str("/data/input_id") != uuid(1) || got[1].Str("/data/input_id") != uuid(2) {
		t.Errorf("forwarded %s then %s", got[0].Raw, got[1].Raw)
	}
	if r := postInput(t, srv, tok, "r1", uuid(2), "b\n"); r.str("status") != "duplicate" {
		t.Errorf("HTTP after WS: %d %s", r.status, r.raw)
	}
}

// TestLateApp: an app that connects late gets the retained events of each
// run in seq order, runs in start order, then live events; run_id= and
// host_id= narrow what it gets.
func TestLateApp(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	h1, h2 := dialHost(t, srv, "h1", ""), dialHost(t, srv, "h2", "")
	sendAcked(t, h1, started("a", 1), output("a", 2, "x"))
	sendAcked(t, h2, started("b", 10), output("b", 11, "y"), exited("b", 12, 0))
	sendAcked(t, h1, output("a", 3, "z"))

	all := dialApp(t, srv, tok, "")
	got := all.ExpectSeq("run.started", "run.output", "run.output", "run.started", "run.output", "run.exited")
	if s := seqs(got); !reflect.DeepEqual(s, []int64{1, 2, 3, 10, 11, 12}) {
		t.Errorf("late app seqs %v", s)
	}
	onlyB := dialApp(t, srv, tok, "&run_id=b")
	onlyH1 := dialApp(t, srv, tok, "&host_id=h1")
	if s := seqs(onlyB.ExpectSeq("run.started", "run.output", "run.exited")); !reflect.DeepEqual(s, []int64{10, 11, 12}) {
		t.Errorf("run_id=b seqs %v", s)
	}
	if s := seqs(onlyH1.ExpectSeq("run.started", "run.output", "run.output")); !reflect.DeepEqual(s, []int64{1, 2, 3}) {
		t.Errorf("host_id=h1 seqs %v", s)
	}
	sendAcked(t, h2, started("c", 1))
	sendAcked(t, h1, output("a", 4, "live"))
	if m := all.Next(); m.Str("/run_id") != "c" {
		t.Errorf("all got %s, want run c", m.Raw)
	}
	if m := all.Next(); m.Int("/seq") != 4 {
		t.Errorf("all got %s, want a seq 4", m.Raw)
	}
	if m := onlyH1.Next(); m.Str("/run_id") != "a" || m.Int("/seq") != 4 {
		t.Errorf("host_id=h1 got %s, want a seq 4 only", m.Raw)
	}
	h2.Send(output("b", 13, "after exit"))
	if m := onlyB.Next(); m.Int("/seq") != 13 {
		t.Errorf("run_id=b got %s", m.Raw)
	}
}

// TestLateAppBudget: a late app is sent at most half a send queue of
// events, the newest runs and events first, so it is never disconnected
// for its replay.
func TestLateAppBudget(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{QueueSize: 16})
	tok := login(t, srv)
	host := dialHost(t, srv, "h1", "")
	host.Send(started("old", 1))
	for i := int64(1); i <= 10; i++ {
		host.Send(output("new", i, "x"))
	}
	for i := 0; i < 11; i++ {
		host.Expect("run.ack")
	}
	app := dialApp(t, srv, tok, "")
	got := app.ExpectSeq("run.output", "run.output", "run.output", "run.output", "run.output", "run.output", "run.output", "run.output")
	if s := seqs(got); !reflect.DeepEqual(s, []int64{3, 4, 5, 6, 7, 8, 9, 10}) || got[0].Str("/run_id") != "new" {
		t.Errorf("replay %v of run %s", s, got[0].Str("/run_id"))
	}
	sendAcked(t, host, output("old", 2, "live"))
	if m := app.Next(); m.Str("/run_id") != "old" || m.Int("/seq") != 2 {
		t.Errorf("live after replay: %s", m.Raw)
	}
}

// TestSpoolReplay: after a reconnect the host replays its spool; the
// server acks every event but relays only seqs the apps do not have.
func TestSpoolReplay(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	app := dialApp(t, srv, tok, "")
	h1 := dialHost(t, srv, "h1", "")
	if acks := sendAcked(t, h1, started("r", 1), output("r", 2, "a"), output("r", 3, "b")); !reflect.DeepEqual(acks, []int64{1, 2, 3}) {
		t.Fatalf("acks %v", acks)
	}
	app.ExpectSeq("run.started", "run.output", "run.output")
	h1.Drop()
	// The host lost the ack of 3 with the connection: it replays 3, then
	// goes on with events generated while offline.
	h2 := dialHost(t, srv, "h1", "")
	acks := sendAcked(t, h2, output("r", 3, "b"), output("r", 4, "c"), output("r", 5, "d"))
	if !reflect.DeepEqual(acks, []int64{3, 4, 5}) {
		t.Errorf("acks after reconnect %v", acks)
	}
	if s := seqs(app.ExpectSeq("run.output", "run.output")); !reflect.DeepEqual(s, []int64{4, 5}) {
		t.Errorf("app got seqs %v after the replay", s)
	}
	// A straggler below the last persisted seq (a gap the host filled
	// late) is acknowledged with the last seq and not relayed.
	sendAcked(t, h2, output("r", 8, "e"))
	if a := sendAcked(t, h2, output("r", 7, "late")); a[0] != 8 {
		t.Errorf("ack of a straggler: %v", a)
	}
	sendAcked(t, h2, exited("r", 9, 0))
	if s := seqs(app.ExpectSeq("run.output", "run.exited")); !reflect.DeepEqual(s, []int64{8, 9}) {
		t.Errorf("app got %v", s)
	}
}

// TestEventWithoutSeq: an event without seq is relayed live, not acked.
func TestEventWithoutSeq(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	app := dialApp(t, srv, tok, "")
	host := dialHost(t, srv, "h1", "")
	subscribed(t, host, app)
	host.Send(started("r", -1))
	sendAcked(t, host, output("r", 1, "x"))
	got := app.ExpectSeq("run.started", "run.output")
	if got[0].Has("/seq") || got[1].Int("/seq") != 1 {
		t.Errorf("got %s, %s", got[0].Raw, got[1].Raw)
	}
}

// TestRunBelongsToItsHost: one host cannot write into another host's run.
func TestRunBelongsToItsHost(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	app := dialApp(t, srv, tok, "")
	h1, h2 := dialHost(t, srv, "h1", ""), dialHost(t, srv, "h2", "")
	sendAcked(t, h1, started("r", 1))
	h2.Send(output("r", 2, "intruder"))
	sendAcked(t, h2, started("r2", 1))
	app.Expect("run.started")
	if m := app.Next(); m.Str("/run_id") != "r2" {
		t.Errorf("app got %s, want r2's run.started", m.Raw)
	}
}

// TestInputRedelivery: an input forwarded to a host connection that died
// before the host recorded it goes to the host's next connection.
func TestInputRedelivery(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	h1 := dialHost(t, srv, "h1", "")
	sendAcked(t, h1, started("r", 1))
	if r := postInput(t, srv, tok, "r", uuid(1), "lost?\n"); r.status != http.StatusAccepted {
		t.Fatalf("post: %d %s", r.status, r.raw)
	}
	h1.Expect("run.send_input")
	h1.Drop()
	h2 := dialHost(t, srv, "h1", "")
	if m := h2.Expect("run.send_input"); m.Str("/data/input_id") != uuid(1) {
		t.Errorf("re-delivered %s", m.Raw)
	}
	// Once recorded it is not delivered again.
	sendAcked(t, h2, ev("run.input", "r", 2, map[string]any{"actor": "web", "input_id": uuid(1), "text_redacted": "lost?", "text_sha256": sum("lost?\n")}))
	h2.Drop()
	h3 := dialHost(t, srv, "h1", "")
	h3.Send(output("r", 3, "x"))
	if m := h3.Next(); m.Type != "run.ack" || m.Int("/data/last_seq") != 3 {
		t.Errorf("h3 got %s, want only the ack of seq 3", m.Raw)
	}
}

// TestBoundedMemory: the server remembers ReplayWindow runs (an exited run
// is forgotten first) and ReplayWindow input_ids per run. Forwarding a
// forgotten input_id again is what the checker (with its larger window)
// warns about: expected here.
func TestBoundedMemory(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{ReplayWindow: 3}, "hostd.input-reforwarded")
	tok := login(t, srv)
	host := dialHost(t, srv, "h1", "")
	sendAcked(t, host, started("a", 1), started("b", 1), exited("b", 2, 0), started("c", 1))
	sendAcked(t, host, started("d", 1)) // forgets b, the exited one
	sendAcked(t, host, started("e", 1)) // forgets a, the oldest
	for run, want := range map[string]int{"a": 404, "b": 404, "c": 202, "d": 202, "e": 202} {
		if r := postInput(t, srv, tok, run, uuid(1), "x\n"); r.status != want {
			t.Errorf("input for %s: %d %s, want %d", run, r.status, r.raw, want)
		}
	}
	for i := 2; i <= 4; i++ {
		postInput(t, srv, tok, "c", uuid(i), "x\n")
	}
	// uuid(1) left c's book: it is forwarded again.
	if r := postInput(t, srv, tok, "c", uuid(1), "x\n"); r.status != http.StatusAccepted {
		t.Errorf("forgotten input_id: %d %s", r.status, r.raw)
	}
	app := dialApp(t, srv, tok, "")
	got := app.ExpectSeq("run.started", "run.started", "run.started")
	if got[0].Str("/run_id") != "c" || got[2].Str("/run_id") != "e" {
		t.Errorf("late app got runs %s … %s", got[0].Raw, got[2].Raw)
	}
}
