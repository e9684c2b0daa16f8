package replay

import (
	"sync"
	"time"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// journal is the replay's own recording: every open, frame and close of
// the new connections in the order they happened, as recording lines, so
// that the check engine judges the new traffic exactly as it judges a
// recording (validate's Grouper), and --record can write it out.
type journal struct {
	mu    sync.Mutex
	lines []recording.Line
	index int64
}

func (j *journal) open(conn, session, parent, url string, t time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.lines = append(j.lines, recording.Line{Kind: recording.KindOpen, Conn: conn, Session: session, Parent: parent, URL: url, Time: t})
}

// frame journals f, numbering it, and returns it with its index.
func (j *journal) frame(session string, f wire.Frame) wire.Frame {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.index++
	f.Index = j.index
	l := recording.FrameLine(session, f)
	l.URL = f.URL
	j.lines = append(j.lines, l)
	return f
}

func (j *journal) close(conn, session string, code int, reason, by string, t time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.lines = append(j.lines, recording.Line{Kind: recording.KindClose, Conn: conn, Session: session, Code: code, Reason: reason, By: by, Time: t})
}

// all returns the lines journaled so far.
func (j *journal) all() []recording.Line {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]recording.Line(nil), j.lines...)
}
