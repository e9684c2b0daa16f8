package proxy

import (
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/wire"
)

// TestWireLogIsBounded: a session's wire log keeps its first and last
// frames and the frames findings point at, with payloads cut, however long
// the session runs.
func TestWireLogIsBounded(t *testing.T) {
	t.Parallel()
	s := newSessionLog("s")
	big := []byte(strings.Repeat("x", 1<<20))
	for i := int64(1); i <= 100_000; i++ {
		s.log(wire.Frame{Index: i, Op: wire.OpText, Payload: big}, "t", "", i%7 == 0)
	}
	if len(s.head) != wireHead || len(s.tail) != wireTail || len(s.marked) != wireMarked {
		t.Fatalf("head %d tail %d marked %d", len(s.head), len(s.tail), len(s.marked))
	}
	frames := s.frames()
	if frames[0].Index != 1 || frames[len(frames)-1].Index != 100_000 {
		t.Errorf("wire log spans %d..%d", frames[0].Index, frames[len(frames)-1].Index)
	}
	for _, f := range frames {
		if !f.Truncated || len(f.Payload) > wirePayload || f.Size != 1<<20 {
			t.Fatalf("frame %d payload %d bytes of %d, truncated %v", f.Index, len(f.Payload), f.Size, f.Truncated)
		}
	}
	for _, lf := range s.tail {
		if cap(lf.f.Payload) > 2*wirePayload {
			t.Fatalf("the wire log pins a %d-byte payload", cap(lf.f.Payload))
		}
	}
	s.dropLog()
	s.log(wire.Frame{Index: 100_001}, "", "", true)
	if len(s.frames()) != 0 {
		t.Error("a dropped wire log logs again")
	}
}
