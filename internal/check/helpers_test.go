package check

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// step is one frame of a rule test: who sent what on which connection.
type step struct {
	conn string
	dir  wire.Direction
	json string
}

func c2s(conn, json string) step { return step{conn, wire.ClientToServer, json} }
func s2c(conn, json string) step { return step{conn, wire.ServerToClient, json} }

// closeConn ends a connection, as the end of its TCP connection does.
func closeConn(conn string) step { return step{conn: conn} }

// closeFrame is a close frame sent in one direction.
func closeFrame(conn string, dir wire.Direction) step {
	return step{conn: conn, dir: dir, json: closeMark}
}

const closeMark = "\x00close"

// ruleCase is a table row: the frames, and the rule ids that must fire (an
// empty want means the sequence is clean).
type ruleCase struct {
	name string
	// urls gives a connection its URL (nil: no URL, as in a HAR-less feed).
	urls  func(conn string) string
	steps []step
	want  []string
}

// feed runs steps through a fresh session and returns every finding.
func feed(t *testing.T, name string, steps []step) []Finding {
	t.Helper()
	return feedWith(t, name, nil, Options{}, steps)
}

// feedWith is feed with connection URLs and session options.
func feedWith(t *testing.T, name string, urls func(string) string, opts Options, steps []step) []Finding {
	t.Helper()
	d, err := dialect.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(d, opts)
	var out []Finding
	for i, st := range steps {
		f := wire.Frame{Conn: st.conn, Dir: st.dir, Index: int64(i), Op: wire.OpText, Payload: []byte(st.json)}
		if urls != nil {
			f.URL = urls(st.conn)
		}
		switch {
		case st.dir == "":
			s.Closed(st.conn)
			continue
		case st.json == closeMark:
			f.Op, f.Payload, f.CloseCode = wire.OpClose, nil, 1000
		}
		out = append(out, s.Observe(f)...)
	}
	noteFired(out)
	return out
}

// fired collects every rule any test of the package made fire, for
// TestMain's check that no rule goes untested.
var fired sync.Map

func noteFired(fs []Finding) {
	for _, f := range fs {
		fired.Store(f.Rule, true)
	}
}

// TestMain holds every view a test makes to its source (checkRebuild), and
// fails a complete run of the package's tests in which some rule
// never fired: every rule needs a test that makes it fire (and, through the
// clean cases, tests that keep it quiet).
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		rebuildCheck = checkRebuild // not in benchmarks: it decodes every view's payload again
	}
	code := m.Run()
	if code != 0 || !fullRun() {
		os.Exit(code)
	}
	var missing []string
	for _, r := range Rules("") {
		if _, ok := fired.Load(r.ID); !ok && !strings.Contains(r.ID, ".ambiguous.") {
			missing = append(missing, r.ID)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "rules no test made fire: %v\n", missing)
		os.Exit(1)
	}
	os.Exit(0)
}

// fullRun is false when -run, -fuzz or -bench narrowed the run.
func fullRun() bool {
	for _, name := range []string{"test.run", "test.fuzz", "test.bench", "test.skip"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return false
		}
	}
	return true
}

// runRuleCases checks that exactly the wanted rules fire: every finding of
// warning or error severity must be wanted, and every wanted rule must
// fire. Ambiguity warnings depend on schema detail and are tested by the
// example corpus, so they are ignored here.
func runRuleCases(t *testing.T, name string, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := feedWith(t, name, tc.urls, Options{}, tc.steps)
			got := map[string]bool{}
			for _, f := range fs {
				if f.Severity < Warning || strings.Contains(f.Rule, ".ambiguous.") {
					continue
				}
				got[f.Rule] = true
				if !contains(tc.want, f.Rule) {
					t.Errorf("unexpected %s (frame %d %s: pointer %q expected %q actual %q)", f, f.Frame, f.Type, f.Pointer, f.Expected, f.Actual)
				}
			}
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("rule %s did not fire; got %v", w, keys(got))
				}
			}
		})
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// findOne returns the first finding of a rule, failing the test without one.
func findOne(t *testing.T, fs []Finding, rule string) Finding {
	t.Helper()
	noteFired(fs)
	for _, f := range fs {
		if f.Rule == rule {
			return f
		}
	}
	t.Fatalf("no %s finding in %v", rule, fs)
	return Finding{}
}
