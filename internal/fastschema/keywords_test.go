package fastschema

import (
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// TestKeywordsAgree holds each keyword, and each gojsonschema quirk the
// package mirrors, to gojsonschema: on every instance the fast validator
// must say "valid" exactly when gojsonschema does (these schemas compile
// entirely, so "don't know" is a failure too), except where gojsonschema
// panics, where it must not say valid.
func TestKeywordsAgree(t *testing.T) {
	t.Parallel()
	for _, c := range keywordCases {
		g, f := both(t, c.schema)
		if u := f.Unknowns(); len(u) > 0 {
			t.Errorf("%s: not compiled entirely: %v", c.schema, u)
		}
		for _, in := range c.instances {
			fast, gv := sound(t, g, f, decode(t, in), c.schema+" on "+in)
			if gv == gValid && !fast {
				t.Errorf("%s on %s: gojsonschema says valid, the fast validator does not know", c.schema, in)
			}
		}
	}
}

// FuzzKeywordsAgree judges random JSON with each schema of
// TestKeywordsAgree: the fast validator must never say valid where
// gojsonschema does not.
func FuzzKeywordsAgree(f *testing.F) {
	type compiled struct {
		g *gojsonschema.Schema
		v *Validator
	}
	var all []compiled
	for i, c := range keywordCases {
		g, v := both(f, c.schema)
		all = append(all, compiled{g, v})
		for _, in := range c.instances {
			f.Add(uint8(i), []byte(in))
		}
	}
	f.Fuzz(func(t *testing.T, i uint8, data []byte) {
		v, _, err := jsonx.Decode(data, 0)
		if err != nil {
			return
		}
		c := all[int(i)%len(all)]
		if c.v.Valid(v) {
			if g := GojsonschemaVerdict(c.g, v); g != gValid {
				t.Fatalf("fast validator vouches for %s against %s; gojsonschema: %s", data, keywordCases[int(i)%len(all)].schema, g)
			}
		}
	})
}

var keywordCases = []struct {
	schema    string
	instances []string
}{
	{`{"type": "integer"}`, []string{`1`, `1.0`, `1e2`, `1.5e1`, `1.25e1`, `-0`, `0.0`, `1.5`, `"1"`, `null`, `12345678901234567890123`, `1e-2`, `100e-2`, `1E+2`}},
	{`{"type": ["integer", "null"]}`, []string{`null`, `2`, `2.5`, `true`}},
	{`{"type": "number"}`, []string{`1`, `1.5`, `"x"`, `1e400`, `[]`}},
	{`{"type": ["string", "object"]}`, []string{`"a"`, `{}`, `[]`, `1`}},
	{`{"type": "boolean"}`, []string{`true`, `false`, `0`, `null`}},
	{`{"type": "null"}`, []string{`null`, `false`}},
	{`{"type": "array"}`, []string{`[]`, `{}`}},
	{`{"const": 1}`, []string{`1`, `1.0`, `1e0`, `"1"`, `true`, `2`, `-1`, `1e400`}},
	{`{"const": 0}`, []string{`0`, `-0`, `0.0`, `-0.0`}},
	{`{"const": 9007199254740992}`, []string{`9007199254740993`, `9007199254740992`, `9007199254740994`}},
	{`{"const": "a<b&c"}`, []string{`"a<b&c"`, `"a\u003cb&c"`, `"a"`, `null`}},
	{`{"const": null}`, []string{`null`, `0`, `""`, `false`}},
	{`{"const": {"a": [1, "x"], "b": null}}`, []string{`{"a": [1.0, "x"], "b": null}`, `{"b": null, "a": [1, "x"]}`, `{"a": [1, "x"]}`, `{"a": [1, "x"], "b": null, "c": 1}`, `{"a": ["x", 1], "b": null}`, `{"a": [1, "x"], "b": 1e400}`, `[1]`}},
	{`{"enum": ["a", "b"]}`, []string{`"a"`, `"b"`, `"c"`, `1`, `null`}},
	{`{"enum": ["a", 1, null, [1], {"k": true}]}`, []string{`"a"`, `1.0`, `null`, `[1.0]`, `{"k": true}`, `{"k": false}`, `2`, `[1e400]`}},
	{`{"minLength": 2, "maxLength": 3}`, []string{`"ab"`, `"abc"`, `"a"`, `"abcd"`, `"éé"`, `"日本語"`, `"日本語x"`, `"😀"`, `"😀😀"`, `3`}},
	{`{"pattern": "b+"}`, []string{`"abbc"`, `"ac"`, `"b"`, `1`}},
	{`{"pattern": "^[a-z]+$"}`, []string{`"abc"`, `"ab1"`, `""`}},
	{`{"format": "date-time"}`, []string{`"2024-01-02T03:04:05Z"`, `"2024-01-02"`, `"15:04:05"`, `"yesterday"`, `1`, `1.5`, `true`}},
	{`{"format": "uuid"}`, []string{`"123e4567-e89b-12d3-a456-426614174000"`, `"x"`}},
	{`{"format": "no-such-format"}`, []string{`"x"`, `1`}},
	{`{"minimum": 1, "maximum": 10}`, []string{`1`, `10`, `0`, `11`, `10.0`, `10.5`, `0.999`, `1e1`, `1e2`, `123456789012345678901234`, `-123456789012345678901234`, `"50"`}},
	{`{"exclusiveMinimum": 0.5, "exclusiveMaximum": 2}`, []string{`0.5`, `0.6`, `1`, `2`, `1.999`, `2.0`}},
	{`{"multipleOf": 0.1}`, []string{`0.3`, `0.35`, `1`, `10e-1`}},
	{`{"multipleOf": 3}`, []string{`9`, `10`, `-9`, `9.0`, `4.5`, `3e3`}},
	{`{"required": ["a", "b"]}`, []string{`{"a": 1, "b": 2}`, `{"a": 1}`, `{}`, `[]`, `"a"`}},
	{`{"properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "additionalProperties": false}`, []string{`{"a": "x"}`, `{"a": 1}`, `{"c": 1}`, `{}`, `{"a": "x", "b": 2}`, `{"a": "x", "b": 2.5}`}},
	{`{"properties": {"a": true}, "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": {"type": "string"}}`, []string{`{"a": 1, "x-1": 2, "z": "s"}`, `{"x-1": "no"}`, `{"z": 1}`, `{"ax-": 1}`}},
	{`{"minProperties": 1, "maxProperties": 2}`, []string{`{}`, `{"a": 1}`, `{"a": 1, "b": 2, "c": 3}`}},
	{`{"propertyNames": {"maxLength": 2}}`, []string{`{"ab": 1}`, `{"abc": 1}`, `{}`}},
	{`{"dependencies": {"a": ["b"], "c": {"required": ["d"]}, "e": []}}`, []string{`{"a": 1, "b": 2}`, `{"a": 1}`, `{"c": 1}`, `{"c": 1, "d": 2}`, `{"e": 1}`, `{"b": 1}`}},
	{`{"items": {"type": "integer"}, "minItems": 1, "maxItems": 2}`, []string{`[1]`, `[1, 2]`, `[]`, `[1, 2, 3]`, `[1, "x"]`}},
	{`{"items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false}`, []string{`["a", 1]`, `["a"]`, `["a", 1, 2]`, `[1, 1]`}},
	{`{"items": [{"type": "string"}], "additionalItems": {"type": "boolean"}}`, []string{`["a", true, false]`, `["a", 1]`}},
	{`{"items": [], "additionalItems": false}`, []string{`[]`, `[1, 2]`}},
	{`{"items": {"type": "string"}, "additionalItems": false}`, []string{`["a", "b"]`, `[1]`}},
	{`{"uniqueItems": true}`, []string{`[1, 2]`, `[1, 1.0]`, `["1", 1]`, `[{"a": 1}, {"a": 1.0}]`, `[[1], [2]]`, `[]`, `[1e400, 1]`, `[null, false]`}},
	{`{"contains": {"const": 2}}`, []string{`[1, 2]`, `[1, 3]`, `[]`, `[2.0]`}},
	{`{"allOf": [{"type": "object"}, {"required": ["a"]}]}`, []string{`{"a": 1}`, `{}`, `1`}},
	{`{"anyOf": [{"type": "string"}, {"minimum": 3}]}`, []string{`"x"`, `4`, `2`, `null`}},
	{`{"oneOf": [{"type": "integer"}, {"minimum": 3}]}`, []string{`2`, `4`, `3.5`, `2.5`}},
	{`{"not": {"type": "string"}}`, []string{`1`, `"x"`}},
	{`{"not": {"const": "x"}}`, []string{`"y"`, `"x"`, `1e400`, `{"a": 1e400}`}},
	{`{"not": {"allOf": [{"required": ["x"]}, {"const": 1}]}}`, []string{`{"a": 1e400}`, `{"a": 1}`}},
	{`{"if": {"properties": {"k": {"const": "a"}}, "required": ["k"]}, "then": {"required": ["x"]}, "else": {"required": ["y"]}}`, []string{`{"k": "a", "x": 1}`, `{"k": "a"}`, `{"k": "b", "y": 1}`, `{"k": "b"}`, `{}`, `3`}},
	{`{"then": {"required": ["x"]}}`, []string{`{}`}},
	{`{"definitions": {"pos": {"type": "integer", "minimum": 0}}, "properties": {"n": {"$ref": "#/definitions/pos"}}}`, []string{`{"n": 1}`, `{"n": -1}`, `{"n": "x"}`}},
	{`{"definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "type": "integer"}`, []string{`"x"`, `1`}},
	{`{"definitions": {"tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/tree"}}, "v": {"type": "integer"}}}}, "$ref": "#/definitions/tree"}`, []string{`{"kids": [{"v": 1, "kids": [{"v": 2}]}]}`, `{"kids": [{"v": "x"}]}`}},
	{`{"properties": {"a": false, "b": true}}`, []string{`{"b": 1}`, `{"a": 1}`}},
	{`true`, []string{`1`, `{}`}},
	{`false`, []string{`1`, `{}`}},
	{`{"type": "object", "title": "t", "description": "d", "x-evidence": {"kind": "stated"}, "$comment": "c", "default": {}, "examples": [{}]}`, []string{`{}`, `1`}},
}

// TestUnknownKeywords: a keyword the package does not implement, or a $ref
// it does not follow, makes its subschema "don't know", never a guess.
func TestUnknownKeywords(t *testing.T) {
	t.Parallel()
	cases := []struct{ schema, instance, why string }{
		{`{"dependentRequired": {"a": ["b"]}}`, `{"a": 1}`, "keyword not implemented"},
		{`{"properties": {"a": {"unevaluatedProperties": false}}}`, `{"a": {}}`, "/properties/a/unevaluatedProperties"},
		{`{"$id": "http://example.com/s.json", "type": "object"}`, `{}`, "holds an $id"},
		{`{"properties": {"a": {"$ref": "other.json#/x"}}}`, `{"a": 1}`, "other.json"},
		{`{"anyOf": [{"$ref": "#/definitions/a%20b"}], "definitions": {"a b": true}}`, `1`, "not a plain relative reference"},
	}
	for _, c := range cases {
		doc := decode(t, c.schema)
		f := Compile(doc, testURL, nil)
		if f.Valid(decode(t, c.instance)) {
			t.Errorf("%s: fast validator vouches for %s", c.schema, c.instance)
		}
		if !strings.Contains(strings.Join(f.Unknowns(), "\n"), c.why) {
			t.Errorf("%s: unknowns %q do not say %q", c.schema, f.Unknowns(), c.why)
		}
	}
	// Beside an uncompiled subschema the rest still answers.
	f := Compile(decode(t, `{"anyOf": [{"dependentRequired": {}}, {"type": "string"}]}`), testURL, nil)
	if !f.Valid("x") {
		t.Error("anyOf with one uncompiled branch: a string matching the other is not vouched for")
	}
}

// TestNotJSONValues: values jsonx never builds are "don't know".
func TestNotJSONValues(t *testing.T) {
	t.Parallel()
	f := Compile(decode(t, `{"type": "object"}`), testURL, nil)
	for _, v := range []any{1.5, 2, map[string]int{}, []string{}, map[string]any{"a": 1.5}} {
		if f.Valid(v) && show(v) != "map[a:1.5]" {
			t.Errorf("%T %v vouched for", v, v)
		}
	}
	if (*Validator)(nil).Valid(map[string]any{}) {
		t.Error("nil validator vouched")
	}
}

// TestDateTimeIsGojsonschemas holds isDateTime to gojsonschema's own
// date-time checker, and checks the chain still holds that checker (so
// that the fast path is taken).
func TestDateTimeIsGojsonschemas(t *testing.T) {
	t.Parallel()
	if !builtinDateTime() {
		t.Fatal("gojsonschema's date-time checker is not found in FormatCheckers")
	}
	for _, s := range []string{"2024-01-02T03:04:05Z", "2024-01-02T03:04:05.123456789+02:00", "2024-01-02t03:04:05z",
		"2024-01-02 03:04:05Z", "2024-01-02", "15:04:05", "15:04:05Z", "15:04:05+01:00", "25:00:00", "2024-13-01",
		"2024-02-30T00:00:00Z", "", "x", "2024-01-02T03:04:05", "2024-01-02T03:04:05.Z", "0000-01-01T00:00:00Z",
		"2024-01-02T03:04:60Z", "2024-01-02T03:04:05+24:00", "１５:04:05"} {
		if got, want := isDateTime(s), gojsonschema.FormatCheckers.IsFormat("date-time", s); got != want {
			t.Errorf("%q: isDateTime %v, gojsonschema %v", s, got, want)
		}
	}
}
