package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDecodeArgs: what the SDK's client cannot send (two documents, a
// cut document) and the edges of the size bound.
func TestDecodeArgs(t *testing.T) {
	t.Parallel()
	big := `{"id":"` + strings.Repeat("a", maxArgBytes) + `"}`
	cases := []struct {
		name, raw, want string
	}{
		{"absent", ``, `argument "id": give a rule or requirement id`},
		{"null", `null`, `argument "id": give a rule or requirement id`},
		{"fine", `{"id":"x"}`, ""},
		{"two documents", `{"id":"a"} {"id":"b"}`, "one JSON object, with nothing after it"},
		{"cut short", `{"id":"a"`, "not valid JSON"},
		{"not JSON", `{id}`, "not valid JSON"},
		{"a string", `"x"`, "got a string"},
		{"too large", big, "more than the 65536 this server reads"},
		{"nested wrong type", `{"id":{"a":1}}`, `argument "id": want a string, got a JSON object`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var a explainArgs
			err := decodeArgs(json.RawMessage(tc.raw), &a)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestCursorRoundTrip: a cursor decodes to what was encoded.
func TestCursorRoundTrip(t *testing.T) {
	t.Parallel()
	in := map[string]int{"s1": 3, "sess,with:odd=chars": 0}
	out, err := decodeCursor(encodeCursor(in))
	if err != nil || len(out) != 2 || out["s1"] != 3 {
		t.Errorf("decode: %v %v", out, err)
	}
	if _, err := decodeCursor(cursorPrefix + "W10"); err == nil { // []
		t.Error("an array decoded as a cursor")
	}
}
