package mitto

import (
	"context"
	"fmt"
	"testing"

	"github.com/wsconform/wsconform/reference/server"
)

// trim forgets the least recently left idle sessions beyond MaxSessions
// and keeps one whose turn still runs.
func TestTrim(t *testing.T) {
	t.Parallel()
	env := server.NewEnv(server.Config{IDs: server.Sequential()})
	t.Cleanup(func() { _ = env.Shutdown(context.Background()) })
	h := newHub(env)
	busy := "s0"
	maxDetached := env.MaxSessions
	for i := range maxDetached + 5 {
		id := fmt.Sprintf("s%d", i)
		s := newSession(env, id)
		if id == busy {
			s.turn = &turn{}
		}
		h.sessions[id] = s
		h.detached.Left(s)
	}
	h.trim()
	if h.detached.Len() != maxDetached || len(h.sessions) != maxDetached {
		t.Fatalf("kept %d detached of %d sessions, want %d", h.detached.Len(), len(h.sessions), maxDetached)
	}
	for _, id := range []string{"s1", "s5"} {
		if h.sessions[id] != nil {
			t.Errorf("%s, among the oldest idle, was kept", id)
		}
	}
	for _, id := range []string{busy, "s6", fmt.Sprintf("s%d", maxDetached+4)} {
		if h.sessions[id] == nil {
			t.Errorf("%s was forgotten", id)
		}
	}
}
