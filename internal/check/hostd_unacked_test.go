package check

import (
	"math/rand"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// resumeBefore is hostd's resume-unacked scan as it was before issue 26:
// the first spooled seq below seq sent on another connection, unless the
// run was already reported on this connection.
func resumeBefore(st *hdRun, c *hdConn, run, conn string, seq int64) (hdSentSeq, bool) {
	for _, u := range st.unacked {
		if u.seq >= seq || c.skipped[run] {
			break
		}
		if u.conn == conn {
			continue
		}
		return u, true
	}
	return hdSentSeq{}, false
}

// TestHostdUnackedCount: over random host traffic on three connections
// (resends, acks, reconnects), the count of spooled seqs by connection
// stays that of the spool, and resume reports exactly where the scan of
// the whole spool did.
func TestHostdUnackedCount(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(26))
	s := NewSession(dialect.MustGet("hostd"), Options{ReplayWindow: 64})
	r := s.rules.(*hostd)
	conns := []string{"h1", "h2", "h3"}
	next := int64(1)
	reported := 0
	for i := 0; i < 5000; i++ {
		conn := conns[rng.Intn(len(conns))]
		// mostly the next seq, sometimes a resend or a jump ahead
		seq := next
		switch rng.Intn(6) {
		case 0:
			seq = max(1, next-int64(rng.Intn(20)))
		case 1:
			seq = next + int64(rng.Intn(5))
		}
		next = max(next, seq+1)
		st, c := r.runs[hdRunID], r.conns[conn]
		var want bool
		if st != nil && c != nil {
			if last, seen := c.last[hdRunID]; !seen || seq > last { // resume judges events in order
				_, want = resumeBefore(st, c, hdRunID, conn, seq)
			}
		}
		var payload string
		dir := wire.ClientToServer
		switch rng.Intn(10) {
		case 0:
			payload, dir = hdAck(int(seq)/2), wire.ServerToClient
		case 1:
			s.Closed(conn)
			continue
		default:
			payload = hdOut(int(seq), "x")
		}
		fs := s.Observe(wire.Frame{Conn: conn, URL: hdURLs(conn), Dir: dir, Op: wire.OpText, Payload: []byte(payload), Index: int64(i + 1)})
		got := false
		for _, f := range fs {
			got = got || f.Rule == "hostd.resume-unacked"
		}
		if dir == wire.ClientToServer && c != nil && got != want {
			t.Fatalf("frame %d (%s seq %d): resume-unacked %v, the whole scan says %v", i, conn, seq, got, want)
		}
		if got {
			reported++
		}
		if st := r.runs[hdRunID]; st != nil {
			count := map[string]int{}
			for _, u := range st.unacked {
				count[u.conn]++
			}
			if len(count) != len(st.unackedBy) {
				t.Fatalf("frame %d: spool by connection %v, counted %v", i, count, st.unackedBy)
			}
			for k, n := range count {
				if st.unackedBy[k] != n {
					t.Fatalf("frame %d: spool by connection %v, counted %v", i, count, st.unackedBy)
				}
			}
		}
	}
	if reported < 10 {
		t.Fatalf("only %d resume-unacked findings: the traffic does not exercise the rule", reported)
	}
}
