package recording

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// longestLine measures the lines written to it without keeping them.
type longestLine struct{ cur, max int64 }

func (l *longestLine) Write(p []byte) (int, error) {
	n := len(p)
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.cur += int64(len(p))
			return n, nil
		}
		l.max = max(l.max, l.cur+int64(i))
		l.cur = 0
		p = p[i+1:]
	}
}

// TestLineBytesBound: whatever a frame of n bytes holds, the line a Writer
// writes for it fits LineBytes(n), so a frame of MaxFrameBytes fits
// MaxLineBytes and the Reader reads it back (the proxy's
// TestRecordingAtFrameLimit writes and reads one); and the bound is not
// loose: a text frame of control characters comes within the envelope of
// it. 1 MiB frames: the cost of a line is linear in its frame.
func TestLineBytesBound(t *testing.T) {
	t.Parallel()
	if MaxLineBytes != LineBytes(MaxFrameBytes) {
		t.Fatalf("MaxLineBytes %d, LineBytes(MaxFrameBytes) %d", MaxLineBytes, LineBytes(MaxFrameBytes))
	}
	n := 1 << 20
	rep := func(s string) []byte { return []byte(strings.Repeat(s, n/len(s))) }
	for _, tc := range []struct {
		name    string
		op      wire.Opcode
		payload []byte
		tight   bool
	}{
		{"text of control characters (6 bytes each)", wire.OpText, rep("\x01"), true},
		{"text of quotes and backslashes", wire.OpText, rep(`"\`), false},
		{"text of U+2028", wire.OpText, rep("\u2028"), false},
		{"JSON of credentials, redacted", wire.OpText, rep(`{"pwd":1},`), false},
		{"JSON of credentials with escapes", wire.OpText, rep(`{"pwd":"\u0001\n"},`), false},
		{"binary", wire.OpBinary, rep("\x00\xff\x01"), false},
		{"text that is not UTF-8", wire.OpText, rep("\xff"), false},
	} {
		var l longestLine
		w, err := NewWriter(&l, Header{Dialect: "minicodex", Tool: "test", Started: t0})
		if err != nil {
			t.Fatal(err)
		}
		f := wire.Frame{Conn: "c1", Index: 1 << 40, Dir: wire.ClientToServer, Time: time.Now(), Op: tc.op, Payload: tc.payload}
		if err := w.Frame(strings.Repeat("s", 80), f); err != nil {
			t.Fatal(err)
		}
		if limit := LineBytes(int64(len(tc.payload))); l.max > limit {
			t.Errorf("%s: a line of %d bytes, over the limit %d", tc.name, l.max, limit)
		}
		if tc.tight && l.max < int64(maxEscape*len(tc.payload)) {
			t.Errorf("%s: a line of %d bytes: the bound is loose", tc.name, l.max)
		}
	}
}
