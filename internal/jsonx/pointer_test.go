package jsonx

import "testing"

// TestGetEscapes: RFC 6901 §4's escapes, "~01" being "~1" and not "/".
func TestGetEscapes(t *testing.T) {
	t.Parallel()
	doc := map[string]any{"a/b": 1, "m~n": 2, "~1": 3, "plain": map[string]any{"x": []any{"y"}}}
	for p, want := range map[string]any{"/a~1b": 1, "/m~0n": 2, "/~01": 3, "/plain/x/0": "y"} {
		if got, ok := Get(doc, p); !ok || got != want {
			t.Errorf("Get(%q) = %v, %v; want %v", p, got, ok, want)
		}
	}
	if _, ok := Get(doc, "/a/b"); ok {
		t.Error(`"/a/b" resolved, but no member "a" exists`)
	}
}
