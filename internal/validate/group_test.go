package validate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

func writeRecording(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func frameLine(conn, session, dir, text string) string {
	l := recording.FrameLine(session, wire.Frame{Conn: conn, Dir: wire.Direction(dir), Op: wire.OpText, Payload: []byte(text)})
	b, err := jsonMarshal(l)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestPendingConnectionJoinsItsSession: a reconnection whose session the
// recorder learned only from the server's welcome is judged with the
// session it resumes, so an altered replay is caught across connections.
func TestPendingConnectionJoinsItsSession(t *testing.T) {
	t.Parallel()
	path := writeRecording(t,
		`{"kind":"header","format":"wsconform-recording","version":1,"time":"2026-11-21T10:00:00Z"}`,
		`{"kind":"dialect","dialect":"minicodex","reason":"hello","time":"2026-11-21T10:00:00Z"}`,
		`{"kind":"open","conn":"c1","pending":true,"url":"ws://127.0.0.1/ws","time":"2026-11-21T10:00:00Z"}`,
		frameLine("c1", "", "s2c", `{"type":"assistant_text","text":"one","event_id":1}`),
		`{"kind":"session","conn":"c1","session":"sess_1","time":"2026-11-21T10:00:00Z"}`,
		`{"kind":"close","conn":"c1","session":"sess_1","code":1006,"by":"network","time":"2026-11-21T10:00:00Z"}`,
		`{"kind":"open","conn":"c2","pending":true,"url":"ws://127.0.0.1/ws","time":"2026-11-21T10:00:00Z"}`,
		frameLine("c2", "", "s2c", `{"type":"assistant_text","text":"changed","event_id":1}`),
		`{"kind":"session","conn":"c2","session":"sess_1","parent":"c1","time":"2026-11-21T10:00:00Z"}`,
	)
	res, err := File(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.DialectReason, "detected live: hello") {
		t.Errorf("dialect reason %q does not come from the dialect line", res.DialectReason)
	}
	if res.Sessions != 1 || res.Conns != 2 || res.Frames != 2 {
		t.Errorf("%d sessions, %d conns, %d frames; want 1, 2, 2", res.Sessions, res.Conns, res.Frames)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule != "minicodex.replay-mismatch" || res.Findings[0].Session != "sess_1" {
		t.Fatalf("findings %+v, want one minicodex.replay-mismatch in sess_1", res.Findings)
	}
}

// TestPendingWithoutSessionLine: a pending connection that never learns
// its session is a session of its own, at its close or at the end of the
// file, and a frame line naming a session binds it like a session line.
func TestPendingWithoutSessionLine(t *testing.T) {
	t.Parallel()
	path := writeRecording(t,
		`{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex","time":"2026-11-21T10:00:00Z"}`,
		`{"kind":"open","conn":"c1","pending":true}`,
		frameLine("c1", "", "s2c", `{"type":"assistant_text","text":"one","event_id":1}`),
		`{"kind":"close","conn":"c1","code":1000,"by":"client"}`,
		`{"kind":"open","conn":"c2","pending":true}`,
		frameLine("c2", "", "s2c", `{"type":"assistant_text","text":"two","event_id":1}`),
		`{"kind":"open","conn":"c3","pending":true}`,
		frameLine("c3", "", "s2c", `{"type":"assistant_text","text":"three","event_id":1}`),
		frameLine("c3", "c1", "s2c", `{"type":"assistant_text","text":"four","event_id":2}`),
	)
	res, err := File(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// c1 alone, c2 alone (at the end), c3 joins c1's session "c1" by its
	// frame line and replays event 1 with other content.
	if res.Sessions != 2 || res.Frames != 4 {
		t.Errorf("%d sessions, %d frames; want 2, 4", res.Sessions, res.Frames)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule != "minicodex.replay-mismatch" || res.Findings[0].Conn != "c3" {
		t.Fatalf("findings %+v", res.Findings)
	}
}

// TestBoundTogetherReleaseInArrivalOrder: connections bound one after
// another with no frame in between release their held frames interleaved
// as they arrived, and the observer sees them in judging order.
func TestBoundTogetherReleaseInArrivalOrder(t *testing.T) {
	t.Parallel()
	g := NewGrouper(dialect.MustGet("minicodex"), Options{})
	var order []string
	g.Observed = func(session string, f wire.Frame, _ []Finding) { order = append(order, session+"/"+f.Conn) }
	g.Open("c1", "", "")
	g.Open("c2", "", "")
	mk := func(conn string) wire.Frame {
		return wire.Frame{Conn: conn, Dir: wire.ServerToClient, Op: wire.OpText, Payload: []byte(`{"type":"heartbeat","interval_ms":1}`)}
	}
	g.Frame("c1", mk("c1"))
	g.Frame("c2", mk("c2"))
	g.Frame("c1", mk("c1"))
	if len(order) != 0 {
		t.Fatalf("pending frames were judged: %v", order)
	}
	g.Bind("c2", "s")
	g.Bind("c1", "s")
	g.Bind("c1", "other") // the first binding wins
	g.Frame("c2", mk("c2"))
	want := "s/c1 s/c2 s/c1 s/c2"
	if got := strings.Join(order, " "); got != want {
		t.Fatalf("judging order %q, want %q", got, want)
	}
	if g.Sessions() != 1 || g.Conns() != 2 || g.Frames() != 4 {
		t.Errorf("%d sessions %d conns %d frames", g.Sessions(), g.Conns(), g.Frames())
	}
}

// TestIdleSessionsAreBounded: past MaxIdleSessions sessions without an
// open connection, the oldest idle one is forgotten.
func TestIdleSessionsAreBounded(t *testing.T) {
	t.Parallel()
	g := NewGrouper(dialect.MustGet("minicodex"), Options{})
	for i := range MaxIdleSessions + 10 {
		conn := "c" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
		g.Open(conn, "", "s-"+conn)
		g.Close(conn)
	}
	if len(g.sessions) != MaxIdleSessions || g.Sessions() != MaxIdleSessions+10 {
		t.Fatalf("%d sessions kept, %d seen", len(g.sessions), g.Sessions())
	}
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// TestDialectLineAfterControlFrames: control frames do not count towards
// the detection sample, so a dialect line written after the proxy's 64th
// data frame at the latest is always found.
func TestDialectLineAfterControlFrames(t *testing.T) {
	t.Parallel()
	lines := []string{`{"kind":"header","format":"wsconform-recording","version":1,"time":"2026-11-21T10:00:00Z"}`}
	for range 100 {
		lines = append(lines, `{"kind":"frame","conn":"c1","dir":"c2s","opcode":9,"text":""}`)
	}
	lines = append(lines, `{"kind":"dialect","dialect":"mitto","reason":"r","time":"2026-11-21T10:00:00Z"}`)
	res, err := File(context.Background(), writeRecording(t, lines...), Options{})
	if err != nil || res.Dialect != "mitto" {
		t.Fatalf("dialect %q, %v", res.Dialect, err)
	}
}
