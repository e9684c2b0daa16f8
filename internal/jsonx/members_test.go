package jsonx

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestMembersIsDecode: Members sees the members Decode puts in its map,
// with the same values and issues, and the raw text of each value.
func TestMembersIsDecode(t *testing.T) {
	t.Parallel()
	var many []string
	for i := range 40 {
		many = append(many, fmt.Sprintf(`"k%d":%d`, i, i))
	}
	cases := []string{
		`{}`, ` { "a" : 1 , "b":[true,null,{"c":"d"}] } `, `{"a":1,"a":2}`,
		`{` + strings.Join(many, ",") + `,"k3":"again"}`, // a duplicate past the slice
		`{"s":"caf\u00e9 \"q\"","n":-1.5e3}`, `{"x":"\ud800"}`,
		`[]`, `{"a":}`, `{"a":1} x`, `{"a":1`, ``,
	}
	for _, c := range cases {
		wantV, wantIssues, wantErr := Decode([]byte(c), 0)
		got := map[string]any{}
		issues, err := Members([]byte(c), func(k string, v any, raw []byte) error {
			got[k] = v
			if rv, _, rerr := Decode(raw, 0); rerr != nil || !reflect.DeepEqual(rv, v) {
				t.Errorf("%s: raw %q of %q does not decode to its value", c, raw, k)
			}
			return nil
		})
		_, isObj := wantV.(map[string]any)
		if (err == nil) != (wantErr == nil && isObj) {
			t.Errorf("%s: Members error %v, Decode %v", c, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if !reflect.DeepEqual(any(got), wantV) || !reflect.DeepEqual(issues, wantIssues) {
			t.Errorf("%s:\n got %v %v\nwant %v %v", c, got, issues, wantV, wantIssues)
		}
	}
}

// TestRawStringLen: the length up to the closing quote, escapes skipped.
func TestRawStringLen(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{
		`abc"`: 3, `a\"b"`: 4, `\\"`: 2, `unterminated`: 12, `caf` + "\xc3\xa9" + `"`: 5, `\`: 1, `"`: 0,
	} {
		if got := rawStringLen([]byte(in)); got != want {
			t.Errorf("rawStringLen(%q) = %d, want %d", in, got, want)
		}
	}
}

// lazyAgrees fails when MembersLazy, reading every member lazily, sees
// data otherwise than Members: another error or issues, or a lazy
// member's raw literal that does not decode, with no issue, to the value
// Members gives it.
func lazyAgrees(t *testing.T, data []byte) {
	t.Helper()
	want := map[string]any{}
	wantIssues, wantErr := Members(data, func(k string, v any, _ []byte) error { want[k] = v; return nil })
	got := map[string]any{}
	issues, err := MembersLazy(data, func(string) bool { return true }, func(k string, v any, raw []byte) error {
		if v == nil && len(raw) > 0 && raw[0] == '"' {
			dv, is, derr := Decode(raw, 0)
			if derr != nil || len(is) > 0 {
				t.Errorf("%q: lazy %q gave %q, which decodes with %v %v", data, k, raw, is, derr)
			}
			v = dv
		}
		got[k] = v
		return nil
	})
	if (err == nil) != (wantErr == nil) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: MembersLazy error %v, Members %v", data, err, wantErr)
	}
	if err == nil && (!reflect.DeepEqual(got, want) || !reflect.DeepEqual(issues, wantIssues)) {
		t.Fatalf("%q:\n lazy %v %v\n want %v %v", data, got, issues, want, wantIssues)
	}
}

func TestMembersLazy(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		`"plain"`, `""`, `"esc \" \\ \/ \b \f \n \r \t"`, `"\u00e9\u20ac"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00x"`,
		`"\u12"`, `"\uZZZZ"`, `"\x"`, "\"ctl \x01\"", "\"bad \xff utf8\"", `"caf` + "\xc3\xa9" + `"`, `"unterminated`, `"\`,
	} {
		lazyAgrees(t, []byte(`{"a":`+s+`,"b":1}`))
	}
}

func FuzzMembersLazy(f *testing.F) {
	f.Add([]byte(`{"text":"{\"type\":\"x\"}","n":1}`))
	f.Add([]byte(`{"a":"\ud800","b":"\u00e9"}`))
	f.Fuzz(func(t *testing.T, data []byte) { lazyAgrees(t, data) })
}
