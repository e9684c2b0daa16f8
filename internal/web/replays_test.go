package web

import (
	"context"
	"fmt"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// replaySource is a report source whose replay diffs grow while a test
// runs, as a gate --replay's do while its client talks.
type replaySource struct {
	mu    sync.Mutex
	diffs []reports.ReplayDiff
}

func (s *replaySource) Snapshot(context.Context) (*reports.Report, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := reports.New(reports.KindGate, "test", time.Now())
	for _, d := range s.diffs {
		d.Rows = slices.Clone(d.Rows)
		r.Replays = append(r.Replays, d)
	}
	return r, nil
}

// add appends a diff of conn with rows changed rows.
func (s *replaySource) add(conn string, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.diffs = append(s.diffs, reports.ReplayDiff{Conn: conn, Replayed: "r-" + conn, URL: "/ws", Dialect: "minicodex",
		Side: wire.ClientToServer})
	s.growLocked(len(s.diffs)-1, rows)
}

// grow appends rows changed rows to the diff of conn.
func (s *replaySource) grow(conn string, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.diffs {
		if s.diffs[i].Conn == conn {
			s.growLocked(i, rows)
		}
	}
}

func (s *replaySource) growLocked(i, rows int) {
	d := &s.diffs[i]
	for k := 0; k < rows; k++ {
		n := int64(len(d.Rows) + 1)
		frame := func(conn, text string) *reports.Frame {
			p := fmt.Sprintf(`{"type":"send","text":%q}`, text)
			return &reports.Frame{Index: n, Conn: conn, Dir: wire.ClientToServer, Op: "text", Type: "send", Size: len(p), Payload: p}
		}
		d.Rows = append(d.Rows, reports.ReplayRow{Op: reports.DiffChanged, Recorded: frame(d.Conn, fmt.Sprint("recorded ", n)),
			Replayed: frame(d.Replayed, fmt.Sprint("sent ", n)),
			Members:  []reports.MemberDiff{{Pointer: "/text", Recorded: fmt.Sprint(`"recorded `, n, `"`), Replayed: fmt.Sprint(`"sent `, n, `"`)}}})
	}
}

// startReplayView serves a live view with replay diffs (as gate --replay
// --web does) of src, without a proxy; it returns the view and its URL.
func startReplayView(t testing.TB, src *replaySource) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Listen: ln.Addr().String(), Replays: true, Title: "wsconform gate"})
	if err != nil {
		t.Fatal(err)
	}
	s.Attach(src)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("web view: %v", err)
		}
	})
	return s, "http://" + ln.Addr().String() + "/"
}

// TestReplaysChangedCoalesced: a stream tells its page to fetch /replays
// when it opens, then once for a burst of notices (the validator notices
// every frame), not once per notice; without Config.Replays (wsproxy) a
// notice does nothing.
func TestReplaysChangedCoalesced(t *testing.T) {
	s, url := startReplayView(t, &replaySource{})
	sse := openSSE(t, url, "")
	if h := sse.next(); h.data["k"] != "hello" {
		t.Fatalf("first event %s, want hello", h.raw)
	}
	if ev := sse.next(); ev.data["k"] != "replays" {
		t.Fatalf("second event %s, want replays", ev.raw)
	}
	for i := 0; i < 1000; i++ {
		s.ReplaysChanged()
	}
	if ev := sse.next(); ev.data["k"] != "replays" {
		t.Fatalf("after the notices: %s, want replays", ev.raw)
	}
	if v, _ := s.changes.state(); v != 1 {
		t.Errorf("1000 notices at once made %d page updates, want 1", v)
	}
	s.ReplaysChanged() // a later notice: one more
	if ev := sse.next(); ev.data["k"] != "replays" {
		t.Fatalf("after a later notice: %s, want replays", ev.raw)
	}

	plain, err := New(Config{Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	plain.ReplaysChanged()
	if plain.changes.pending.Load() {
		t.Error("a view without replays took a notice")
	}
}
