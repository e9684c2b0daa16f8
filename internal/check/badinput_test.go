package check

import (
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// TestBadInputGivesFindings feeds the frames a hostile or broken peer sends:
// each must give its finding, never a crash.
func TestBadInputGivesFindings(t *testing.T) {
	t.Parallel()
	huge := `{"type":"assistant_text","event_id":1,"text":"` + strings.Repeat("x", 10<<20) + `"}`
	cases := []struct {
		name    string
		op      wire.Opcode
		dir     wire.Direction
		payload string
		rule    string
		sev     Severity
	}{
		{"10 MB frame", wire.OpText, wire.ServerToClient, huge, "frame.too-large", Warning},
		{"invalid UTF-8", wire.OpText, wire.ServerToClient, "{\"type\":\"assistant_text\",\"event_id\":1,\"text\":\"\xc3\x28\"}", "frame.utf8", Error},
		{"JSON bomb", wire.OpText, wire.ServerToClient, strings.Repeat("[", 100000) + strings.Repeat("]", 100000), "frame.too-deep", Warning},
		{"NaN", wire.OpText, wire.ServerToClient, `{"type":"heartbeat","interval_ms":NaN}`, "frame.json", Error},
		{"Infinity", wire.OpText, wire.ServerToClient, `{"type":"heartbeat","interval_ms":-Infinity}`, "frame.json", Error},
		{"huge exponent", wire.OpText, wire.ServerToClient, `{"type":"heartbeat","interval_ms":1e400}`, "frame.number-range", Warning},
		{"integer beyond 2^53", wire.OpText, wire.ServerToClient, `{"type":"assistant_text","text":"x","event_id":9007199254740993}`, "frame.number-range", Warning},
		{"duplicate keys", wire.OpText, wire.ServerToClient, `{"type":"heartbeat","interval_ms":1,"interval_ms":2}`, "frame.duplicate-key", Warning},
		{"lone surrogate", wire.OpText, wire.ClientToServer, `{"type":"send","text":"\ud800"}`, "frame.string-encoding", Error},
		{"binary frame", wire.OpBinary, wire.ServerToClient, "\x00\x01", "frame.binary", Error},
		{"not JSON", wire.OpText, wire.ClientToServer, `hello`, "frame.json", Error},
		{"not an object", wire.OpText, wire.ClientToServer, `["hello"]`, "frame.object", Error},
		{"no type", wire.OpText, wire.ClientToServer, `{"v":"1.0.0"}`, "frame.type-missing", Error},
		{"type not a string", wire.OpText, wire.ClientToServer, `{"type":7}`, "frame.type-missing", Error},
		{"unknown type", wire.OpText, wire.ClientToServer, `{"type":"teleport"}`, "frame.type-unknown", Error},
		{"server type from the client", wire.OpText, wire.ClientToServer, `{"type":"welcome","v":"1.0.0","session_state":{}}`, "frame.type-unknown", Error},
		{"empty frame", wire.OpText, wire.ClientToServer, ``, "frame.json", Error},
	}
	d := dialect.MustGet("minicodex")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := NewSession(d, Options{})
			fs := s.Observe(wire.Frame{Conn: "c1", Dir: c.dir, Op: c.op, Payload: []byte(c.payload)})
			f := findOne(t, fs, c.rule)
			if f.Severity != c.sev {
				t.Errorf("severity %s, want %s", f.Severity, c.sev)
			}
			if f.Message == "" || f.Dir != c.dir || f.Conn != "c1" {
				t.Errorf("finding lacks context: %+v", f)
			}
		})
	}
}

func TestUnknownTypeNamesTheOtherDirection(t *testing.T) {
	t.Parallel()
	fs := Validate(dialect.MustGet("minicodex"), wire.Frame{Dir: wire.ClientToServer, Op: wire.OpText,
		Payload: []byte(`{"type":"welcome"}`)}, Limits{})
	f := findOne(t, fs, "frame.type-unknown")
	if !strings.Contains(f.Message, "server→client message") {
		t.Errorf("message %q does not say welcome is a server message", f.Message)
	}
}

func TestRemovedType(t *testing.T) {
	t.Parallel()
	fs := Validate(dialect.MustGet("coworker"), wire.Frame{Dir: wire.ClientToServer, Op: wire.OpText,
		Payload: []byte(`{"type":"connect_provider","sessionId":"s"}`)}, Limits{})
	f := findOne(t, fs, "frame.type-removed")
	if !strings.Contains(f.Message, "provider_auth_authorize") {
		t.Errorf("message %q does not say what replaces it", f.Message)
	}
}

func TestControlFramesAreNotJudged(t *testing.T) {
	t.Parallel()
	s := NewSession(dialect.MustGet("mitto"), Options{})
	for _, op := range []wire.Opcode{wire.OpPing, wire.OpPong, wire.OpClose} {
		if fs := s.Observe(wire.Frame{Conn: "c", Dir: wire.ClientToServer, Op: op, Payload: []byte("x")}); len(fs) != 0 {
			t.Errorf("%s frame gave %v", op, fs)
		}
	}
}

func TestSchemaFindingCarriesExpectedAndActual(t *testing.T) {
	t.Parallel()
	fs := Validate(dialect.MustGet("coworker"), wire.Frame{Dir: wire.ServerToClient, Op: wire.OpText,
		Payload: []byte(`{"type":"error","sessionId":"s","message":"m","code":"exploded","source":"session"}`)}, Limits{})
	f := findOne(t, fs, "schema.violation")
	if f.Pointer != "/code" || !strings.Contains(f.Expected, "busy") || f.Actual != `"exploded"` {
		t.Errorf("finding = pointer %q expected %q actual %q", f.Pointer, f.Expected, f.Actual)
	}
	if !strings.HasPrefix(f.Spec, "coworker-v3.md §") {
		t.Errorf("spec = %q", f.Spec)
	}
}

func TestEveryRuleIsDocumented(t *testing.T) {
	t.Parallel()
	for _, r := range Rules("") {
		if r.ID == "" || r.Spec == "" || r.Summary == "" {
			t.Errorf("rule %+v lacks an id, spec or summary", r)
		}
		if r.Dialect != "" && !strings.HasPrefix(r.ID, r.Dialect+".") {
			t.Errorf("rule %s of %s is not prefixed with its dialect", r.ID, r.Dialect)
		}
		if _, ok := Lookup(r.ID); !ok {
			t.Errorf("Lookup(%s) fails", r.ID)
		}
	}
	for _, name := range dialect.Names() {
		if len(Rules(name)) <= len(Rules("x-none")) {
			t.Errorf("dialect %s has no rules of its own", name)
		}
	}
}
