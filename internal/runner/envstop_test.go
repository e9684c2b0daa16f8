package runner

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/wsconform/wsconform/reports"
)

// sessionLimitServer makes mitto sessions over HTTP, as servers that put
// a session in the WebSocket URL do: POST /sessions prints the session's
// URL, DELETE /sessions/ID frees it, and past limit open sessions POST
// answers 503 with its reason. /ws serves the session's connections, and
// answers the handshake 503 past wsLimit connections when that is set.
type sessionLimitServer struct {
	busySessionServer
	mu             sync.Mutex
	open           map[string]bool
	made, deleted  int
	limit, wsLimit int
	conns          int
}

func newSessionLimitServer(limit, wsLimit int) (*sessionLimitServer, *httptest.Server) {
	s := &sessionLimitServer{busySessionServer: busySessionServer{busy: map[string]bool{}}, open: map[string]bool{}, limit: limit, wsLimit: wsLimit}
	return s, httptest.NewServer(s)
}

func (s *sessionLimitServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/sessions":
		defer s.mu.Unlock()
		if len(s.open) >= s.limit {
			http.Error(w, fmt.Sprintf("session limit reached: %d sessions open", len(s.open)), http.StatusServiceUnavailable)
			return
		}
		s.made++
		id := fmt.Sprint("s", s.made)
		s.open[id] = true
		fmt.Fprintf(w, "ws://%s/ws?session_id=%s\n", r.Host, id)
	case r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/sessions/"):
		defer s.mu.Unlock()
		id := strings.TrimPrefix(r.URL.Path, "/sessions/")
		if !s.open[id] {
			http.Error(w, "no session "+id, http.StatusNotFound)
			return
		}
		delete(s.open, id)
		s.deleted++
	case r.URL.Path == "/ws":
		s.conns++
		over := s.wsLimit > 0 && s.conns > s.wsLimit
		s.mu.Unlock()
		if over {
			http.Error(w, "too many connections, try again later", http.StatusServiceUnavailable)
			return
		}
		s.busySessionServer.ServeHTTP(w, r)
	default:
		s.mu.Unlock()
		http.NotFound(w, r)
	}
}

// The worked example of the README: a session made over HTTP with curl,
// deleted after the scenario.
const (
	curlSessionCmd = `curl -sS --fail-with-body -X POST "$(echo "$WSCONFORM_TARGET" | sed s/^ws/http/)/sessions"`
	curlCleanupCmd = `curl -sS --fail-with-body -X DELETE "$(echo "$WSCONFORM_TARGET" | sed s/^ws/http/)/sessions/${1##*session_id=}"`
)

func needCurl(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("needs curl for the session commands")
	}
}

// TestSessionCmdCleanupAndLimit: --target names only the server (no
// WebSocket session there: the pre-check checks the command's session);
// with --session-cleanup-cmd a server allowing two open sessions runs
// all six scenarios, each in its own session, all deleted after; without
// it the third session is refused, which is one environment error quoting
// the server and the other scenarios not run, not one error each.
func TestSessionCmdCleanupAndLimit(t *testing.T) {
	t.Parallel()
	needCurl(t)
	fsys := busyFeature(6)
	for _, cleanup := range []bool{true, false} {
		srv, hs := newSessionLimitServer(2, 0)
		defer hs.Close()
		o := Options{Features: fsys, Concurrency: 1, SessionCmd: curlSessionCmd,
			Targets: []Target{{Name: "limited", URL: "ws" + strings.TrimPrefix(hs.URL, "http")}}}
		if cleanup {
			o.SessionCleanupCmd = curlCleanupCmd
		}
		var notices []string
		o.Notice = func(l string) { notices = append(notices, l) }
		res, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		count := map[reports.Verdict]int{}
		for _, s := range res {
			count[s.Verdict]++
		}
		srv.mu.Lock()
		made, deleted := srv.made, srv.deleted
		srv.mu.Unlock()
		if cleanup {
			if count[reports.Passed] != 6 || made != 7 || deleted != 7 || len(notices) != 0 {
				t.Errorf("with clean-up: %v, %d sessions made, %d deleted (the pre-check's too), notices %q; want 6 passed, 7 made and deleted",
					count, made, deleted, notices)
				for _, s := range res {
					t.Log(describe(s))
				}
			}
			continue
		}
		// the pre-check's session and the first scenario's fill the server
		if count[reports.Passed] != 1 || count[reports.Error] != 1 || count[reports.Inconclusive] != 4 {
			t.Errorf("without clean-up: %v, want 1 passed, 1 error, 4 inconclusive", count)
		}
		for _, s := range res {
			switch s.Verdict {
			case reports.Error:
				if !strings.Contains(s.Reason, "environment: --session-cmd failed") || !strings.Contains(s.Reason, "session limit reached: 2 sessions open") {
					t.Errorf("%s: %q, want an environment error with the server's words", s.ID, s.Reason)
				}
			case reports.Inconclusive:
				if !strings.HasPrefix(s.Reason, NotRunAfterEnvironment) || !strings.Contains(s.Reason, "session limit reached") {
					t.Errorf("%s: %q, want not run after the environment error", s.ID, s.Reason)
				}
			}
		}
	}
}

// TestSessionCmdPreflight: a --session-cmd whose server makes no session
// fails the pre-check once, with the server's words; a --target that is
// no WebSocket endpoint does not, the command's session is what is checked.
func TestSessionCmdPreflight(t *testing.T) {
	t.Parallel()
	needCurl(t)
	_, hs := newSessionLimitServer(0, 0)
	defer hs.Close()
	res, err := Run(context.Background(), Options{Features: busyFeature(3), SessionCmd: curlSessionCmd,
		Targets: []Target{{Name: "full", URL: "ws" + strings.TrimPrefix(hs.URL, "http")}}})
	if err != nil {
		t.Fatal(err)
	}
	var errs int
	for _, s := range res {
		if s.Verdict == reports.Error {
			errs++
			if !strings.Contains(s.Reason, "session limit reached: 0 sessions open") {
				t.Errorf("%s: %q, want the server's words", s.ID, s.Reason)
			}
		} else if s.Verdict != reports.Inconclusive {
			t.Errorf("%s: %s", s.ID, describe(s))
		}
	}
	if errs != 1 {
		t.Errorf("%d errors, want 1", errs)
	}
}

// TestHandshakeLimit: a handshake answered 503 is one environment error
// quoting the server, in the pre-check or in a scenario, and the rest of
// the target's scenarios are not run.
func TestHandshakeLimit(t *testing.T) {
	t.Parallel()
	for _, wsLimit := range []int{1, 2} { // 1: the pre-check passes; 2: the first scenario too
		_, hs := newSessionLimitServer(0, wsLimit)
		defer hs.Close()
		res, err := Run(context.Background(), Options{Features: busyFeature(4), Concurrency: 1,
			Targets: []Target{{Name: "full", URL: "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws?session_id=x"}}})
		if err != nil {
			t.Fatal(err)
		}
		count := map[reports.Verdict]int{}
		for _, s := range res {
			count[s.Verdict]++
			if s.Verdict == reports.Error && !strings.Contains(s.Reason, "too many connections, try again later") {
				t.Errorf("%s: %q, want the server's words", s.ID, s.Reason)
			}
		}
		if count[reports.Error] != 1 || count[reports.Passed] != wsLimit-1 || count[reports.Inconclusive] != 4-wsLimit {
			t.Errorf("limit %d: %v, want 1 error, %d passed, the rest inconclusive", wsLimit, count, wsLimit-1)
		}
	}
}
