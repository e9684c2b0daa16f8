package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestNested: a JSON document held in a string member is redacted as a
// frame is, and written back into the string; the outer JSON stays valid.
func TestNested(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"object in a string", `{"type":"x","config":"{\"apiKey\":\"sk-abc123\"}"}`,
			`{"type":"x","config":"{\"apiKey\":\"«redacted: 9 chars»\"}"}`},
		{"array in a string", `{"args":"[{\"token\":\"abc\"},2]"}`,
			`{"args":"[{\"token\":\"«redacted: 3 chars»\"},2]"}`},
		{"layout kept", `{"c":"{ \"apiKey\" : \"x\" ,\n \"n\": 1 }"}`,
			`{"c":"{ \"apiKey\" : \"«redacted: 1 char»\" ,\n \"n\": 1 }"}`},
		{"two deep", `{"a":"{\"b\":\"{\\\"password\\\":\\\"hunter2\\\"}\"}"}`,
			`{"a":"{\"b\":\"{\\\"password\\\":\\\"«redacted: 7 chars»\\\"}\"}"}`},
		{"in an array", `["{\"secret\":\"s3cr3t!\"}"]`, `["{\"secret\":\"«redacted: 7 chars»\"}"]`},
		{"inner escapes kept, outer shortened", `{"c":"{\"apiKey\":\"x\",\"s\":\"caf\\u00e9\"}\u0020"}`,
			`{"c":"{\"apiKey\":\"«redacted: 1 char»\",\"s\":\"caf\\u00e9\"} "}`},
		{"outer escapes shortest", `{"c":"{\u0022apiKey\":\"x\",\"s\":\"a\\/b\"}"}`,
			`{"c":"{\"apiKey\":\"«redacted: 1 char»\",\"s\":\"a\\/b\"}"}`},
		{"a shape in a nested string", `{"c":"{\"note\":\"use ` + ghp + `\"}"}`,
			`{"c":"{\"note\":\"use «redacted: 40 chars»\"}"}`},
		{"under a credential name: the whole string", `{"token":"{\"a\":1}"}`, `{"token":"«redacted: 7 chars»"}`},
		// left alone
		{"no credential inside", `{"c":"{\"type\":\"hello\",\"n\":[1,2]}"}`, ``},
		{"not a document", `{"text":"{not json} \"apiKey\": \"x\""}`, ``},
		{"prose in braces", `{"text":"{apiKey} is \"x\""}`, ``},
		{"a member name", `{"{\"apiKey\":\"x\"}":1}`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := tc.want
			if want == "" {
				want = tc.in
			}
			got, changed := JSON([]byte(tc.in))
			if string(got) != want {
				t.Errorf("JSON(%s)\n got %s\nwant %s", tc.in, got, want)
			}
			if changed != (want != tc.in) {
				t.Errorf("changed = %v", changed)
			}
			if !json.Valid([]byte(tc.in)) {
				t.Fatalf("test input %s is not JSON", tc.in)
			}
			if !json.Valid(got) {
				t.Errorf("JSON(%s) = %s, not valid", tc.in, got)
			}
			if again, _ := JSON(got); !bytes.Equal(again, got) {
				t.Errorf("JSON twice: %s then %s", got, again)
			}
		})
	}
}

// TestNestedDepth: JSON held in strings deeper than maxNest is left to
// the token shapes, and stays valid.
func TestNestedDepth(t *testing.T) {
	t.Parallel()
	doc := `{"password":"hunter2","key":"` + ghp + `"}`
	for range maxNest + 2 {
		b, _ := json.Marshal(map[string]string{"c": doc})
		doc = string(b)
	}
	got, changed := JSON([]byte(doc))
	if !changed || !json.Valid(got) {
		t.Fatalf("changed %v, valid %v: %s", changed, json.Valid(got), got)
	}
	if strings.Contains(string(got), ghp) {
		t.Errorf("the shape was kept: %s", got)
	}
	if !strings.Contains(string(got), "hunter2") {
		t.Errorf("redacted beyond maxNest: %s", got)
	}
}
