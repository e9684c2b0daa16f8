package mitto_test

import (
	"testing"

	"github.com/wsconform/wsconform/reference/mitto"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// Every mutation makes its rule fire. Each runs one conversation that
// reaches every place a mutation can act: a multi-chunk reply, a tool call,
// a keepalive, loads of every kind and a dismissed question.
func TestMutations(t *testing.T) {
	t.Parallel()
	for _, m := range mitto.Mutations {
		if m.Rule == "" {
			continue // a behaviour the spec allows: TestLiveAfterLoad
		}
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			srv := startOpts(t, reftest.Options{ExpectFindings: true, Config: server.Config{Mutations: server.Mutations{m.Name: true}}})
			exercise(t, srv)
			srv.RequireFinding(t, m.Rule)
		})
	}
}

func exercise(t *testing.T, srv *reftest.Server) {
	a, _ := join(t, srv, "m")
	b, _ := join(t, srv, "m")
	ask(a, "p1", "hello there world", "prompt_complete")
	ask(a, "p2", "/exec read", "prompt_complete")
	a.Send(keepalive())
	a.Expect("keepalive_ack")
	loaded(a, map[string]any{})
	loaded(a, map[string]any{"before_seq": 12, "limit": 2})
	loaded(a, map[string]any{"after_seq": 1, "limit": 2})
	ask(a, "p3", "/ask Proceed?", "ui_prompt")
	a.Send(frame("cancel", map[string]any{}))
	a.Until("prompt_complete")
	b.Until("prompt_complete")
	b.Until("prompt_complete")
	b.Until("prompt_complete")
}

func TestMutationTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, m := range mitto.Mutations {
		if seen[m.Name] || m.Summary == "" || len(m.Name) < 7 || m.Name[:6] != "mitto-" {
			t.Errorf("bad mutation entry %+v", m)
		}
		seen[m.Name] = true
	}
	if len(mitto.Mutations) < 3 {
		t.Errorf("%d mutations, want at least 3", len(mitto.Mutations))
	}
}

// TestLiveAfterLoad: under mitto-live-after-load a connection gets no live
// event before its first load_events (not its own prompt's user_prompt,
// not prompt_complete), the initial load holds what it missed, and live
// events flow after it. Client b, which loaded first, sees the turn end;
// a's keepalive_ack, queued after anything the turn sent a, bounds what a
// got without a timer.
func TestLiveAfterLoad(t *testing.T) {
	t.Parallel()
	srv := startOpts(t, reftest.Options{Config: server.Config{Mutations: server.Mutations{"mitto-live-after-load": true}}})
	a, _ := join(t, srv, "held")
	b, _ := join(t, srv, "held")
	loaded(b, map[string]any{})
	a.Send(prompt("p1", "hello there"))
	b.Until("prompt_complete")
	a.Send(keepalive())
	for _, m := range a.Until("keepalive_ack") {
		if m.Type != "prompt_received" && m.Type != "keepalive_ack" {
			t.Errorf("a got %s before its first load_events", m)
		}
	}
	if got := storedSeqs(t, loaded(a, map[string]any{})); len(got) == 0 {
		t.Errorf("the initial load after the held turn is empty")
	}
	ask(a, "p2", "again", "user_prompt")
	a.Until("prompt_complete")
}
