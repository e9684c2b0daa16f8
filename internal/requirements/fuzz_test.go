package requirements

import (
	"strings"
	"testing"
)

// FuzzParse: a registry file is user input (--requirements FILE), so no
// input may panic Parse, and whatever it accepts keeps its promises: ids
// unique, each found by Lookup, every entry complete.
func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{"dialect": "mini", "spec": "s.md", "requirements": []}`))
	f.Add([]byte(`{"dialect": "mini", "requirements": [{"id": "mini.a.b", "id": "x"}]}`))
	f.Add([]byte(`{"requirements": [1, "a", null, [], {}]}`))
	f.Add([]byte(`{"dialect": null, "spec": 3, "requirements": null}`))
	f.Add([]byte(`[`))
	f.Add([]byte("\xff\xfe{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		reg, err := Parse("fuzz.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, q := range reg.Requirements {
			if seen[q.ID] {
				t.Fatalf("accepted a duplicate id %q", q.ID)
			}
			seen[q.ID] = true
			if got, ok := reg.Lookup(q.ID); !ok || got.Quote != q.Quote {
				t.Fatalf("Lookup(%q) = %+v, %v", q.ID, got, ok)
			}
			if !q.Evidence.Valid() || !q.Level.Valid() || strings.TrimSpace(q.Quote) == "" ||
				!strings.HasPrefix(q.ID, reg.Dialect+".") {
				t.Fatalf("accepted an incomplete entry %+v", q)
			}
		}
	})
}
