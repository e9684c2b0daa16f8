package reftest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reference/server"
)

// Timeout bounds every wait of a client: a reply that does not come within
// it fails the test instead of hanging it.
var Timeout = 5 * time.Second

// Options configure a test server.
type Options struct {
	// Config is the server's configuration. IDs default to
	// server.Sequential() so frames are reproducible.
	Config server.Config
	// ExpectFindings keeps cleanup from failing on error findings in
	// server frames: set it in tests that make the server break the spec
	// on purpose (mutations) and check the findings themselves. Findings
	// in client frames never fail cleanup: bad-input tests send them on
	// purpose.
	ExpectFindings bool
}

// Server is a reference dialect server on a loopback port.
type Server struct {
	// URL is the WebSocket base URL (ws://127.0.0.1:PORT) and HTTP the same
	// for plain requests (http://127.0.0.1:PORT).
	URL, HTTP string
	Env       *server.Env
	Dialect   *dialect.Dialect

	t       testing.TB
	hs      *httptest.Server
	mu      sync.Mutex
	checks  map[string]*check.Session
	found   []check.Finding
	index   int64
	clients []*Client
}

// Start builds the dialect's handler with build (the dialect package's
// New), serves it on 127.0.0.1 and registers cleanup.
func Start(t testing.TB, name string, build func(*server.Env) http.Handler, opts Options) *Server {
	t.Helper()
	d, err := dialect.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Config.IDs == nil {
		opts.Config.IDs = server.Sequential()
	}
	env := server.NewEnv(opts.Config)
	hs := httptest.NewServer(build(env))
	s := &Server{
		URL: "ws" + strings.TrimPrefix(hs.URL, "http"), HTTP: hs.URL,
		Env: env, Dialect: d, t: t, hs: hs, checks: map[string]*check.Session{},
	}
	t.Cleanup(func() { s.stop(opts.ExpectFindings) })
	return s
}

// stop closes clients and server, then checks for leaks and findings.
func (s *Server) stop(expectFindings bool) {
	s.t.Helper()
	s.mu.Lock()
	clients := s.clients
	s.mu.Unlock()
	for _, c := range clients {
		c.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if err := s.Env.Shutdown(ctx); err != nil {
		s.t.Errorf("reference server did not shut down: %v", err)
	}
	s.hs.Close()
	if stacks := Leaked(server.GoroutineLabel, s.Env.Label()); stacks != "" {
		s.t.Errorf("reference server leaked goroutines after shutdown:\n%s", stacks)
	}
	if !expectFindings {
		for _, f := range s.Errors() {
			if f.Dir == wire.ServerToClient {
				s.t.Errorf("reference server broke a rule: %s", Describe(f))
			}
		}
	}
}

// Leaked waits (within Timeout) for the goroutines carrying the pprof
// label key=label to end, and returns the stacks of those that did not
// ("" when none is left). The reference server, the proxy and the fixture
// label their goroutines so that their tests can tell a leak of theirs
// from the test's own goroutines.
func Leaked(key, label string) string {
	re := regexp.MustCompile(`"` + regexp.QuoteMeta(key) + `":"` + regexp.QuoteMeta(label) + `"`)
	deadline := time.Now().Add(Timeout)
	for {
		var b bytes.Buffer
		_ = pprof.Lookup("goroutine").WriteTo(&b, 1)
		var mine []string
		for _, block := range strings.Split(b.String(), "\n\n") {
			if re.MatchString(block) {
				mine = append(mine, block)
			}
		}
		if len(mine) == 0 {
			return ""
		}
		if time.Now().After(deadline) {
			return strings.Join(mine, "\n\n")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// observe feeds one frame to the check session of its group.
func (s *Server) observe(group string, f wire.Frame) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := s.checks[group]
	if cs == nil {
		cs = check.NewSession(s.Dialect, check.Options{})
		s.checks[group] = cs
	}
	s.index++
	f.Index = s.index
	s.found = append(s.found, cs.Observe(f)...)
}

// Findings returns every finding so far.
func (s *Server) Findings() []check.Finding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]check.Finding(nil), s.found...)
}

// Errors returns the error findings so far.
func (s *Server) Errors() []check.Finding {
	var out []check.Finding
	for _, f := range s.Findings() {
		if f.Severity == check.Error {
			out = append(out, f)
		}
	}
	return out
}

// RequireFinding fails the test unless some finding so far has rule id
// rule; it returns the first such finding.
func (s *Server) RequireFinding(t testing.TB, rule string) check.Finding {
	t.Helper()
	all := s.Findings()
	for _, f := range all {
		if f.Rule == rule {
			return f
		}
	}
	var got []string
	for _, f := range all {
		got = append(got, Describe(f))
	}
	t.Fatalf("no %s finding; findings were:\n  %s", rule, strings.Join(got, "\n  "))
	return check.Finding{}
}

// Describe renders a finding on one line for test failures.
func Describe(f check.Finding) string {
	s := fmt.Sprintf("%s %s [%s %s frame %d] %s", f.Severity, f.Rule, f.Conn, f.Dir, f.Frame, f.Message)
	if f.Expected != "" || f.Actual != "" {
		s += fmt.Sprintf(" (expected %s, actual %s)", f.Expected, f.Actual)
	}
	return s
}
