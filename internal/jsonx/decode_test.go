package jsonx

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{}`, `[]`, `null`, `true`, `false`, `0`, `-0.5e+10`, `"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00"`,
		`{"a":[1,2,{"b":null}],"c":"ü","d":1234567890123}`, " \t\n{\"x\" : [ ] }\r\n",
	} {
		got, issues, err := Decode([]byte(in), 0)
		if err != nil || len(issues) > 0 {
			t.Errorf("%s: err %v issues %v", in, err, issues)
			continue
		}
		var want any
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v, want %#v", in, got, want)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		``:                  "unexpected end",
		`{`:                 "expected a string object key",
		`{"a":1,}`:          "expected a string object key",
		`[1,]`:              "invalid character",
		`{"a" 1}`:           "expected ':'",
		`NaN`:               "NaN and Infinity",
		`{"x":NaN}`:         "NaN and Infinity",
		`-Infinity`:         "NaN and Infinity",
		`01`:                "unexpected data after",
		`1.`:                "digits expected after '.'",
		`1e`:                "digits expected in exponent",
		`"a` + "\x01" + `"`: "control character",
		`"\x"`:              "invalid escape",
		`"\u12"`:            "invalid \\u escape",
		`{} {}`:             "unexpected data after",
		`tru`:               "invalid literal",
		`'a'`:               "invalid character",
	}
	for in, want := range cases {
		_, _, err := Decode([]byte(in), 0)
		var syn *SyntaxError
		if !errors.As(err, &syn) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want a syntax error containing %q", in, err, want)
		}
	}
}

func TestDecodeIssues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in      string
		kind    IssueKind
		pointer string
	}{
		{`{"a":1,"b":{"c~/":1,"c~/":2}}`, DuplicateKey, "/b/c~0~1"},
		{`{"a":["ok","bad` + "\xff" + `"]}`, InvalidUTF8, "/a/1"},
		{`{"s":"\ud800x"}`, LoneSurrogate, "/s"},
		{`["\udc00"]`, LoneSurrogate, "/0"},
		{`{"n":1e400}`, NumberRange, "/n"},
		{`{"n":[-9007199254740993]}`, NumberRange, "/n/0"},
	}
	for _, c := range cases {
		_, issues, err := Decode([]byte(c.in), 0)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if len(issues) != 1 || issues[0].Kind != c.kind || issues[0].Pointer != c.pointer {
			t.Errorf("%q: issues %+v, want one %s at %s", c.in, issues, c.kind, c.pointer)
		}
	}
}

func TestDecodeDepthLimit(t *testing.T) {
	t.Parallel()
	bomb := strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000)
	_, _, err := Decode([]byte(bomb), 0)
	var de *DepthError
	if !errors.As(err, &de) || de.Max != DefaultMaxDepth {
		t.Fatalf("err = %v, want a depth error", err)
	}
	ok := strings.Repeat(`{"a":`, 100) + "1" + strings.Repeat("}", 100)
	if _, _, err := Decode([]byte(ok), 0); err != nil {
		t.Fatalf("100 levels must decode: %v", err)
	}
}

func TestCanonicalIgnoresKeyOrderAndNumberSpelling(t *testing.T) {
	t.Parallel()
	a, _, _ := Decode([]byte(`{"b":[1.0,{"y":2,"x":"é"}],"a":null}`), 0)
	b, _, _ := Decode([]byte(`{"a":null,"b":[1,{"x":"\u00e9","y":2e0}]}`), 0)
	if string(Canonical(a)) != string(Canonical(b)) {
		t.Errorf("%s != %s", Canonical(a), Canonical(b))
	}
	c, _, _ := Decode([]byte(`{"a":null,"b":[1,{"x":"e","y":2}]}`), 0)
	if string(Canonical(a)) == string(Canonical(c)) {
		t.Error("different values compare equal")
	}
}

func TestGet(t *testing.T) {
	t.Parallel()
	doc, _, _ := Decode([]byte(`{"data":{"seq":7,"a/b":[10,20]}}`), 0)
	if v, ok := Get(doc, "/data/seq"); !ok || v != json.Number("7") {
		t.Errorf("/data/seq = %v %v", v, ok)
	}
	if v, ok := Get(doc, "/data/a~1b/1"); !ok || v != json.Number("20") {
		t.Errorf("escaped pointer = %v %v", v, ok)
	}
	for _, p := range []string{"/nope", "/data/seq/x", "/data/a~1b/9", "data"} {
		if _, ok := Get(doc, p); ok {
			t.Errorf("%s resolved", p)
		}
	}
	if n, ok := Int64(json.Number("1.5")); ok {
		t.Errorf("1.5 read as integer %d", n)
	}
	if n, ok := Int64(json.Number("3.0")); !ok || n != 3 {
		t.Errorf("3.0 = %d %v", n, ok)
	}
}
