package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// seen is an Observer that writes down what it is told.
type seen struct {
	begin  string
	lines  []string
	bound  []string
	judged []string
}

func (s *seen) Begin(d, reason string)     { s.begin = d + " (" + reason + ")" }
func (s *seen) Line(l recording.Line)      { s.lines = append(s.lines, l.Kind+":"+l.Conn) }
func (s *seen) Bound(conn, session string) { s.bound = append(s.bound, conn+"→"+session) }
func (s *seen) Unreadable(f Finding)       { s.judged = append(s.judged, "unreadable!"+f.Rule) }
func (s *seen) Judged(session string, f wire.Frame, fs []Finding) {
	j := session + "/" + f.Conn
	for _, x := range fs {
		j += "!" + x.Rule
	}
	s.judged = append(s.judged, j)
}

// TestValidateObserver: the observer sees the dialect, every line, each
// connection joining its session (a pending one when its session line
// comes), and every judged frame with its findings, the same findings File
// returns.
func TestValidateObserver(t *testing.T) {
	t.Parallel()
	rec := strings.Join([]string{
		`{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex","time":"2026-11-21T10:00:00Z"}`,
		`{"kind":"open","conn":"c1","session":"s1","url":"ws://h/ws","time":"2026-11-21T10:00:00Z"}`,
		`{"kind":"frame","conn":"c1","session":"s1","dir":"s2c","index":1,"time":"2026-11-21T10:00:01Z","opcode":1,"text":"{\"type\":\"assistant_text\",\"text\":\"a\",\"event_id\":4}"}`,
		`{"kind":"frame","conn":"c1","session":"s1","dir":"s2c","index":2,"time":"2026-11-21T10:00:02Z","opcode":1,"text":"{\"type\":\"assistant_text\",\"text\":\"b\",\"event_id\":3}"}`,
		`{"kind":"close","conn":"c1","session":"s1","time":"2026-11-21T10:00:03Z","code":1006,"by":"network"}`,
		`{"kind":"open","conn":"c2","pending":true,"url":"ws://h/ws","time":"2026-11-21T10:00:04Z"}`,
		`{"kind":"frame","conn":"c2","dir":"c2s","index":3,"time":"2026-11-21T10:00:05Z","opcode":1,"text":"{\"type\":\"resume\",\"last_seen_event_id\":4}"}`,
		`{"kind":"session","conn":"c2","session":"s1","parent":"c1","time":"2026-11-21T10:00:05Z"}`,
		`{"kind":"frame","conn":"c2","session":"s1","dir":"s2c","index":4,"time":"2026-11-21T10:00:06Z","opcode":1,"text":"{\"type\":\"assistant_text\",\"text\":\"c\",\"event_id\":5}"}`,
	}, "\n") + "\n"
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	var s seen
	res, err := File(context.Background(), path, Options{Observer: &s})
	if err != nil {
		t.Fatal(err)
	}
	if s.begin != "minicodex (the recording header names minicodex)" {
		t.Errorf("begin: %s", s.begin)
	}
	if got := strings.Join(s.lines, " "); got != "header: open:c1 frame:c1 frame:c1 close:c1 open:c2 frame:c2 session:c2 frame:c2" {
		t.Errorf("lines: %s", got)
	}
	if got := strings.Join(s.bound, " "); got != "c1→s1 c2→s1" {
		t.Errorf("bound: %s", got)
	}
	if got := strings.Join(s.judged, " "); got != "s1/c1 s1/c1!minicodex.event-id-order s1/c2 s1/c2" {
		t.Errorf("judged: %s", got)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule != "minicodex.event-id-order" {
		t.Errorf("findings: %+v", res.Findings)
	}
}
