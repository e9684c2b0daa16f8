package hostd_test

import (
	"reflect"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/reference/hostd"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// exercise is one session that gives every mutation its chance: an app
// watching, a host that sends events, an input sent twice, and a
// reconnect with a spool replay of an event the server already has. It
// returns the seqs the app received.
func exercise(t *testing.T, srv *reftest.Server) []int64 {
	t.Helper()
	tok := login(t, srv)
	app := dialApp(t, srv, tok, "")
	h1 := dialHost(t, srv, "h1", "")
	subscribed(t, h1, app)
	h1.Send(started("r", 1))
	h1.Expect("run.ack")
	h1.Send(output("r", 2, "a"))
	h1.Expect("run.ack")
	h1.Send(output("r", 3, "b"))
	h1.Expect("run.ack")
	app.Send(sendInput("r", uuid(1), "go\n"))
	h1.Expect("run.send_input")
	app.Send(sendInput("r", uuid(1), "go\n"))
	app.Send(stop("r", map[string]any{}))
	h1.Expect("run.stop")
	h1.Drop()
	h2 := dialHost(t, srv, "h1", "")
	h2.Send(output("r", 2, "a")) // the spool still held 2 and 3
	h2.Expect("run.ack")
	h2.Send(output("r", 3, "b"))
	h2.Expect("run.ack")
	h2.Send(exited("r", 4, 143))
	h2.Expect("run.ack")
	var got []int64
	for _, m := range app.Until("run.exited") {
		if m.Type != "run.ack" && m.Str("/run_id") == "r" {
			got = append(got, m.Int("/seq"))
		}
	}
	return got
}

func TestExerciseIsClean(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	if got := exercise(t, srv); !reflect.DeepEqual(got, []int64{1, 2, 3, 4}) {
		t.Errorf("app got seqs %v", got)
	}
}

// TestMutations: each mutation makes its rule fire, and only its rule,
// in the server's frames.
func TestMutations(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, m := range hostd.Mutations {
		if seen[m.Name] {
			t.Errorf("mutation %s listed twice", m.Name)
		}
		seen[m.Name] = true
		if m.Rule == "" {
			continue // a fake of a vacuous pass: internal/runner's unprovables
		}
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			srv := reftest.Start(t, "hostd", hostd.New, reftest.Options{ExpectFindings: true,
				Config: server.Config{Heartbeat: -1, Mutations: server.Mutations{m.Name: true}}})
			exercise(t, srv)
			srv.RequireFinding(t, m.Rule)
			for _, f := range serverFindings(srv) {
				if f.Rule != m.Rule {
					t.Errorf("%s also broke %s", m.Name, reftest.Describe(f))
				}
			}
			if _, ok := check.Lookup(m.Rule); !ok {
				t.Errorf("%s names rule %s, which the check engine does not list", m.Name, m.Rule)
			}
		})
	}
}
