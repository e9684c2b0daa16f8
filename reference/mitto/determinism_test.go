package mitto_test

import (
	"slices"
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference/server"
)

// The same conversation on two fresh servers with sequential ids and a
// fixed clock yields byte-identical frames.
func TestDeterminism(t *testing.T) {
	t.Parallel()
	fixed := time.Date(2024, 6, 10, 6, 13, 20, 0, time.UTC)
	run := func() []string {
		srv := start(t, server.Config{Now: func() time.Time { return fixed }})
		c := srv.Dial(t, "/ws")
		var frames []string
		keep := func(msgs ...[]byte) {
			for _, m := range msgs {
				frames = append(frames, string(m))
			}
		}
		keep(c.Expect("connected").Raw)
		for i, text := range []string{"/think carefully", `/exec read {"path":"a.go"}`, "/fail nope", "hello world"} {
			for _, m := range ask(c, string(rune('a'+i)), text, "prompt_complete") {
				keep(m.Raw)
			}
		}
		c.Send(prompt("q", "/ask select Pick one"))
		msgs := c.Until("ui_prompt")
		c.Send(answer(msgs[len(msgs)-1].Str("/data/request_id"), "blue"))
		msgs = append(msgs, c.Until("prompt_complete")...)
		for _, m := range msgs {
			keep(m.Raw)
		}
		c.Send(keepalive())
		keep(c.Expect("keepalive_ack").Raw)
		c.Send(frame("load_events", map[string]any{}))
		keep(c.Expect("events_loaded").Raw)
		return frames
	}
	a, b := run(), run()
	if !slices.Equal(a, b) {
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("frame %d differs:\n%s\n%s", i, a[i], b[i])
			}
		}
		t.Fatalf("%d frames vs %d", len(a), len(b))
	}
}
