package check

import (
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// TestSchemaPanicIsAFinding: gojsonschema v1.2.0 panics when a const or
// enum meets a number beyond float64 (it marshals the value, fails to read
// it back and dereferences nil). Such a frame gets findings, not a crash
// of the proxy or of validate.
func TestSchemaPanicIsAFinding(t *testing.T) {
	t.Parallel()
	cases := []struct{ dialect, payload string }{
		{"coworker", `{"type":"server_hello","sessionId":"550e8400-e29b-41d4-a716-446655440000","protocolVersion":1e400,"capabilities":{},"config":{"provider":"openai","model":"m","workingDirectory":"/w","outputDirectory":"/w/o"}}`},
		{"coworker", `{"type":"server_hello","sessionId":"550e8400-e29b-41d4-a716-446655440000","protocolVersion":null,"x":1e400,"capabilities":{},"config":{"provider":"openai","model":"m","workingDirectory":"/w","outputDirectory":"/w/o"}}`},
	}
	for _, c := range cases {
		s := NewSession(dialect.MustGet(c.dialect), Options{})
		fs := s.Observe(wire.Frame{Conn: "c1", Dir: wire.ServerToClient, Op: wire.OpText, Payload: []byte(c.payload)})
		findOne(t, fs, "frame.number-range")
		schema := 0
		for _, f := range fs {
			if f.Rule == ruleSchema.ID {
				schema++
			}
		}
		if schema == 0 {
			t.Errorf("%s: no %s finding among %v", c.payload, ruleSchema.ID, fs)
		}
	}
}
