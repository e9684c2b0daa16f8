package web

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/redact"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// FuzzEncode: whatever a frame carries (any bytes, cut anywhere, any
// opcode) and whatever a finding says, a batch is one SSE message with the
// id of its last event and one data line, a JSON array of the events and
// the stats; a text payload keeps its text.
func FuzzEncode(f *testing.F) {
	f.Add([]byte(`{"type":"hello","apiKey":"sk-123456789"}`), 1, 0, "rule", "msg\nline")
	f.Add([]byte("caf\xc3\xa9 \xe2\x82"), 1, 2, "", "")
	f.Add([]byte{0, 1, 2, 0xff}, 2, 0, "x", "</script><b>")
	f.Add([]byte("\r\n\n\ndata: x\n\n"), 8, 0, "", "")
	f.Fuzz(func(t *testing.T, payload []byte, op int, extra int, rule, msg string) {
		e := &encoder{}
		var out bytes.Buffer
		items := []item{
			{id: 7, ev: proxy.LiveEvent{Kind: proxy.LiveFrame, Time: time.Unix(1, 0), Conn: "c1", Dir: wire.ServerToClient,
				Op: wire.Opcode(op), Payload: payload, Size: len(payload) + max(0, extra)}},
			{id: 8, ev: proxy.LiveEvent{Kind: proxy.LiveFinding}, finding: reports.Finding{Finding: check.Finding{Rule: rule, Message: msg, Frame: 1}}},
		}
		if err := e.batch(&out, items, &streamStats{K: "stats", Dropped: 3}); err != nil {
			t.Fatal(err)
		}
		msg0, rest, ok := strings.Cut(out.String(), "\n\n")
		if !ok || rest != "" {
			t.Fatalf("not one message: %q", out.String())
		}
		lines := strings.Split(msg0, "\n")
		if len(lines) != 2 || lines[0] != "id: 8" || !strings.HasPrefix(lines[1], "data: ") {
			t.Fatalf("message %q", msg0)
		}
		var evs []pageEvent
		if err := json.Unmarshal([]byte(lines[1][6:]), &evs); err != nil {
			t.Fatalf("data %q: %v", lines[1], err)
		}
		if len(evs) != 3 || evs[0].K != "f" || evs[1].K != "x" || evs[2].K != "stats" {
			t.Fatalf("events %+v", evs)
		}
		// A text payload is shown as redact.JSON redacts it.
		if want, _ := redact.JSON(payload); wire.Opcode(op) == wire.OpText && utf8.Valid(payload) && extra <= 0 &&
			evs[0].Payload != string(want) {
			t.Errorf("text payload %q became %q, want %q", payload, evs[0].Payload, want)
		}
	})
}

// TestEncodeRedacts: credentials in frames (text, binary, close) and close
// reasons are redacted unless kept.
func TestEncodeRedacts(t *testing.T) {
	const ghp = "ghp_0123456789abcdefghijABCDEFGHIJklmnop"
	frame := func(id uint64, op wire.Opcode, p string) item {
		return item{id: id, ev: proxy.LiveEvent{Kind: proxy.LiveFrame, Op: op, Conn: "c1", Payload: []byte(p), Size: len(p)}}
	}
	items := []item{
		frame(1, wire.OpText, `{"type":"auth","apiKey":"sk-live-123456789"}`),
		frame(2, wire.OpBinary, "\xff\x00"+ghp),
		frame(3, wire.OpClose, "revoked "+ghp),
		{id: 4, ev: proxy.LiveEvent{Kind: proxy.LiveClose, Conn: "c1", CloseCode: 1008, Reason: "revoked " + ghp}},
	}
	for _, keep := range []bool{false, true} {
		for _, it := range items {
			var out bytes.Buffer
			if err := (&encoder{keep: keep}).batch(&out, []item{it}, &streamStats{K: "stats"}); err != nil {
				t.Fatal(err)
			}
			s := out.String()
			for _, secret := range []string{"sk-live-123456789", ghp, base64.StdEncoding.EncodeToString([]byte("\xff\x00" + ghp))} {
				if strings.Contains(s, secret) && !keep {
					t.Errorf("event %d holds %s: %s", it.id, secret, s)
				}
			}
			if keep && !strings.Contains(s, "sk-live-123456789") && !strings.Contains(s, ghp) &&
				!strings.Contains(s, base64.StdEncoding.EncodeToString([]byte("\xff\x00"+ghp))) {
				t.Errorf("event %d lost its secret with keep: %s", it.id, s)
			}
		}
	}
}
