package jsonx

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzDecode checks Decode against encoding/json on arbitrary bytes: both
// must agree on what is JSON (for valid UTF-8 without duplicate keys, where
// encoding/json is strict too) and on the value, and Decode must never
// panic.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,"x",null,true]}`, `"\ud83d\ude00"`, `[1e5,-0.0]`, `{"a":1,"a":2}`, "\"\xff\"", `NaN`, `[[[[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, issues, err := Decode(data, 64)
		if !utf8.Valid(data) || len(issues) > 0 || bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > 60 {
			return // encoding/json would silently repair or differ; only no-panic is checked
		}
		valid := json.Valid(data)
		if (err == nil) != valid {
			t.Fatalf("%q: jsonx err %v, encoding/json valid %v", data, err, valid)
		}
		if !valid {
			return
		}
		var want any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if werr := dec.Decode(&want); werr != nil {
			t.Fatal(werr)
		}
		if !bytes.Equal(Canonical(v), Canonical(want)) {
			t.Fatalf("%q: jsonx %s, encoding/json %s", data, Canonical(v), Canonical(want))
		}
	})
}
