package sessionize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"
)

func TestPeek(t *testing.T) {
	t.Parallel()
	doc := []byte(` { "a" : [1, {"type":"no"}, "]"], "t\u0079pe":"x\"y", "data": {"seq": 12.5e1, "s":"{"}, "n": null, "b": true, "type": "second"} `)
	tests := []struct {
		path []string
		want string
		ok   bool
	}{
		{[]string{"type"}, `x"y`, true}, // the escaped key matches; the first wins
		{[]string{"data", "seq"}, "12.5e1", true},
		{[]string{"data", "s"}, "{", true},
		{[]string{"n"}, "null", true},
		{[]string{"b"}, "true", true},
		{[]string{"a"}, "", false},
		{[]string{"data"}, "", false},
		{[]string{"missing"}, "", false},
		{[]string{"data", "missing"}, "", false},
		{[]string{"b", "x"}, "", false},
	}
	for _, tt := range tests {
		got, ok := Peek(doc, tt.path...)
		if got != tt.want || ok != tt.ok {
			t.Errorf("peek %v = %q %v, want %q %v", tt.path, got, ok, tt.want, tt.ok)
		}
	}
	for _, bad := range []string{"", "{", `{"type"`, `{"type":`, `{"type":"x`, `[1]`, `{"a":{"b":1}`, `{"type" "x"}`, `{,}`} {
		if v, ok := Peek([]byte(bad), "type"); ok && bad != `{"type":"x` {
			t.Errorf("Peek(%q) = %q, want not found", bad, v)
		}
	}
}

// FuzzPeek: Peek never panics, and on a valid UTF-8 JSON object whose
// members are unique it agrees with encoding/json (which replaces invalid
// UTF-8, where peek returns the bytes as they are).
func FuzzPeek(f *testing.F) {
	for _, s := range []string{`{"type":"hello","v":"1.0.0"}`, `{"data":{"seq":3},"type":"x"}`, `{"type":"\u00e9\"","a":[{"b":"}"}]}`,
		`{"type":1}`, `{"type":null}`, `{`, `"x"`, `{"a":"\"","type":"t"}`, `{"type":"a","type":"b"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, ok := Peek(doc, "type")
		_, _ = Peek(doc, "data", "seq")
		var m map[string]json.RawMessage
		if !utf8.Valid(doc) || json.Unmarshal(doc, &m) != nil || !uniqueMembers(doc) {
			return
		}
		raw, present := m["type"]
		if !present {
			if ok {
				t.Fatalf("peek found type %q in %s, encoding/json did not", got, doc)
			}
			return
		}
		var want string
		switch {
		case string(raw) == "null":
			want = "null"
		case json.Unmarshal(raw, &want) == nil:
		case len(raw) > 0 && (raw[0] == '{' || raw[0] == '['):
			if ok {
				t.Fatalf("peek returned %q for a composite type in %s", got, doc)
			}
			return
		default:
			want = string(raw)
		}
		if !ok || got != want {
			t.Fatalf("peek type = %q %v, encoding/json %q (%s)", got, ok, want, doc)
		}
	})
}

// uniqueMembers reports whether the top-level object repeats no member
// (encoding/json keeps the last, peek the first).
func uniqueMembers(doc []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		k := fmt.Sprint(tok)
		if seen[k] {
			return false
		}
		seen[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return true
}
