package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// nothing to do: the same slice comes back
		{`{"type":"hello","v":"1.0.0"}`, ``},
		{`{"type":"x","tool_key":"shell","inputTokens":12,"token_type":"Bearer"}`, ``},
		{`not json at all`, ``},
		{``, ``},
		{`{"token":""}`, ``},
		{`{"token":true,"secret":null}`, ``},
		{`{"apiKey":"«redacted: 32 chars»"}`, ``},
		// strings: a marker, however short (one style: no asterisks)
		{`{"type":"hello","apiKey":"sk-0123456789abcdef0123456789abcdef"}`,
			`{"type":"hello","apiKey":"«redacted: 35 chars»"}`},
		{`{"password":"pw"}`, `{"password":"«redacted: 2 chars»"}`},
		{`{"password":"héllo"}`, `{"password":"«redacted: 5 chars»"}`},
		// an older recording's masks are markers already
		{`{"password":"**"}`, ``},
		{`{"token":"\u00e9t\u00e9t\u00e9t\u00e9t\u00e9"}`, `{"token":"«redacted: 9 chars»"}`},
		{`{"to\u006ben":"abcdefghijklmnopqrstuvwxyz"}`, `{"to\u006ben":"«redacted: 26 chars»"}`},
		// layout, order and duplicates are kept
		{"{ \"type\" : \"a\" ,\n \"secret\" :\t\"abcdefghijklmnopqrstuvwxyz\" , \"secret\":\"x\"}",
			"{ \"type\" : \"a\" ,\n \"secret\" :\t\"«redacted: 26 chars»\" , \"secret\":\"«redacted: 1 char»\"}"},
		// numbers keep their layout and stay numbers
		{`{"pin":1,"token":4711}`, `{"pin":1,"token":1000}`},
		{`{"token":-0.25}`, `{"token":-0.00}`},
		{`{"token":-12.5e+3}`, `{"token":-10.0e+0}`},
		{`{"token":0}`, ``},
		// containers: names and literals kept, strings and numbers redacted
		{`{"credentials":{"user":"alice","password":"pw","n":42,"ok":true}}`,
			`{"credentials":{"user":"«redacted: 5 chars»","password":"«redacted: 2 chars»","n":10,"ok":true}}`},
		{`{"secret":["abc",[1,{"k":"vvvvvvvvvvvvvvvvvvvvvvvv"}],null]}`,
			`{"secret":["«redacted: 3 chars»",[0,{"k":"«redacted: 24 chars»"}],null]}`},
		// nested members, arrays of objects
		{`[{"data":{"access_token":"abcdefghijklmnopqrstuvwxyz0123"}},{"client_secret":"s3cr3t"}]`,
			`[{"data":{"access_token":"«redacted: 30 chars»"}},{"client_secret":"«redacted: 6 chars»"}]`},
		// a string value that looks like a name is not one
		{`{"a":"token","b":":"}`, ``},
		// escaped quotes inside strings
		{`{"note":"say \"token\": no","token":"abcdefghijklmnopqrstuvwxyz\"q"}`,
			`{"note":"say \"token\": no","token":"«redacted: 28 chars»"}`},
		// a cut frame is redacted as far as it goes
		{`{"type":"x","token":"abcdefgh`, `{"type":"x","token":"«redacted: 8 chars»`},
		{`{"type":"x","token":`, ``},
	} {
		got, changed := JSON([]byte(tc.in))
		want := tc.want
		if want == "" {
			want = tc.in
			if changed {
				t.Errorf("JSON(%s) changed it to %s", tc.in, got)
			}
			if len(tc.in) > 0 && &got[0] != &[]byte(tc.in)[0] && string(got) != tc.in {
				t.Errorf("JSON(%s) copied", tc.in)
			}
		}
		if string(got) != want {
			t.Errorf("JSON(%s)\n got %s\nwant %s", tc.in, got, want)
		}
		if len(got) > MaxLen(len(tc.in)) {
			t.Errorf("JSON(%s) grew to %d bytes, beyond MaxLen", tc.in, len(got))
		}
		if json.Valid([]byte(tc.in)) && !json.Valid(got) {
			t.Errorf("JSON(%s) = %s, not valid JSON", tc.in, got)
		}
		again, _ := JSON(got)
		if !bytes.Equal(again, got) {
			t.Errorf("JSON twice: %s then %s", got, again)
		}
	}
}

func TestJSONUnchangedIsSameSlice(t *testing.T) {
	in := []byte(`{"type":"hello","v":"1.0.0"}`)
	out, changed := JSON(in)
	if changed || &out[0] != &in[0] {
		t.Fatal("a payload without secrets was copied")
	}
}

func TestScrubberRemembersJSONValues(t *testing.T) {
	s := NewScrubber()
	s.JSON([]byte(`{"apiKey":"SECRET4-abcdef","password":"pw"}`))
	got := s.Text(`expected a string, actual "SECRET4-abcdef"`)
	if strings.Contains(got, "SECRET4") {
		t.Fatalf("literal kept: %s", got)
	}
	if s.Len() != 1 {
		t.Fatalf("remembered %d values, want 1 (pw is too short)", s.Len())
	}
}

// frame is a typical server event with no credential in it.
var frame = []byte(`{"type":"agent_message_delta","event_id":1042,"session_id":"sess_9f8e7d6c",` +
	`"turn_id":"turn_17","delta":"Here is the plan: first read the file, then run the tests and report.",` +
	`"metadata":{"model":"scripted-1","tokens_used":{"input":812,"output":96},"tool_key":"shell","items":[1,2,3]}}`)

func BenchmarkJSONNoSecret(b *testing.B) {
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, changed := JSON(frame); changed {
			b.Fatal("changed")
		}
	}
}

func BenchmarkJSONSecret(b *testing.B) {
	p := bytes.Replace(frame, []byte(`"tool_key":"shell"`), []byte(`"apiKey":"sk-0123456789abcdef0123"`), 1)
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, changed := JSON(p); !changed {
			b.Fatal("unchanged")
		}
	}
}

// FuzzJSON: whatever the payload, redaction leaves the input alone, keeps
// valid JSON valid (of the same top-level kind), stays within MaxLen, and
// redacting twice changes nothing more than redacting once.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"token":"abc"}`, `{"secret":[1,{"a":"b"}]}`, `{"apiKey":-1.5e3}`,
		`[{"password":"x\"y"}]`, `{"token":"`, `{"token":{`, `"token":"a"`, `{"to\u006ben":1}`, string(frame),
		`{"type":"x","config":"{\"apiKey\":\"sk-abc\",\"n\":[\"{\\\"token\\\":1}\"]}"}`,
		`{"text":"use Bearer abcdef0123456789 or sk-proj-0123456789abcdefghijKLMN\nghp_0123456789abcdefghijklmnopqrstuvwxyz"}`,
		`{"jwt":"x","t":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl","k":"AKIAIOSFODNN7EXAMPLE"}`,
		`aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`,
		`{"a":"[\"xoxb-0123456789-abcdef\"]","b":"AIzaSyA0123456789abcdefghijklmnopqrstu"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := append([]byte(nil), in...)
		out, changed := JSON(in)
		if !bytes.Equal(in, orig) {
			t.Fatal("input modified")
		}
		if !changed && !bytes.Equal(out, in) {
			t.Fatal("unchanged but different")
		}
		if len(out) > MaxLen(len(in)) {
			t.Fatalf("grew from %d to %d bytes, beyond MaxLen", len(in), len(out))
		}
		again, changedAgain := JSON(out)
		if changedAgain || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\n in    %q\n once  %q\n twice %q", in, out, again)
		}
		if json.Valid(in) {
			if !json.Valid(out) {
				t.Fatalf("invalid output %q from %q", out, in)
			}
			var a, b any
			_ = json.Unmarshal(in, &a)
			_ = json.Unmarshal(out, &b)
			if kind(a) != kind(b) {
				t.Fatalf("top-level kind changed: %q → %q", in, out)
			}
		}
	})
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	}
	return "other"
}
