package runner

import "testing"

// FuzzPredicate: whatever a feature writes after `its "path"`, parsing and
// testing it never panics, and an unknown form is a harness error.
func FuzzPredicate(f *testing.F) {
	for _, s := range []string{`is "x"`, `is not 3`, `exists`, `is an integer`, `is at least 2`, `has 3 items`,
		`contains {"a":1}`, `is one of [1,"a"]`, `does not contain "x"`, `is null or absent`, `is`, `is a`, `has items`} {
		f.Add(s, `{"a":[1,{"b":"x"}],"n":3}`, "a.1.b")
	}
	f.Fuzz(func(t *testing.T, pred, doc, path string) {
		p, err := parsePredicate(pred)
		if err != nil {
			if !isHarness(err) {
				t.Fatalf("predicate %q: %v is not a harness error", pred, err)
			}
			return
		}
		v, _ := decodeJSON(doc)
		got, ok := lookup(v, path)
		p.test(got, ok)
	})
}

// FuzzExpand: variable expansion never panics and leaves no known
// variable behind.
func FuzzExpand(f *testing.F) {
	f.Add(`{"session_id": "{sid}", "n": {eid}}`)
	f.Add(`{{sid}}`)
	f.Add(`{unknown}`)
	f.Fuzz(func(t *testing.T, s string) {
		vars := map[string]string{"sid": "s1", "eid": "7"}
		out, err := expand(s, vars)
		if err != nil && !isHarness(err) {
			t.Fatalf("%q: %v", s, err)
		}
		_ = out
	})
}
