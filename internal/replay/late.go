package replay

import (
	"time"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// lateWindow: a recorded client that ended its connection sooner than
// this after the last server message it got may have left before the
// server's next one; what a replay receives after all the recorded
// messages is then DiffLate, not a difference. Tests and scripted
// clients close as soon as they have what they wait for, so the last
// message of a session is a race the recording cannot settle.
const lateWindow = time.Second

// leftEarly reports whether the recorded client of c ended it (closed,
// dropped, or the recording stopped; not the server) within lateWindow
// of the last server message it had (or of the open, when it had none).
// stop is when the recording stopped, for a connection it left open.
func leftEarly(c *Conn, stop time.Time) bool {
	end := stop
	if c.End != nil {
		if c.End.By == recording.ByServer {
			return false
		}
		end = c.End.Time
	}
	last := c.Opened
	for i := len(c.Frames) - 1; i >= 0; i-- {
		if f := c.Frames[i]; f.Dir == wire.ServerToClient && (f.Op == wire.OpText || f.Op == wire.OpBinary) {
			last = f.Time
			break
		}
	}
	if end.IsZero() || last.IsZero() {
		return false
	}
	return end.Sub(last) < lateWindow
}

// late turns the rows at the end of a diff that only one stream has, and
// that came after the client let go, into DiffLate rows: an extra one
// when the recorded client left early (leftEarly), a missing one that
// the recording has after its client's close frame (the replay closes at
// the same point, and whether a server still sends after reading a close
// is timing).
func late(rows []reports.ReplayRow, c *Conn, early bool) {
	closed := clientClose(c)
	for i := len(rows) - 1; i >= 0; i-- {
		r := &rows[i]
		switch {
		case r.Op == reports.DiffExtra && early:
		case r.Op == reports.DiffMissing && closed > 0 && r.Recorded != nil && r.Recorded.Index > closed:
		default:
			return
		}
		r.Op = reports.DiffLate
	}
}

// clientClose is the index of the recorded client's close frame (0 when
// it sent none).
func clientClose(c *Conn) int64 {
	for _, f := range c.Frames {
		if f.Dir == wire.ClientToServer && f.Op == wire.OpClose {
			return f.Index
		}
	}
	return 0
}
