package reports

import (
	"fmt"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

func TestReportSessionBuilder(t *testing.T) {
	t.Parallel()
	r := sessions()
	if len(r.Sessions) != 2 {
		t.Fatalf("%d sessions", len(r.Sessions))
	}
	s1, s2 := r.Sessions[0], r.Sessions[1]
	if s1.ID != "s1" || s1.Verdict != Failed || len(s1.Conns) != 2 || s1.FramesTotal != 4 || len(s1.Frames) != 4 {
		t.Errorf("s1: %+v", s1)
	}
	if c := s1.Conns[1]; c.ID != "c2" || c.Parent != "c1" || c.Frames != 2 || !c.Closed.IsZero() {
		t.Errorf("c2: %+v", c)
	}
	if c := s1.Conns[0]; c.CloseCode != 1006 || c.CloseBy != "network" {
		t.Errorf("c1: %+v", c)
	}
	if len(s1.Findings) != 1 || s1.Findings[0].Session != "s1" {
		t.Errorf("findings: %+v", s1.Findings)
	}
	if s2.Verdict != Passed || s2.Source != "planted.jsonl" || s2.Conns[0].CloseReason != "bye" {
		t.Errorf("s2: %+v", s2)
	}
	if r.Verdict != Failed || r.Counts[Failed] != 1 || r.Counts[Passed] != 1 {
		t.Errorf("report %s %v", r.Verdict, r.Counts)
	}
}

// TestReportSessionWireLimits: a long session keeps its first and last
// frames and those findings point at, nothing else; with zero limits it
// keeps no frame but still counts them.
func TestReportSessionWireLimits(t *testing.T) {
	t.Parallel()
	lim := WireLimits{Head: 10, Tail: 5, Marked: 3, Payload: 8}
	b := NewSessionBuilder("minicodex", "", "", lim)
	none := NewSessionBuilder("minicodex", "", "", WireLimits{})
	bad := []Finding{{Finding: check.Finding{Rule: "r", Severity: check.Warning}}}
	for i := int64(1); i <= 1000; i++ {
		f := wire.Frame{Conn: "c1", Index: i, Dir: wire.ServerToClient, Op: wire.OpText, Time: time.Unix(i, 0),
			Payload: []byte(fmt.Sprintf(`{"n":%d,"pad":"xxxxxxxx"}`, i))}
		var fs []Finding
		if i%100 == 0 {
			fs = bad
		}
		b.Frame("s", f, "", "", fs)
		none.Frame("s", f, "", "", fs)
	}
	s := b.Sessions()[0]
	var got []int64
	for _, f := range s.Frames {
		got = append(got, f.Index)
		if !f.Truncated || len(f.Payload) != 8 {
			t.Errorf("frame %d: payload %q not cut to 8 bytes", f.Index, f.Payload)
		}
	}
	want := fmt.Sprint([]int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 200, 300, 996, 997, 998, 999, 1000})
	if fmt.Sprint(got) != want || s.FramesTotal != 1000 || len(s.Findings) != 10 || s.Verdict != NonStrict {
		t.Errorf("kept %v (want %s), total %d, %d findings, %s", got, want, s.FramesTotal, len(s.Findings), s.Verdict)
	}
	if n := none.Sessions()[0]; len(n.Frames) != 0 || n.FramesTotal != 1000 || n.Conns[0].Frames != 1000 {
		t.Errorf("zero limits kept %d frames, counted %d", len(n.Frames), n.FramesTotal)
	}
}

// TestReportSessionUnbound: a connection that never joined a session
// (opened, then nothing) is a session of its own.
func TestReportSessionUnbound(t *testing.T) {
	t.Parallel()
	b := NewSessionBuilder("hostd", "", "", DefaultWireLimits)
	b.OpenConn("lonely", "ws://h/ws/app", time.Unix(1, 0))
	b.CloseConn("lonely", time.Unix(2, 0), 1000, "", "client")
	ss := b.Sessions()
	if len(ss) != 1 || ss[0].ID != "lonely" || ss[0].Verdict != Passed || len(ss[0].Conns) != 1 {
		t.Errorf("%+v", ss)
	}
}

func TestReportDescribe(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dialect, payload, typ, seq string
	}{
		{"minicodex", `{"type":"turn_done","event_id":6}`, "turn_done", "6"},
		{"mitto", `{"type":"agent_message","data":{"seq":12}}`, "agent_message", "12"},
		{"myagent", `{"event":"agent.message","seq":3}`, "agent.message", "3"},
		{"minicodex", `not json`, "", ""},
	} {
		d := mustDialect(t, c.dialect)
		typ, seq := Describe(d, wire.Frame{Op: wire.OpText, Payload: []byte(c.payload)})
		if typ != c.typ || seq != c.seq {
			t.Errorf("%s %s: %q %q", c.dialect, c.payload, typ, seq)
		}
	}
	if SeqLabel("minicodex") != "event_id" || SeqLabel("coworker") != "index" || SeqLabel("nope") != "seq" {
		t.Errorf("labels: %s %s %s", SeqLabel("minicodex"), SeqLabel("coworker"), SeqLabel("nope"))
	}
}

func mustDialect(t *testing.T, name string) *dialect.Dialect {
	t.Helper()
	d, err := dialect.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
