package hostd_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/hostd"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestBadInput: what no hostd message can be, or what the server cannot
// act on, is dropped (hostd-mvp.md defines no error message); the
// connection stays open and the server's state unchanged, which the next
// valid message proves.
func TestBadInput(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{MaxFrame: 1024})
	tok := login(t, srv)
	host := dialHost(t, srv, "h1", "")
	sendAcked(t, host, started("r", 1))
	app := dialApp(t, srv, tok, "")
	app.Expect("run.started")

	binary := func(c *reftest.Client) {
		c.SendFrame(websocket.BinaryMessage, []byte(`{"type":"run.stop","run_id":"r","data":{}}`))
	}
	oversize := func(c *reftest.Client) { c.Send(`{"type":"run.output","pad":"` + strings.Repeat("x", 3000) + `"}`) }
	raw := func(s string) func(*reftest.Client) { return func(c *reftest.Client) { c.Send(s) } }
	hostCases := []struct {
		name string
		send func(*reftest.Client)
	}{
		{"binary frame", binary},
		{"oversize frame", oversize},
		{"invalid JSON", raw(`{"type":"run.output",`)},
		{"two JSON values", raw(`{} {}`)},
		{"not an object", raw(`["run.output"]`)},
		{"null", raw(`null`)},
		{"type missing", raw(`{"run_id":"r","seq":2,"data":{"stream":"stdout","text":"x"}}`)},
		{"type not a string", raw(`{"type":7,"run_id":"r","seq":2,"data":{}}`)},
		{"unknown type", raw(`{"type":"run.paused","run_id":"r","seq":2,"data":{}}`)},
		{"command from a host", raw(`{"type":"run.stop","run_id":"r","data":{}}`)},
		{"ack from a host", raw(`{"type":"run.ack","data":{"run_id":"r","last_seq":9}}`)},
		{"run_id missing", raw(`{"type":"run.output","seq":2,"data":{"stream":"stdout","text":"x"}}`)},
		{"run_id empty", raw(`{"type":"run.output","run_id":"","seq":2,"data":{"stream":"stdout","text":"x"}}`)},
		{"run_id not a string", raw(`{"type":"run.output","run_id":5,"seq":2,"data":{"stream":"stdout","text":"x"}}`)},
		{"data missing", raw(`{"type":"run.output","run_id":"r","seq":2}`)},
		{"data not an object", raw(`{"type":"run.output","run_id":"r","seq":2,"data":"x"}`)},
		{"seq negative", raw(`{"type":"run.output","run_id":"r","seq":-1,"data":{"stream":"stdout","text":"x"}}`)},
		{"seq fractional", raw(`{"type":"run.output","run_id":"r","seq":2.5,"data":{"stream":"stdout","text":"x"}}`)},
		{"seq a string", raw(`{"type":"run.output","run_id":"r","seq":"2","data":{"stream":"stdout","text":"x"}}`)},
		{"seq too large", raw(`{"type":"run.output","run_id":"r","seq":9007199254740993,"data":{"stream":"stdout","text":"x"}}`)},
		{"stream unknown", raw(`{"type":"run.output","run_id":"r","seq":2,"data":{"stream":"stdlog","text":"x"}}`)},
		{"text missing", raw(`{"type":"run.output","run_id":"r","seq":2,"data":{"stream":"stdout"}}`)},
		{"started without cwd", raw(`{"type":"run.started","run_id":"r","seq":2,"data":{"tool":"x","command":"x"}}`)},
		{"reason unknown", raw(`{"type":"run.awaiting_input","run_id":"r","seq":2,"data":{"reason":"confirm"}}`)},
		{"prompt not a string", raw(`{"type":"run.awaiting_input","run_id":"r","seq":2,"data":{"reason":"prompt","prompt":1}}`)},
		{"exit_code not an integer", raw(`{"type":"run.exited","run_id":"r","seq":2,"data":{"exit_code":"0"}}`)},
		{"input_id not a UUID", raw(`{"type":"run.input","run_id":"r","seq":2,"data":{"actor":"web","input_id":"1","text_redacted":"","text_sha256":"` + sum("") + `"}}`)},
		{"sha256 upper case", raw(`{"type":"run.input","run_id":"r","seq":2,"data":{"actor":"web","input_id":"` + uuid(1) + `","text_redacted":"","text_sha256":"` + strings.ToUpper(sum("")) + `"}}`)},
		{"actor unknown", raw(`{"type":"run.input","run_id":"r","seq":2,"data":{"actor":"bot","input_id":"` + uuid(1) + `","text_redacted":"","text_sha256":"` + sum("") + `"}}`)},
	}
	for i, tt := range hostCases {
		run := fmt.Sprintf("case%d", i)
		sendAcked(t, host, started(run, 1))
		app.Expect("run.started")
		tt.send(host)
		host.Send(output(run, 2, tt.name))
		if m := host.Next(); m.Type != "run.ack" || m.Int("/data/last_seq") != 2 || m.Str("/data/run_id") != run {
			t.Fatalf("host, after %s: got %s, want the ack of %s seq 2", tt.name, m.Raw, run)
		}
		if m := app.Next(); m.Str("/data/text") != tt.name || m.Int("/seq") != 2 {
			t.Fatalf("app, after host's %s: got %s", tt.name, m.Raw)
		}
	}

	appCases := []struct {
		name string
		send func(*reftest.Client)
	}{
		{"binary frame", binary},
		{"oversize frame", oversize},
		{"invalid JSON", raw(`{"type":`)},
		{"not an object", raw(`"run.stop"`)},
		{"unknown type", raw(`{"type":"run.pause","run_id":"r","data":{}}`)},
		{"event from an app", raw(`{"type":"run.output","run_id":"r","seq":99,"data":{"stream":"stdout","text":"forged"}}`)},
		{"ack from an app", raw(`{"type":"run.ack","run_id":"r","data":{"run_id":"r","last_seq":1}}`)},
		{"stop without data", raw(`{"type":"run.stop","run_id":"r"}`)},
		{"stop with bad signal", raw(`{"type":"run.stop","run_id":"r","data":{"signal":"hup"}}`)},
		{"stop of an unknown run", raw(`{"type":"run.stop","run_id":"nope","data":{}}`)},
		{"stop without run_id", raw(`{"type":"run.stop","data":{}}`)},
		{"input without text", raw(`{"type":"run.send_input","run_id":"r","data":{"input_id":"` + uuid(1) + `"}}`)},
		{"input with bad id", raw(`{"type":"run.send_input","run_id":"r","data":{"input_id":"x","text":"y"}}`)},
		{"input for an unknown run", raw(`{"type":"run.send_input","run_id":"nope","data":{"input_id":"` + uuid(1) + `","text":"y"}}`)},
	}
	for _, tt := range appCases {
		tt.send(app)
		app.Send(stop("r", map[string]any{"signal": "kill", "note": tt.name}))
		if m := host.Next(); m.Type != "run.stop" || m.Str("/data/signal") != "kill" {
			t.Fatalf("host, after app's %s: got %s, want only the valid stop", tt.name, m.Raw)
		}
	}
	// The forged event never reached the app: its next event is live.
	sendAcked(t, host, output("r", 3, "end"))
	if m := app.Next(); m.Int("/seq") != 3 {
		t.Errorf("app got %s, want r seq 3", m.Raw)
	}
}

// TestFlood: a host sends 2000 events without reading; the server pushes
// back rather than grow, and the connection survives (or, at worst, is
// closed with 1013): never a panic or a deadlock.
func TestFlood(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	app := dialApp(t, srv, tok, "")
	host := dialHost(t, srv, "h1", "")
	const n = 2000
	host.Send(started("r", 0))
	// Once the app has an event it is subscribed: the flood reaches it live
	// (a late app's replay would be bounded to half its send queue).
	app.Expect("run.started")
	for i := int64(1); i < n; i++ {
		host.Send(output("r", i, "flood"))
	}
	last := int64(-1)
	for last < n-1 {
		m := host.Next()
		if m.Type != "run.ack" || m.Int("/data/last_seq") <= last {
			t.Fatalf("host got %s after ack %d", m.Raw, last)
		}
		last = m.Int("/data/last_seq")
	}
	for i := int64(1); i < n; i++ {
		if m := app.Next(); m.Int("/seq") != i {
			t.Fatalf("app got %s, want seq %d", m.Raw, i)
		}
	}
}

// TestFaults: ?fault= on a connection does exactly what it says.
func TestFaults(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	host := dialHost(t, srv, "h1", "")
	sendAcked(t, host, started("r", 1), output("r", 2, "a"), output("r", 3, "b"), output("r", 4, "c"))

	dropped := dialApp(t, srv, tok, "&fault=drop-after=3", reftest.Group("drop"))
	if s := seqs(dropped.ExpectSeq("run.started", "run.output", "run.output")); !reflect.DeepEqual(s, []int64{1, 2, 3}) {
		t.Errorf("drop-after=3 delivered %v", s)
	}
	if code, _ := dropped.Closed(); code != 1006 {
		t.Errorf("drop-after=3 ended with %d, want 1006 (no close frame)", code)
	}
	closed := dialApp(t, srv, tok, "&fault=close=4000", reftest.Group("close"))
	if code, _ := closed.Closed(); code != 4000 {
		t.Errorf("close=4000 ended with %d", code)
	}
	// duplicate on a host connection: the second ack twice (the same ack
	// again is harmless; on an app it would be a duplicate event).
	dup := dialHost(t, srv, "h2", "&fault=duplicate=2", reftest.Group("dup"))
	dup.Send(started("d", 1))
	dup.Send(output("d", 2, "x"))
	dup.Send(output("d", 3, "y"))
	got := dup.ExpectSeq("run.ack", "run.ack", "run.ack", "run.ack")
	var last []int64
	for _, m := range got {
		last = append(last, m.Int("/data/last_seq"))
	}
	if !reflect.DeepEqual(last, []int64{1, 2, 2, 3}) {
		t.Errorf("duplicate=2 acks %v", last)
	}
}

// TestDuplicateFaultOnApp: the duplicate fault on an app connection is a
// duplicate event, and the checker says so.
func TestDuplicateFaultOnApp(t *testing.T) {
	t.Parallel()
	srv := reftest.Start(t, "hostd", hostd.New, reftest.Options{ExpectFindings: true, Config: server.Config{Heartbeat: -1}})
	tok := login(t, srv)
	host := dialHost(t, srv, "h1", "")
	app := dialApp(t, srv, tok, "&fault=duplicate=2")
	sendAcked(t, host, started("r", 1), output("r", 2, "a"), output("r", 3, "b"))
	if s := seqs(app.ExpectSeq("run.started", "run.output", "run.output", "run.output")); !reflect.DeepEqual(s, []int64{1, 2, 2, 3}) {
		t.Errorf("app got %v", s)
	}
	srv.RequireFinding(t, "hostd.app-duplicate")
}
