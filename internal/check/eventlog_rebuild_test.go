package check

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/wsconform/wsconform/internal/check/checkstream"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/schemas"
)

// checkRebuild is the tests' rebuildCheck: the view a log makes again
// from a recorded source (to compare a later sighting whose bytes differ,
// and for a finding's diff) must be the view of the part as the rule saw
// it (equal, of equal hash and with no diff between them). Every test and
// fuzz target of the package that compares events runs it on every event
// recorded; a mismatch panics inside the rule that recorded it.
func checkRebuild(src source, part any, by recipe, again func(source) any) {
	want, got := by(part, src.typ), again(src)
	if !jsonx.Equal(got, want) || jsonx.Hash(got) != jsonx.Hash(want) || jsonDiff(got, want) != "" {
		panic(fmt.Sprintf("view at %q item %d made again differs from the one compared:\n%s", src.at, src.idx, jsonDiff(got, want)))
	}
}

// TestLoggedHoldsNoTree: what an event log and myagent's originals keep
// per event holds no decoded document (no interface, map or slice of
// pointers), which a window of 10,000 events made the collector mark on
// every cycle (issue 26).
func TestLoggedHoldsNoTree(t *testing.T) {
	t.Parallel()
	for _, typ := range []reflect.Type{reflect.TypeFor[logged](), reflect.TypeFor[maOrig]()} {
		if path, ok := treeField(typ, typ.Name()); ok {
			t.Errorf("%s can hold a decoded document", path)
		}
	}
}

// treeField finds a field of typ that can hold a tree of pointers: an
// interface, a map, a pointer, or a slice of anything but bytes. Strings,
// byte slices and funcs are single objects the collector does not scan
// into.
func treeField(typ reflect.Type, path string) (string, bool) {
	switch typ.Kind() {
	case reflect.Interface, reflect.Map, reflect.Pointer:
		return path, true
	case reflect.Slice:
		return path, typ.Elem().Kind() != reflect.Uint8
	case reflect.Struct:
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if p, ok := treeField(f.Type, path+"."+f.Name); ok {
				return p, true
			}
		}
	}
	return "", false
}

// TestReplayedStreamsMakeViewsAgain runs each dialect's benchmark stream
// twice through one session, so that every event is compared with its
// first sighting, under checkRebuild.
func TestReplayedStreamsMakeViewsAgain(t *testing.T) {
	t.Parallel()
	if rebuildCheck == nil {
		t.Skip("rebuildCheck is off")
	}
	for _, name := range dialect.Names() {
		d := dialect.MustGet(name)
		frames := checkstream.Frames(name, 256)
		s := NewSession(d, Options{})
		for round := 0; round < 2; round++ {
			for _, f := range frames {
				s.Observe(f)
			}
		}
	}
}

// TestHashAgreesWithEqualOnExamples: the event logs take equal hashes for
// equal views, so over every example message of the repository (each
// alone, and each less each of its top-level members, as the dialects'
// views leave members out) jsonx.Hash must agree with jsonx.Equal on every
// pair: equal values hash alike, and no two different values collide.
func TestHashAgreesWithEqualOnExamples(t *testing.T) {
	t.Parallel()
	var vals []any
	for _, name := range dialect.Names() {
		exs, err := schemas.Examples(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range exs {
			v, _, err := jsonx.Decode(ex.Message, 0)
			if err != nil {
				continue
			}
			vals = append(vals, v)
			if obj, ok := v.(map[string]any); ok {
				for k := range obj {
					vals = append(vals, without(obj, []string{"/" + k}))
				}
			}
		}
	}
	if len(vals) < 100 {
		t.Fatalf("only %d example values", len(vals))
	}
	// Canonical forms stand for Equal (jsonx holds them to agree), so
	// one pass over the values checks every pair.
	byHash, byCanon := map[uint64]string{}, map[string]uint64{}
	for _, v := range vals {
		h, c := jsonx.Hash(v), string(jsonx.Canonical(v))
		if prev, ok := byHash[h]; ok && prev != c {
			t.Errorf("hash %x: %s and %s collide", h, prev, c)
		}
		if prev, ok := byCanon[c]; ok && prev != h {
			t.Errorf("equal %s hash differently", c)
		}
		byHash[h], byCanon[c] = c, h
	}
	t.Logf("%d values, %d distinct", len(vals), len(byCanon))
}

// TestCompareByBytesThenByView: a sighting with the original's bytes is
// the same view without decoding; one whose bytes differ is compared as
// views (member order and spacing do not count, content does), and a
// difference comes with both views for the diff.
func TestCompareByBytesThenByView(t *testing.T) {
	t.Parallel()
	orig := `{"type":"x","a":1,"b":[1,2]}`
	for _, tc := range []struct {
		name, again string
		differs     bool
		was, now    string
	}{
		{"same bytes", orig, false, "", ""},
		{"members reordered, spaced", `{ "b": [1, 2], "a": 1.0, "type": "x" }`, false, "", ""},
		{"a member changed", `{"type":"x","a":2,"b":[1,2]}`, true, orig, `{"type":"x","a":2,"b":[1,2]}`},
		{"a member dropped by the recipe changed", `{"type":"x","a":1,"b":[1,2],"conn":"z"}`, false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := newEventLog[int](4, func(part any, _ string) any { return without(part, []string{"/conn"}) })
			msg := func(p string, i int64) (*message, view) {
				v, _, err := jsonx.Decode([]byte(p), 0)
				if err != nil {
					t.Fatal(err)
				}
				m := &message{Frame: wire.Frame{Conn: "c", Index: i, Payload: []byte(p)}, Doc: v.(map[string]any)}
				return m, viewAt(m, "", -1, m.Doc, "x")
			}
			m1, v1 := msg(orig, 1)
			if o, _ := l.compare(7, m1, v1); o != nil {
				t.Fatal("first sighting has an original")
			}
			m2, v2 := msg(tc.again, 2)
			o, differs := l.compare(7, m2, v2)
			if o == nil || o.frame != 1 || differs != tc.differs {
				t.Fatalf("compare = %+v, %v; want frame 1, differs %v", o, differs, tc.differs)
			}
			if !differs {
				return
			}
			if got := string(jsonx.Canonical(o.was)); got != string(jsonx.Canonical(mustDecode(t, tc.was))) {
				t.Errorf("was %s, want %s", got, tc.was)
			}
			if got := string(jsonx.Canonical(o.now)); got != string(jsonx.Canonical(mustDecode(t, tc.now))) {
				t.Errorf("now %s, want %s", got, tc.now)
			}
		})
	}
}

func mustDecode(t *testing.T, s string) any {
	t.Helper()
	v, _, err := jsonx.Decode([]byte(s), 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
