package recording

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// encoderLine is what the Writer's json.Encoder writes for the line of f.
func encoderLine(t testing.TB, session string, f wire.Frame) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	l := FrameLine(session, f)
	l.Time = l.Time.UTC()
	err := enc.Encode(l)
	return b.Bytes(), err
}

func checkFrameLine(t testing.TB, session string, f wire.Frame) {
	t.Helper()
	want, err := encoderLine(t, session, f)
	got, ok := appendFrameLine([]byte("prefix"), session, f)
	if err != nil {
		if ok {
			t.Errorf("appendFrameLine wrote %s where encoding/json fails: %v", got, err)
		}
		return
	}
	if !ok || !bytes.Equal(got[len("prefix"):], want) || !bytes.HasPrefix(got, []byte("prefix")) {
		t.Errorf("appendFrameLine (%v):\n got %s\nwant %s", ok, got, want)
	}
}

func TestAppendFrameLineIsEncoder(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 27, 23, 1, 2, 345678900, time.FixedZone("x", 5*3600+30*60))
	for _, tc := range []struct {
		session string
		f       wire.Frame
	}{
		{"s1", wire.Frame{Conn: "c1", Dir: wire.ClientToServer, Index: 7, Time: at, Op: wire.OpText, Payload: []byte(`{"type":"send","text":"a <b> & \"q\" é \u2028"}`)}},
		{"", wire.Frame{Conn: "c2", Dir: wire.ServerToClient, Index: 1, Time: at.Truncate(time.Second), Op: wire.OpText, Payload: []byte("bad \xff utf-8")}},
		{"sé\x01", wire.Frame{Conn: "", Dir: "", Index: 0, Time: time.Unix(0, 0), Op: 0, Payload: nil}},
		{"s", wire.Frame{Conn: "c", Dir: wire.ServerToClient, Index: -3, Time: at, Op: wire.OpBinary, Payload: []byte{0, 1, 2, 0xff}}},
		{"s", wire.Frame{Conn: "c", Dir: wire.ServerToClient, Index: 9, Time: at, Op: wire.OpClose, CloseCode: 1000, Payload: []byte("bye")}},
		{"s", wire.Frame{Conn: "c", Dir: wire.ClientToServer, Index: 10, Time: at, Op: wire.OpPing, Payload: []byte("")}},
		{"s", wire.Frame{Conn: "c", Dir: wire.ClientToServer, Index: 11, Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), Op: wire.OpText, Payload: []byte("{}")}},
		{"s", wire.Frame{Conn: "c", Dir: wire.ClientToServer, Index: 12, Time: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), Op: wire.OpText, Payload: []byte("{}")}},
		{"s", wire.Frame{Conn: "c", Dir: wire.ClientToServer, Index: 13, Time: time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("y", -3600)), Op: wire.OpText, Payload: []byte("{}")}},
	} {
		checkFrameLine(t, tc.session, tc.f)
	}
}

func FuzzAppendFrameLine(f *testing.F) {
	f.Add("s1", "c1", "c2s", int64(3), 1, []byte(`{"type":"x"}`), 0, int64(1_700_000_000), int64(123_456_789), 3600)
	f.Add("", "", "", int64(0), 2, []byte{0xff}, 0, int64(0), int64(0), 0)
	f.Add("\u2028", "c", "s2c", int64(-1), 8, []byte("bye"), 1001, int64(-62135596801), int64(0), -7200)
	f.Add("s", "c", "s2c", int64(1), 1, []byte("{}"), 0, int64(253402300800), int64(5), 0)
	f.Fuzz(func(t *testing.T, session, conn, dir string, index int64, op int, payload []byte, code int, sec, nanos int64, offset int) {
		at := time.Unix(sec, nanos).In(time.FixedZone("z", offset%(24*3600)))
		checkFrameLine(t, session, wire.Frame{Conn: conn, Dir: wire.Direction(dir), Index: index, Time: at,
			Op: wire.Opcode(op), CloseCode: code, Payload: payload})
	})
}

// BenchmarkFrameLine writes a 1 KiB minicodex event's line the way the
// Writer did before (FrameLine and a json.Encoder) and the way it does
// (appendFrameLine), side by side under the same load:
//
//	go test -run XXX -bench BenchmarkFrameLine ./internal/recording
func BenchmarkFrameLine(b *testing.B) {
	text := `{"type":"assistant_text","event_id":4711,"session_id":"sess_0123456789","text":"` +
		string(bytes.Repeat([]byte("lorem ipsum dolor sit amet, \"quoted\" é "), 24)) + `"}`
	f := wire.Frame{Conn: "c12", Dir: wire.ServerToClient, Index: 123456, Time: time.Now(), Op: wire.OpText, Payload: []byte(text)}
	b.Run("encoder", func(b *testing.B) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			buf.Reset()
			l := FrameLine("sess_0123456789", f)
			l.Time = l.Time.UTC()
			_ = enc.Encode(l)
		}
	})
	b.Run("append", func(b *testing.B) {
		var line []byte
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			line, _ = appendFrameLine(line[:0], "sess_0123456789", f)
		}
	})
}
