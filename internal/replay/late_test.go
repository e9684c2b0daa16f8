package replay

import (
	"fmt"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// TestLateTail: a message a server sends after all the recorded ones is
// late, not a difference, when the recorded client left right after its
// last answer; when that client stayed on for seconds and the server
// said nothing more, it is an extra message.
func TestLateTail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		leave   time.Duration
		want    string
		matched bool
	}{
		{"client left at once", 5 * time.Millisecond, reports.DiffLate, true},
		{"client stayed", 3 * time.Second, reports.DiffExtra, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := replayAgainst(t, echoRecording(tt.leave), echoServer(t, "", `{"type":"notice","text":"bye"}`),
				Options{AnswerTimeout: 300 * time.Millisecond})
			if len(res.Diffs) != 1 {
				t.Fatalf("%d diffs, want 1", len(res.Diffs))
			}
			rows := res.Diffs[0].Rows
			last := rows[len(rows)-1]
			if last.Op == "close" || last.Recorded != nil && last.Recorded.Op == "close" {
				last = rows[len(rows)-2]
			}
			if last.Op != tt.want || (res.Differs() == 0) != tt.matched {
				t.Errorf("last row %s, matched %v; want %s, %v:\n%s", last.Op, res.Differs() == 0, tt.want, tt.matched, describe(res))
			}
		})
	}
}

// TestLeftEarly: only a client's own early end makes the tail late.
func TestLeftEarly(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	answer := wire.Frame{Dir: wire.ServerToClient, Op: wire.OpText, Time: t0}
	tests := []struct {
		name string
		end  *End
		stop time.Time
		want bool
	}{
		{"client closed at once", &End{By: recording.ByClient, Time: t0.Add(10 * time.Millisecond)}, time.Time{}, true},
		{"client closed later", &End{By: recording.ByClient, Time: t0.Add(2 * time.Second)}, time.Time{}, false},
		{"dropped at once", &End{By: recording.ByNetwork, Time: t0.Add(time.Millisecond)}, time.Time{}, true},
		{"server closed", &End{By: recording.ByServer, Time: t0.Add(time.Millisecond)}, time.Time{}, false},
		{"recording stopped at once", nil, t0.Add(50 * time.Millisecond), true},
		{"recording stopped later", nil, t0.Add(time.Minute), false},
	}
	for _, tt := range tests {
		c := &Conn{Opened: t0.Add(-time.Second), Frames: []wire.Frame{answer}, End: tt.end}
		if got := leftEarly(c, tt.stop); got != tt.want {
			t.Errorf("%s: leftEarly = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestLateRows: only the tail after the client let go turns late; a
// missing message the recorded client had before its close is a
// difference wherever it is.
func TestLateRows(t *testing.T) {
	t.Parallel()
	rec := func(i int64) *reports.Frame { return &reports.Frame{Index: i} }
	c := &Conn{Frames: []wire.Frame{{Index: 1}, {Index: 2}, {Index: 3, Dir: wire.ClientToServer, Op: wire.OpClose}, {Index: 4}}}
	tests := []struct {
		name  string
		rows  []reports.ReplayRow
		early bool
		want  string
	}{
		{"missing after the close", []reports.ReplayRow{{Op: reports.DiffSame}, {Op: reports.DiffMissing, Recorded: rec(4)}}, false, "[same late]"},
		{"missing before the close", []reports.ReplayRow{{Op: reports.DiffMissing, Recorded: rec(2)}, {Op: reports.DiffMissing, Recorded: rec(4)}}, false, "[missing late]"},
		{"extra, client left early", []reports.ReplayRow{{Op: reports.DiffSame}, {Op: reports.DiffExtra}, {Op: reports.DiffExtra}}, true, "[same late late]"},
		{"extra, client stayed", []reports.ReplayRow{{Op: reports.DiffSame}, {Op: reports.DiffExtra}}, false, "[same extra]"},
		{"extra before a same row", []reports.ReplayRow{{Op: reports.DiffExtra}, {Op: reports.DiffSame}}, true, "[extra same]"},
	}
	for _, tt := range tests {
		late(tt.rows, c, tt.early)
		var ops []string
		for _, r := range tt.rows {
			ops = append(ops, r.Op)
		}
		if got := fmt.Sprint(ops); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}
