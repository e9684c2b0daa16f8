package jsonx

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// encoderQuoted is what an encoding/json Encoder without HTML escaping
// writes for s, less its newline.
func encoderQuoted(t testing.TB, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func checkQuoted(t testing.TB, s string) {
	want := encoderQuoted(t, s)
	if got := AppendQuoted(nil, []byte(s)); !bytes.Equal(got, want) {
		t.Errorf("AppendQuoted(%q) = %s, want %s", s, got, want)
	}
	if got := AppendQuotedString([]byte("x"), s); !bytes.Equal(got[1:], want) || got[0] != 'x' {
		t.Errorf("AppendQuotedString(%q) = %s, want x%s", s, got, want)
	}
	// The same code with json.Marshal's HTML escaping (Canonical's strings).
	if marshalled, _ := json.Marshal(s); !bytes.Equal(appendString(nil, s), marshalled) {
		t.Errorf("appendString(%q) = %s, want %s", s, appendString(nil, s), marshalled)
	}
}

func TestAppendQuotedIsEncoder(t *testing.T) {
	t.Parallel()
	long := strings.Repeat(`{"type":"assistant_text","text":"héllo <b>&amp;</b>"}`, 20)
	for _, s := range []string{
		"", "a", `"`, `\`, "plain ascii that is longer than eight bytes",
		"tab\there\nnew\rret\bback\fform\x00nul\x1funit\x7fdel",
		"<>&", "é", "日本語", "emoji 😀 after", "\u2028line\u2029para",
		"bad \xff byte", "cut \xe6\x97", "\xed\xa0\x80 surrogate", "x\xf4\x90\x80\x80 beyond",
		long, long + "\xff", "12345678\"", "1234567\\8", "1234567\x01",
	} {
		checkQuoted(t, s)
	}
}

func FuzzAppendQuoted(f *testing.F) {
	for _, s := range []string{"", `a"b\c`, "\u2028\xff\x01é", strings.Repeat("abc\"", 9)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkQuoted(t, s) })
}
