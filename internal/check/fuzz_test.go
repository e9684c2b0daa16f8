package check

import (
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/schemas"
)

// FuzzObserve feeds arbitrary frames to a session of every dialect: frame
// decoding, schema checking and the stateful rules must never panic,
// whatever arrives. The seed corpus is the example corpus of every dialect,
// run by the normal go test.
func FuzzObserve(f *testing.F) {
	seedFromExamples(f)
	f.Add([]byte(`{"type":"resume","last_seen_event_id":-9223372036854775808}`), uint8(0))
	f.Add([]byte(`{"event":"user.ack","seq":1e308}`), uint8(0))
	f.Add([]byte(`{"type":"events_loaded","data":{"events":[{"type":"plan","seq":"x"}],"first_seq":null}}`), uint8(1))
	f.Fuzz(func(t *testing.T, payload []byte, sel uint8) {
		dir := wire.ClientToServer
		if sel&1 == 1 {
			dir = wire.ServerToClient
		}
		conn := string(rune('a' + sel>>1%3))
		for _, name := range dialect.Names() {
			s := NewSession(dialect.MustGet(name), Options{ReplayWindow: 8})
			// Twice, on two connections, so that replay and state rules see
			// a repeat of the same frame.
			for i := 0; i < 2; i++ {
				for _, x := range s.Observe(wire.Frame{Conn: conn, Dir: dir, Op: wire.OpText, Payload: payload, Index: int64(i)}) {
					if x.Rule == "" || x.Message == "" {
						t.Fatalf("%s: finding without rule or message: %+v", name, x)
					}
				}
				conn += "'"
			}
		}
	})
}

func seedFromExamples(f *testing.F) {
	for _, name := range dialect.Names() {
		exs, _ := schemas.Examples(name)
		for _, ex := range exs {
			sel := uint8(0)
			if ex.Dir == "s2c" {
				sel = 1
			}
			f.Add([]byte(ex.Message), sel)
		}
	}
}
