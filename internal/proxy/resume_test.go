package proxy

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/reports"
)

// resumeFlow runs a minicodex session through the proxy: a turn on c1, c1
// vanishes, c2 resumes after event 3 and reads the replay.
func resumeFlow(t *testing.T, tp *testProxy) {
	t.Helper()
	c1, sid := minicodexHello(t, tp.url)
	runTurn(t, c1, "/stream 6")
	_ = c1.ws.NetConn().Close() // the tab is reloaded: no close frame
	c1.closed()
	tp.waitConns(0) // the proxy saw the drop before the tab comes back
	c2 := dial(t, tp.url+"/ws", nil)
	c2.send(map[string]any{"type": "resume", "session_id": sid, "last_seen_event_id": 3, "req_id": "resume-3"})
	c2.send(map[string]any{"type": "ping", "req_id": "barrier"})
	for {
		m := c2.next()
		if m.str("type") == "accepted" && m.str("req_id") == "barrier" {
			break
		}
	}
	c2.closeWith(1000, "bye")
	c2.closed()
}

// TestResumeAcrossConnections: the reconnection is tied to its session by
// the server's welcome, so an altered replay is caught by comparing c2's
// replay with what c1 received; a faithful replay gives no error.
func TestResumeAcrossConnections(t *testing.T) {
	t.Parallel()
	for _, mutation := range []string{"", "minicodex-replay-alters-payload", "minicodex-replay-skips-event"} {
		t.Run("mutation="+mutation, func(t *testing.T) {
			t.Parallel()
			var mutate []string
			if mutation != "" {
				mutate = []string{mutation}
			}
			ref := startRef(t, "minicodex", mutate...)
			tp := startProxy(t, Config{Upstream: ref.URL})
			resumeFlow(t, tp)
			r := tp.Stop()
			if len(r.Sessions) != 1 || len(r.Sessions[0].Conns) != 2 {
				t.Fatalf("want one session of two connections, got %+v", r.Sessions)
			}
			c2 := r.Sessions[0].Conns[1]
			if c2.ID != "c2" || c2.Parent != "c1" {
				t.Errorf("second connection %+v, want c2 reconnecting c1", c2)
			}
			if c1 := r.Sessions[0].Conns[0]; c1.CloseCode != 1006 || c1.CloseBy != recording.ByNetwork {
				t.Errorf("c1 ended %d by %s, want 1006 by network", c1.CloseCode, c1.CloseBy)
			}
			errs := errorsOf(r)
			switch mutation {
			case "":
				if len(errs) > 0 {
					t.Errorf("faithful replay gave errors: %s", describeFindings(errs))
				}
			case "minicodex-replay-alters-payload":
				if !hasRule(r, "minicodex.replay-mismatch") {
					t.Errorf("altered replay not caught: %s", describeFindings(findings(r)))
				}
			case "minicodex-replay-skips-event":
				if !hasRule(r, "minicodex.replay-gap") {
					t.Errorf("skipped replay event not caught: %s", describeFindings(findings(r)))
				}
			}
			sameOffline(t, tp, r)
			if testing.Verbose() {
				t.Logf("console:\n%s", tp.console.String())
			}
		})
	}
}

// sameOffline writes the proxy's recording to a file, judges it with
// `wsconform validate`'s code and requires the very findings the proxy
// made live.
func sameOffline(t *testing.T, tp *testProxy, r *reports.Report) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	if err := os.WriteFile(path, []byte(tp.rec.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := validate.File(context.Background(), path, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) > 0 {
		t.Errorf("recording problems: %v", res.Problems)
	}
	key := func(rule, session, conn string, frame int64) string {
		return fmt.Sprintf("%s %s %s %d", rule, session, conn, frame)
	}
	var live, offline []string
	for _, f := range findings(r) {
		if strings.HasPrefix(f.Rule, "proxy.") {
			continue
		}
		live = append(live, key(f.Rule, f.Session, f.Conn, f.Frame))
	}
	for _, f := range res.Findings {
		offline = append(offline, key(f.Rule, f.Session, f.Conn, f.Frame))
	}
	sort.Strings(live)
	sort.Strings(offline)
	if strings.Join(live, "\n") != strings.Join(offline, "\n") {
		t.Errorf("live findings:\n%s\noffline findings:\n%s", strings.Join(live, "\n"), strings.Join(offline, "\n"))
	}
	conns := 0
	for _, s := range r.Sessions {
		conns += len(s.Conns)
	}
	if res.Sessions != len(r.Sessions) || res.Conns != conns {
		t.Errorf("offline %d sessions %d conns, live %d sessions %d conns", res.Sessions, res.Conns, len(r.Sessions), conns)
	}
}

// TestRecordingReadsBack: every frame the clients exchanged is in the
// recording, in order, with its session; the file reads back cleanly.
func TestRecordingReadsBack(t *testing.T) {
	t.Parallel()
	ref := startRef(t, "minicodex")
	tp := startProxy(t, Config{Upstream: ref.URL})
	resumeFlow(t, tp)
	r := tp.Stop()
	var kinds []string
	var last int64
	sessions := map[string]string{}
	_, problems, err := recording.Scan(strings.NewReader(tp.rec.String()), func(l recording.Line) error {
		kinds = append(kinds, l.Kind)
		switch l.Kind {
		case recording.KindFrame:
			if l.Index != last+1 {
				t.Errorf("frame %d follows %d", l.Index, last)
			}
			last = l.Index
			if _, err := l.Frame(); err != nil {
				t.Error(err)
			}
		case recording.KindSession:
			sessions[l.Conn] = l.Session
		}
		return nil
	})
	if err != nil || len(problems) > 0 {
		t.Fatalf("scan: %v %v", problems, err)
	}
	if kinds[0] != recording.KindHeader || kinds[1] != recording.KindOpen {
		t.Errorf("recording starts %v", kinds[:2])
	}
	total := r.Sessions[0].FramesTotal
	if last != total {
		t.Errorf("recording holds %d frames, the report counts %d", last, total)
	}
	if sessions["c1"] == "" || sessions["c1"] != sessions["c2"] {
		t.Errorf("session lines %v", sessions)
	}
}
