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

// FuzzReplayCompare delivers two payloads under one id in every dialect,
// the second on another connection, so that the event logs compare a
// sighting whose bytes differ from the original's: the original is decoded
// again from its payload (and, under checkRebuild, every recorded source
// is held to the view it was recorded with).
func FuzzReplayCompare(f *testing.F) {
	f.Add([]byte(`{"type":"assistant_text","text":"a","event_id":1}`), []byte(`{"event_id":1,"text":"a","type":"assistant_text"}`), uint8(1))
	f.Add([]byte(`{"type":"run.output","run_id":"r","seq":1,"data":{"stream":"stdout","text":"x"}}`), []byte(`{"type":"run.output","run_id":"r","seq":1,"data":{"stream":"stdout","text":"y"}}`), uint8(0))
	f.Add([]byte(`{"event":"agent.partial_answer","seq":3,"content":"x","connection_id":"a"}`), []byte(`{"event":"agent.partial_answer","seq":3,"content":"x","connection_id":"b"}`), uint8(1))
	f.Add([]byte(`{"type":"events_loaded","data":{"events":[{"type":"plan","seq":2}]}}`), []byte(`{"type":"events_loaded","data":{"events":[{"type":"plan","seq":2,"x":1}]}}`), uint8(1))
	f.Fuzz(func(t *testing.T, a, b []byte, sel uint8) {
		dir := wire.ClientToServer
		if sel&1 == 1 {
			dir = wire.ServerToClient
		}
		for _, name := range dialect.Names() {
			s := NewSession(dialect.MustGet(name), Options{ReplayWindow: 8})
			for i, p := range [][]byte{a, b} {
				for _, x := range s.Observe(wire.Frame{Conn: string(rune('a' + i)), Dir: dir, Op: wire.OpText, Payload: p, Index: int64(i)}) {
					if x.Rule == "" || x.Message == "" {
						t.Fatalf("%s: finding without rule or message: %+v", name, x)
					}
				}
			}
		}
	})
}
