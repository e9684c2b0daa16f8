package coworker_test

import (
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reference/coworker"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// provoke walks through everything a mutation can touch, tolerating the
// mutations' effects: the connect sequence, ping, a streamed turn, a
// message while busy, cancel, reset, and a reconnect that asks to resume
// the session (?resumeSessionId=, as agent-coworker's client does).
func provoke(t *testing.T, srv *reftest.Server) {
	t.Helper()
	c := srv.Dial(t, "/ws")
	var id string
	for i := 0; i < 3; i++ {
		if m := c.Next(); id == "" {
			id = m.Str("/sessionId")
		}
	}
	s := session{Client: c, id: id}
	s.send("ping")
	s.Expect("pong")
	s.send("user_message", "text", "hello world")
	s.idle(t)
	s.send("user_message", "text", "/ask Wait?")
	s.Expect("ask")
	s.send("user_message", "text", "while busy")
	if m := s.Next(); m.Type != "error" && m.Type != "user_message" {
		t.Fatalf("answer to a message while busy: %s", m)
	}
	s.send("cancel")
	s.idle(t)
	s.send("reset")
	if m := s.Next(); m.Type != "reset_done" && m.Type != "reset" {
		t.Fatalf("answer to reset: %s", m)
	}
	c2 := srv.Dial(t, "/ws?resumeSessionId="+id)
	for i := 0; i < 3; i++ {
		c2.Next()
	}
}

func TestMutations(t *testing.T) {
	t.Parallel()
	rules := map[string]bool{}
	for _, r := range check.Rules("coworker") {
		rules[r.ID] = true
	}
	seen := map[string]bool{}
	for _, m := range coworker.Mutations {
		if !strings.HasPrefix(m.Name, "coworker-") || seen[m.Name] || (m.Rule != "" && !rules[m.Rule]) || m.Summary == "" {
			t.Errorf("mutation %+v: want a unique coworker- name, a summary and a known rule (or none)", m)
		}
		seen[m.Name] = true
		if m.Rule == "" {
			continue // a vacuous pass it fakes: internal/runner's mutation tables
		}
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			srv := start(t, func(o *reftest.Options) {
				o.ExpectFindings = true
				o.Config.Mutations = server.Mutations{m.Name: true}
			})
			provoke(t, srv)
			f := srv.RequireFinding(t, m.Rule)
			if f.Dir != wire.ServerToClient {
				t.Fatalf("the %s finding is about a client frame: %s", m.Rule, reftest.Describe(f))
			}
		})
	}
}

// The same walk without mutations finds nothing about the server.
func TestProvokeIsCleanWithoutMutations(t *testing.T) {
	t.Parallel()
	provoke(t, start(t))
}
