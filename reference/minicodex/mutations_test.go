package minicodex_test

import (
	"regexp"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reference/minicodex"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// mutationScenario exercises everything a mutation can touch: a run with an
// approval (denied, so the run ends with turn_done), then a resume that
// replays several events.
func mutationScenario(t *testing.T, srv *reftest.Server) {
	t.Helper()
	c, sid, _ := hello(t, srv, "")
	c.Send(map[string]any{"type": "send", "text": "/tool ls"})
	callID := c.Expect("approval_pending").Str("/call_id")
	c.Send(map[string]any{"type": "deny", "call_id": callID})
	c.Until("turn_done")
	c.Drop()
	b := srv.Dial(t, "/ws")
	b.Send(resume(sid, 2))
	b.Expect("welcome")
	barrier(t, b, "replayed")
	send(t, b, "after")
	b.Until("turn_done")
}

func TestMutations(t *testing.T) {
	t.Parallel()
	names := map[string]bool{}
	kebab := regexp.MustCompile(`^minicodex(-[a-z0-9]+)+$`)
	for _, m := range minicodex.Mutations {
		if !kebab.MatchString(m.Name) || names[m.Name] {
			t.Errorf("mutation name %q: not kebab-case with the dialect prefix, or repeated", m.Name)
		}
		names[m.Name] = true
		if m.Rule == "" {
			continue // a fake of a vacuous pass: internal/runner's unprovables
		}
		if _, ok := check.Lookup(m.Rule); !ok {
			t.Errorf("mutation %s names rule %q, which the check engine does not know", m.Name, m.Rule)
		}
	}
	if len(minicodex.Mutations) < 3 {
		t.Errorf("%d mutations, want at least 3", len(minicodex.Mutations))
	}
	t.Run("none", func(t *testing.T) {
		t.Parallel()
		mutationScenario(t, start(t, server.Config{}))
	})
	for _, m := range minicodex.Mutations {
		if m.Rule == "" {
			continue
		}
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			srv := reftest.Start(t, "minicodex", minicodex.New, reftest.Options{ExpectFindings: true,
				Config: server.Config{Heartbeat: -1, Mutations: server.Mutations{m.Name: true}}})
			mutationScenario(t, srv)
			srv.RequireFinding(t, m.Rule)
			// The mutation changes one thing: no other rule fires on the
			// server's frames.
			for _, f := range srv.Findings() {
				if f.Dir == wire.ServerToClient && f.Rule != m.Rule {
					t.Errorf("%s also fired %s", m.Name, reftest.Describe(f))
				}
			}
		})
	}
}
