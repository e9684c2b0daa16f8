package asyncapi

import (
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// FuzzImport: whatever the document, import returns a dialect or an
// error, never panics, and a dialect it returns judges a frame without
// panicking. Registration is left out (it is process-global state).
func FuzzImport(f *testing.F) {
	f.Add([]byte(strings.Replace(minimal, "PAYLOAD", "{type: object, properties: {type: {const: hello}}, required: [type]}", 1)))
	f.Add([]byte(strings.Replace(minimal, "PAYLOAD", "{$ref: '#/components/schemas/A'}", 1) + "  schemas:\n    A: {$ref: '#/components/schemas/B'}\n    B: {type: object}\n"))
	f.Add([]byte(strings.Replace(minimal, "PAYLOAD", "{schemaFormat: 'application/schema+json;version=draft-07', schema: {type: object}}", 1) +
		"x-wsconform: {ordering: {pointer: /seq}, session: {query: s}}\n"))
	f.Add([]byte("asyncapi: 3.0.0\n"))
	f.Add([]byte(`{"asyncapi":"3.0.0","operations":{"a":{"$ref":"#/operations/a"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := parse("doc.yaml", data, nil)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		d, err := dialect.Compile(l.fs, l.name)
		if err != nil {
			return
		}
		s := check.NewSession(d, check.Options{})
		for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
			for _, typ := range d.Types(dir) {
				s.Observe(wire.Frame{Conn: "c1", Dir: dir, Op: wire.OpText, Payload: []byte(`{"` + d.TypeField + `":"` + typ + `","seq":1}`)})
			}
		}
	})
}
