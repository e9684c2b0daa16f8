package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzDecodeArgs feeds arbitrary argument documents to every tool's
// decoding (the very function its handler calls) and to the cursor
// decoder: they may refuse, never panic, and what they accept is a JSON
// object.
func FuzzDecodeArgs(f *testing.F) {
	srv, err := New(Config{Roots: []string{"testdata"}})
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{``, `null`, `{}`, `[]`, `{"path":"a.jsonl","around":14,"before":1}`,
		`{"path":5}`, `{"id":"minicodex.replay-gap","type":"heartbeat"}`, `{"dialect":"minicodex","mutate":["a"],"max_scenarios":-1}`,
		`{"query":{"token":"x"},"ignore":["/ts"],"answer_timeout_ms":1e99}`, `{"cursor":"c1.e30"}`, `{"around":9007199254740993}`,
		`{"limit":1.5}`, `{"a":` + string(make([]byte, 100)) + `}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		trimmed := bytes.TrimSpace(raw)
		for _, tool := range srv.tools {
			err := tool.decode(json.RawMessage(raw))
			if err == nil && len(trimmed) > 0 && (!json.Valid(trimmed) || trimmed[0] != '{' && string(trimmed) != "null") {
				t.Errorf("%s accepted %q", tool.tool.Name, raw)
			}
		}
		_, _ = decodeCursor(string(raw))
	})
}
