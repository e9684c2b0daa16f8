// Package checkstream builds each dialect's realistic stream of conforming
// frames, the traffic the check engine is measured on. It lives outside
// package check's tests so that both BenchmarkObserve and the benchmark
// command (ci/bench, through internal/perf) measure the same frames; it
// imports only internal/wire, so package check's own tests can use it.
package checkstream

import (
	"fmt"
	"strings"

	"github.com/wsconform/wsconform/internal/wire"
)

// Frames builds a realistic stream of n frames of a dialect: the
// handshake, then the event that dominates its traffic, numbered in order,
// with payloads cycling through 200 B to 4 KiB. It returns nil for a
// dialect it does not know.
func Frames(dialect string, n int) []wire.Frame {
	sizes := []int{120, 500, 1400, 3700}
	var out []wire.Frame
	add := func(dir wire.Direction, s string) {
		out = append(out, wire.Frame{Conn: "c1", Dir: dir, Op: wire.OpText, Payload: []byte(s), Index: int64(len(out))})
	}
	text := func(i int) string { return strings.Repeat("lorem ipsum ", sizes[i%len(sizes)]/12) }
	switch dialect {
	case "minicodex":
		add(wire.ClientToServer, `{"type":"hello","v":"1.0.0","client_capabilities":["approvals"]}`)
		for i := 1; len(out) < n; i++ {
			add(wire.ServerToClient, fmt.Sprintf(`{"type":"assistant_text","text":%q,"event_id":%d}`, text(i), i))
		}
	case "hostd":
		for i := 1; len(out) < n; i++ {
			add(wire.ClientToServer, fmt.Sprintf(`{"type":"run.output","ts":"2026-11-21T10:00:00Z","host_id":"host_1","run_id":"run_1","seq":%d,"data":{"stream":"stdout","text":%q}}`, i, text(i)))
		}
	case "myagent":
		add(wire.ServerToClient, `{"event":"system.connected","timestamp":"2026-11-21T10:00:00Z","session_id":"sess_1","content":{"server_version":"1.0","capabilities":["seq"]}}`)
		for i := 1; len(out) < n; i++ {
			add(wire.ServerToClient, fmt.Sprintf(`{"event":"agent.partial_answer","timestamp":"2026-11-21T10:00:00Z","session_id":"sess_1","seq":%d,"content":%q,"metadata":{"progress":%d}}`, i, text(i), i))
		}
	case "mitto":
		for i := 1; len(out) < n; i++ {
			add(wire.ServerToClient, fmt.Sprintf(`{"type":"agent_message","data":{"seq":%d,"max_seq":%d,"html":%q,"is_prompting":true}}`, i, i, "<p>"+text(i)+"</p>"))
		}
	case "coworker":
		add(wire.ServerToClient, `{"type":"server_hello","sessionId":"550e8400-e29b-41d4-a716-446655440000","protocolVersion":"3.0","capabilities":{"modelStreamChunk":"v1"},"config":{"provider":"openai","model":"gpt-5.2","workingDirectory":"/w","outputDirectory":"/w/out"}}`)
		for i := 0; len(out) < n; i++ {
			add(wire.ServerToClient, fmt.Sprintf(`{"type":"model_stream_chunk","sessionId":"550e8400-e29b-41d4-a716-446655440000","turnId":"turn-1","index":%d,"provider":"openai","model":"gpt-5.2","partType":"text_delta","part":{"id":"txt_1","text":%q}}`, i, text(i)))
		}
	}
	return out
}
