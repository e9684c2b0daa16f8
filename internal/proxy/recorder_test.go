package proxy

import (
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// TestRecorderFlushesLinesWithoutFrames: lines that are not frames (a
// shutdown's close lines, the last of a recording) reach the file on sync
// and on close, queued or written in place. They carry no frame index, and
// the recorder used to flush only when a frame's index grew: the close
// lines of TestShutdownClosesBothLegs stayed in the buffer (1 of 3 written,
// under load).
func TestRecorderFlushesLinesWithoutFrames(t *testing.T) {
	t.Parallel()
	closeLine := func(conn string) recJob {
		return recJob{write: func(w *recording.Writer) error {
			return w.Close(conn, conn, 1001, "going away", recording.ByProxy, time.Now())
		}}
	}
	for _, inPlace := range []bool{false, true} {
		var file syncBuffer
		w, err := recording.NewWriter(&file, recording.Header{Dialect: "minicodex", Tool: "test"})
		if err != nil {
			t.Fatal(err)
		}
		r := newRecorder(w, func(err error) { t.Error(err) })
		go r.run()
		r.push(recJob{session: "c1", f: wire.Frame{Conn: "c1", Dir: wire.ServerToClient, Op: wire.OpText, Payload: []byte(`{}`), Index: 1}}, inPlace)
		r.sync()
		r.push(closeLine("c1"), inPlace)
		r.sync()
		if n := strings.Count(file.String(), `"kind":"close"`); n != 1 {
			t.Errorf("inPlace %v: after sync the file has %d close lines, want 1", inPlace, n)
		}
		r.push(closeLine("c2"), inPlace)
		r.close()
		if n := strings.Count(file.String(), `"kind":"close"`); n != 2 {
			t.Errorf("inPlace %v: after close the file has %d close lines, want 2", inPlace, n)
		}
	}
}
