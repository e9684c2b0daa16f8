package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// canonicalBefore is Canonical as it was before issue 26 (encoding/json
// for every string): the fast Canonical, Equal and Hash are held to it.
func canonicalBefore(v any) []byte {
	var b bytes.Buffer
	writeCanonicalBefore(&b, v)
	return b.Bytes()
}

func writeCanonicalBefore(b *bytes.Buffer, v any) {
	quote := func(s string) { out, _ := json.Marshal(s); b.Write(out) }
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			quote(k)
			b.WriteByte(':')
			writeCanonicalBefore(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonicalBefore(b, e)
		}
		b.WriteByte(']')
	case string:
		quote(x)
	case json.Number:
		b.WriteString(canonicalNumber(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case nil:
		b.WriteString("null")
	default:
		out, _ := json.Marshal(x)
		b.Write(out)
	}
}

// trickyStrings cover every escape encoding/json makes: controls, quotes,
// HTML characters, U+2028/9, bad UTF-8, lone surrogate bytes, DEL.
var trickyStrings = func() []string {
	out := []string{"", "plain", `q"b\s/`, "<a href='x'>&amp;</a>", "line\u2028sep\u2029", "\x7f", "é漢字🙂",
		"\xff", "a\xffb\xfe", "\xed\xa0\x80", "\xf0\x9f", "\ufffd", "tab\tnl\nbs\bff\fcr\r", "\x00\x01\x1f"}
	for c := 0; c < 256; c++ {
		out = append(out, string([]byte{byte(c)}), "x"+string([]byte{byte(c)})+"y")
	}
	for _, r := range []rune{0x80, 0x7ff, 0x800, 0xfffd, 0xffff, 0x10000, 0x10ffff, 0x2027, 0x202a} {
		out = append(out, string(r))
	}
	return out
}()

func TestAppendStringMatchesMarshal(t *testing.T) {
	t.Parallel()
	for _, s := range trickyStrings {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, json.Marshal = %s", s, got, want)
		}
	}
}

// values are decoded values and Go literals that differ in the ways the
// replay rules must tell apart, or must not.
func values(t *testing.T) []any {
	t.Helper()
	docs := []string{`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1`, `1.0`, `1e0`, `10E-1`, `-1`, `1.5`, `1.50`,
		`123456789012345678`, `1234567890123456789`, `12345678901234567890`, `1e400`, `9.007199254740993e15`,
		`{"a":1,"b":[1,2,{"c":null}]}`, `{"b":[1,2,{"c":null}],"a":1}`, `{"b":[1,2,{"c":null}],"a":1.0}`,
		`{"a":"x"}`, `{"a":"\u0078"}`, `{"a":"y"}`, `{"\u00e9":1}`, `{"é":1}`, `{"a":[]}`, `{"a":{}}`, `{"a":null}`,
		`[1,[2]]`, `[[1],2]`, `["a","b"]`, `["ab"]`, `{"a":"b","c":"d"}`, `{"a":"bc","":"d"}`, `{"ab":"c"}`}
	var out []any
	for _, d := range docs {
		v, _, err := Decode([]byte(d), 0)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		out = append(out, v)
	}
	for _, s := range trickyStrings {
		out = append(out, s, map[string]any{s: s}, []any{s, json.Number("2")})
	}
	// Go literals, as tests and rules build views.
	out = append(out, 1, 1.0, 1.5, "x", json.Number("007"), json.Number("+1"), json.Number("-0"), json.Number("1x"), []string{"a", "b"}, map[string]any{"a": 1}, map[string]int{"a": 1},
		json.Number("1"), map[string]any(nil), []any(nil))
	return out
}

func TestCanonicalIsAsBefore(t *testing.T) {
	t.Parallel()
	for _, v := range values(t) {
		if got, want := Canonical(v), canonicalBefore(v); !bytes.Equal(got, want) {
			t.Errorf("Canonical(%#v) = %s, before %s", v, got, want)
		}
	}
}

// TestEqualAgreesWithCanonical: Equal says what comparing canonical forms
// said, on every pair, and Equal values hash alike.
func TestEqualAgreesWithCanonical(t *testing.T) {
	t.Parallel()
	vs := values(t)
	for i, a := range vs {
		for _, b := range vs[i:] {
			want := bytes.Equal(canonicalBefore(a), canonicalBefore(b))
			if got := Equal(a, b); got != want {
				t.Errorf("Equal(%#v, %#v) = %v, canonical forms say %v", a, b, got, want)
			}
			if Equal(b, a) != want {
				t.Errorf("Equal is not symmetric on %#v, %#v", a, b)
			}
			if want && Hash(a) != Hash(b) {
				t.Errorf("equal %#v and %#v hash differently", a, b)
			}
		}
	}
}

// TestHashSpreads: distinct small documents do not collide, and neither do
// the ones a sum of member hashes could confuse (swapped values).
func TestHashSpreads(t *testing.T) {
	t.Parallel()
	seen := map[uint64]string{}
	for i := 0; i < 20000; i++ {
		for _, d := range []string{fmt.Sprintf(`{"a":%d,"b":%d}`, i, i+1), fmt.Sprintf(`{"a":%d,"b":%d}`, i+1, i),
			fmt.Sprintf(`[%d,%d]`, i, i+1), fmt.Sprintf(`{"s":"%d"}`, i)} {
			v, _, err := Decode([]byte(d), 0)
			if err != nil {
				t.Fatal(err)
			}
			h := Hash(v)
			if prev, dup := seen[h]; dup && prev != d {
				t.Fatalf("%s and %s hash alike", prev, d)
			}
			seen[h] = d
		}
	}
}

// FuzzEqual holds Equal and Hash to the canonical forms on any two
// documents (seeded with the pairs of TestEqualAgreesWithCanonical's
// kind).
func FuzzEqual(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":"x"}`), []byte(`{"b":"x","a":1.0}`))
	f.Add([]byte(`["\u00e9",1e2]`), []byte(`["é",100]`))
	f.Add([]byte(`"\ud800"`), []byte(`"\ufffd"`))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		a, _, err1 := Decode(x, 0)
		b, _, err2 := Decode(y, 0)
		if err1 != nil || err2 != nil {
			return
		}
		if got := Canonical(a); !bytes.Equal(got, canonicalBefore(a)) {
			t.Fatalf("Canonical(%s) = %s, before %s", x, got, canonicalBefore(a))
		}
		want := bytes.Equal(canonicalBefore(a), canonicalBefore(b))
		if Equal(a, b) != want {
			t.Fatalf("Equal(%s, %s) = %v, canonical forms say %v", x, y, !want, want)
		}
		if want && Hash(a) != Hash(b) {
			t.Fatalf("equal %s and %s hash differently", x, y)
		}
		if strings.Count(string(x), "[") < 50 && !Equal(a, a) {
			t.Fatalf("%s is not equal to itself", x)
		}
	})
}
