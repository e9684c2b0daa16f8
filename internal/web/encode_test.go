package web

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// FuzzEncode: whatever a frame carries (any bytes, cut anywhere, any
// opcode) and whatever a finding says, an event is one SSE message with
// one data line of valid JSON, and a text payload keeps its text.
func FuzzEncode(f *testing.F) {
	f.Add([]byte(`{"type":"hello","apiKey":"sk-123456789"}`), 1, 0, "rule", "msg\nline")
	f.Add([]byte("caf\xc3\xa9 \xe2\x82"), 1, 2, "", "")
	f.Add([]byte{0, 1, 2, 0xff}, 2, 0, "x", "</script><b>")
	f.Add([]byte("\r\n\n\ndata: x\n\n"), 8, 0, "", "")
	f.Fuzz(func(t *testing.T, payload []byte, op int, extra int, rule, msg string) {
		e := &encoder{}
		var out bytes.Buffer
		it := item{id: 7, ev: proxy.LiveEvent{Kind: proxy.LiveFrame, Time: time.Unix(1, 0), Conn: "c1", Dir: wire.ServerToClient,
			Op: wire.Opcode(op), Payload: payload, Size: len(payload) + max(0, extra)}}
		if err := e.event(&out, &it); err != nil {
			t.Fatal(err)
		}
		fi := item{id: 8, ev: proxy.LiveEvent{Kind: proxy.LiveFinding}, finding: reports.Finding{Finding: check.Finding{Rule: rule, Message: msg, Frame: 1}}}
		if err := e.event(&out, &fi); err != nil {
			t.Fatal(err)
		}
		msgs := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
		if len(msgs) != 2 {
			t.Fatalf("%d messages in %q", len(msgs), out.String())
		}
		for _, m := range msgs {
			lines := strings.Split(m, "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[0], "id: ") || !strings.HasPrefix(lines[1], "data: ") {
				t.Fatalf("message %q", m)
			}
			var pe pageEvent
			if err := json.Unmarshal([]byte(lines[1][6:]), &pe); err != nil {
				t.Fatalf("data %q: %v", lines[1], err)
			}
		}
	})
}

// TestEncodeRedacts: credentials in frames are redacted unless kept.
func TestEncodeRedacts(t *testing.T) {
	it := item{id: 1, ev: proxy.LiveEvent{Kind: proxy.LiveFrame, Op: wire.OpText, Conn: "c1",
		Payload: []byte(`{"type":"auth","apiKey":"sk-live-123456789"}`), Size: 44}}
	for _, keep := range []bool{false, true} {
		var out bytes.Buffer
		if err := (&encoder{keep: keep}).event(&out, &it); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "sk-live-123456789") == !keep {
			t.Errorf("keep %v: %s", keep, out.String())
		}
	}
}
