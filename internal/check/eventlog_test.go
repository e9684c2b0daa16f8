package check

import (
	"testing"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// withoutBefore is without as it was before issue 26: one removeAt, and
// one copy of the top-level object, per pointer.
func withoutBefore(doc any, ptrs []string) any {
	for _, p := range ptrs {
		doc = removeAt(doc, p)
	}
	return doc
}

// TestWithoutIsAsBefore: copying the top-level object once removes the
// same members as before, and leaves the original as it was.
func TestWithoutIsAsBefore(t *testing.T) {
	t.Parallel()
	docs := []string{`{}`, `[]`, `"x"`, `{"seq":1}`, `{"seq":1,"event":"e","session_id":"s","connection_id":"c"}`,
		`{"event":"e","metadata":{"connection_id":"c","orig_seq":3,"orig_event_id":"x","keep":1},"seq":4}`,
		`{"metadata":"not an object","seq":1}`, `{"metadata":{"orig_seq":{"deeper":1}}}`, `{"":1,"a/b":2}`}
	ptrLists := [][]string{maIgnore, maReplayIgnore, {"/metadata", "/metadata/orig_seq"}, {"/metadata/orig_seq", "/metadata"},
		{"", "x", "/", "//", "/metadata/"}, {"/seq", "/seq"}, nil}
	for _, d := range docs {
		for _, ptrs := range ptrLists {
			doc, _, err := jsonx.Decode([]byte(d), 0)
			if err != nil {
				t.Fatal(err)
			}
			orig := string(jsonx.Canonical(doc))
			got, want := without(doc, ptrs), withoutBefore(doc, ptrs)
			if !jsonx.Equal(got, want) {
				t.Errorf("without(%s, %q) = %s, before %s", d, ptrs, jsonx.Canonical(got), jsonx.Canonical(want))
			}
			if string(jsonx.Canonical(doc)) != orig {
				t.Errorf("without(%s, %q) changed the original", d, ptrs)
			}
		}
	}
}
