package redact

import (
	"bytes"
	"testing"
)

func TestBinary(t *testing.T) {
	t.Parallel()
	bin := func(s string) []byte { return append([]byte{0x92, 0xa5, 0xff, 0x00}, s...) } // not UTF-8
	for _, tc := range []struct {
		name       string
		in, want   []byte
		text       bool
		sameLength bool
	}{
		{"JSON sent as binary", []byte(`{"apiKey":"sk-abc123"}`), []byte(`{"apiKey":"«redacted: 9 chars»"}`), true, false},
		{"text sent as binary", []byte("auth " + ghp), []byte("auth «redacted: 40 chars»"), true, false},
		{"a token in MessagePack", bin("\xd9\x28" + ghp + "\xa3abc"), bin("\xd9\x28redacted(40)----------------------------\xa3abc"), false, true},
		{"a short token", bin("Bearer ab12cd34\x00"), bin("Bearer redacted\x00"), false, true},
		{"nothing recognisable", bin("apiKey\xa6hunter"), nil, false, true},
		{"empty", []byte{}, nil, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			orig := bytes.Clone(tc.in)
			got, changed, text := Binary(tc.in)
			want := tc.want
			if want == nil {
				want = tc.in
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Binary(%q)\n got %q\nwant %q", tc.in, got, want)
			}
			if changed != !bytes.Equal(want, tc.in) || text != tc.text {
				t.Errorf("changed %v, text %v", changed, text)
			}
			if tc.sameLength && len(got) != len(tc.in) {
				t.Errorf("length %d, want %d", len(got), len(tc.in))
			}
			if !bytes.Equal(tc.in, orig) {
				t.Error("the input was changed")
			}
		})
	}
}

// TestScrubberBinaryLiterals: a secret revealed elsewhere (a URL's token)
// is masked in binary payloads too, overlapping ones whole.
func TestScrubberBinaryLiterals(t *testing.T) {
	t.Parallel()
	s := NewScrubber()
	s.URL("ws://h/ws?token=abcdef1234&host_token=1234wxyz")
	in := []byte("\xff\x00abcdef1234wxyz\x00")
	got, changed, text := s.Binary(in)
	if want := "\xff\x00redacted(14)--\x00"; string(got) != want || !changed || text {
		t.Errorf("got %q (changed %v, text %v), want %q", got, changed, text, want)
	}
}

// FuzzBinary: a binary payload that is not text keeps its length and is
// never changed in place; redacting twice changes nothing more.
func FuzzBinary(f *testing.F) {
	f.Add([]byte("\xff\x00ghp_0123456789abcdefghijABCDEFGHIJklmnop\x00"))
	f.Add([]byte("\x92Bearer ab12cd34ef56\xa3AKIAIOSFODNN7EXAMPLE"))
	f.Add([]byte(`{"apiKey":"x"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		out, changed, text := Binary(in)
		if !bytes.Equal(in, orig) {
			t.Fatal("input modified")
		}
		if !changed && !bytes.Equal(out, in) {
			t.Fatal("unchanged but different")
		}
		if !text && len(out) != len(in) {
			t.Fatalf("length %d → %d", len(in), len(out))
		}
		if again, _, _ := Binary(out); !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q → %q → %q", in, out, again)
		}
	})
}
