package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// Realistic credentials of every shape (the AWS ones are AWS's own
// documentation examples).
const (
	jwt              = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	ghp              = "ghp_0123456789abcdefghijABCDEFGHIJklmnop"
	skProj           = "sk-proj-Ab3dEf6hIj9lMn0pQr5tUv8xYz_-12"
	awsExampleSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
)

// TestShapesFire: every shape is found in free text, whole, and becomes a
// Marker (a URLMarker after '=' or '/'), in Text and in a JSON string.
func TestShapesFire(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"bearer", "upstream said: Bearer abcdef0123456789 is invalid", "upstream said: Bearer «redacted: 16 chars» is invalid"},
		{"bearer lower case, end of sentence", "send bearer AbCdEfGhIjKlMnOpQrStUv.", "send bearer «redacted: 22 chars»."},
		{"bearer b64token", "Bearer abc.def~ghi+jk/l0==", "Bearer «redacted: 19 chars»"},
		{"bearer jwt", "BEARER " + jwt, "BEARER «redacted: 92 chars»"},
		{"openai", "key sk-0123456789abcdefghijKLMN done", "key «redacted: 27 chars» done"},
		{"openai project", "(" + skProj + ")", "(«redacted: 38 chars»)"},
		{"anthropic", "sk-ant-api03-AbCdEf0123456789AbCdEf0123456789-xyz_AA", "«redacted: 52 chars»"},
		{"stripe", "sk_live_0123456789abcdefghijklmn", "«redacted: 32 chars»"},
		{"jwt", "token " + jwt + ", expired", "token «redacted: 92 chars», expired"},
		{"unsigned jwt", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0In0.", "«redacted: 40 chars»"},
		{"github classic", "clone with " + ghp, "clone with «redacted: 40 chars»"},
		{"github oauth", "gho_0123456789abcdefghijABCDEFGHIJklmnop", "«redacted: 40 chars»"},
		{"github user", "ghu_0123456789abcdefghijABCDEFGHIJklmnop", "«redacted: 40 chars»"},
		{"github server", "ghs_0123456789abcdefghijABCDEFGHIJklmnop", "«redacted: 40 chars»"},
		{"github refresh", "ghr_0123456789abcdefghijABCDEFGHIJklmnop", "«redacted: 40 chars»"},
		{"github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVW",
			"«redacted: 90 chars»"},
		{"aws key id", "id AKIAIOSFODNN7EXAMPLE.", "id «redacted: 20 chars»."},
		{"aws session key id", "ASIAIOSFODNN7EXAMPLE", "«redacted: 20 chars»"},
		{"aws secret pair", "aws_secret_access_key=" + awsExampleSecret, "aws_secret_access_key=redacted(40)"},
		{"aws secret ini", "aws_secret_access_key = " + awsExampleSecret + "\nregion = x", "aws_secret_access_key = «redacted: 40 chars»\nregion = x"},
		{"aws secret yaml", "AWS_SECRET_ACCESS_KEY: '" + awsExampleSecret + "'", "AWS_SECRET_ACCESS_KEY: '«redacted: 40 chars»'"},
		{"slack", "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "«redacted: 54 chars»"},
		{"slack user", "xoxp-0123456789-abc", "«redacted: 19 chars»"},
		{"google", "key=AIzaSyA0123456789abcdefghijklmnopqrstuv&x=1", "key=redacted(39)&x=1"},
		{"value of any pair", "--var model_config=" + skProj, "--var model_config=redacted(38)"},
		{"path segment", "GET https://h/repos/" + ghp + "/x", "GET https://h/repos/redacted(40)/x"},
		{"several", ghp + " " + skProj, "«redacted: 40 chars» «redacted: 38 chars»"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Text(tc.in)
			if got != tc.want {
				t.Errorf("Text(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if again := Text(got); again != got {
				t.Errorf("Text twice: %q then %q", got, again)
			}
			// The same in a JSON string, escapes and all.
			in, _ := json.Marshal(map[string]string{"text": tc.in})
			want, _ := json.Marshal(map[string]string{"text": tc.want})
			red, changed := JSON(in)
			if !changed || !bytes.Equal(unescapeHTML(red), unescapeHTML(want)) {
				t.Errorf("JSON(%s)\n got %s\nwant %s", in, red, want)
			}
			if !json.Valid(red) {
				t.Errorf("JSON(%s) = %s, not valid", in, red)
			}
		})
	}
}

// unescapeHTML undoes encoding/json's HTML escapes, which a recording
// does not write.
func unescapeHTML(b []byte) []byte {
	return bytes.NewBufferString(strings.NewReplacer(`\u0026`, "&", `\u003c`, "<", `\u003e`, ">").Replace(string(b))).Bytes()
}

// TestShapesQuiet: ordinary protocol content that looks a little like a
// credential stays byte for byte.
func TestShapesQuiet(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"123e4567-e89b-12d3-a456-426614174000",                                  // UUID
		"evt_01HV8Z3Q9X7Y6W5V4U3T2S1R0P msg_01XFDUDYJgAACzvnptvVoYEL",           // event and message ids
		"toolu_01A09q90qw90lq917835lq9 sess_9f8e7d6c turn_17 call_abc123def456", // tool and session ids
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",      // a sha256
		"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
		"eyJhIjoxLCJiIjoidGV4dCJ9",                 // base64 of a JSON object, no dots
		"eyJhbGciOiJIUzI1NiJ9.short.sig",           // a second segment too short for a JWT
		"Bearer token required",                    // prose
		"the Bearer authentication scheme",         // prose, long word without a digit
		`WWW-Authenticate: Bearer realm="example"`, // a challenge
		"Bearer «redacted: 16 chars»",              // already redacted
		"Bearer redacted(16)",
		"locale sk-SK, sk-learn-preprocessing-pipeline", // sk- without a digit, or short
		"task-sk-0123456789abcdefghijkl",                // sk- inside a word
		"ghp_short ghx_0123456789abcdefghijABCDEFGHIJklmnop ghp_0123456789abcdefghij-ABCDEFGHIJklmnop",
		"AKIAIOSFODNN7EXAMPL AKIAIOSFODNN7EXAMPLE1 AKIAiosfodnn7example AGPAIOSFODNN7EXAMPLE",
		"xoxb-notatoken-letters-only xoxz-0123456789-abc",
		"AIzaShort AIzaSyA0123456789abcdefghijklmnopqrstuvwx",
		"version 1.0.0-beta.2, build 0123456789abcdef0123456789abcdef",
		"«redacted: 40 chars» redacted(40) ****************",
	} {
		if got := Text(in); got != in {
			t.Errorf("Text(%q)\n got %q", in, got)
		}
		p, _ := json.Marshal(map[string]string{"text": in})
		if got, changed := JSON(p); changed || !bytes.Equal(got, p) {
			t.Errorf("JSON(%s)\n got %s", p, got)
		}
	}
	// In a frame, a credential name in a text is no shape without its
	// value (Text redacts any value of a name=value pair with that name).
	for _, in := range []string{
		`{"text":"aws_secret_access_key=$AWS_SECRET, aws_secret_access_key: short"}`,
		`{"text":"set aws_secret_access_key in ~/.aws/credentials"}`,
	} {
		if got, changed := JSON([]byte(in)); changed {
			t.Errorf("JSON(%s)\n got %s", in, got)
		}
	}
}

// TestShapesAfterJSONEscapes: a token right after an escape in a JSON
// string (a newline, a quote, \u00e9) is found; the escape stays.
func TestShapesAfterJSONEscapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`{"text":"line one\n` + ghp + `"}`, `{"text":"line one\n«redacted: 40 chars»"}`},
		{`{"text":"tab\t` + ghp + `\r\n"}`, `{"text":"tab\t«redacted: 40 chars»\r\n"}`},
		{`{"text":"caf\u00e9` + ghp + `"}`, `{"text":"caf\u00e9«redacted: 40 chars»"}`},
		{`{"text":"say \"` + ghp + `\""}`, `{"text":"say \"«redacted: 40 chars»\""}`},
		{`{"cfg":"aws_secret_access_key\":\"` + awsExampleSecret + `\""}`, `{"cfg":"aws_secret_access_key\":\"«redacted: 40 chars»\""}`},
		// a literal backslash (escaped) before n is not an escape
		{`{"path":"C:\\n` + ghp + `"}`, ``},
	} {
		got, _ := JSON([]byte(tc.in))
		want := tc.want
		if want == "" {
			want = tc.in
		}
		if string(got) != want {
			t.Errorf("JSON(%s)\n got %s\nwant %s", tc.in, got, want)
		}
		if !json.Valid(got) {
			t.Errorf("JSON(%s) = %s, not valid", tc.in, got)
		}
	}
}

// TestShapesInURLAndHeaders: a token in a URL takes the URL form; one in a
// header that is not a credential header is found too.
func TestShapesInURLAndHeaders(t *testing.T) {
	t.Parallel()
	if got, want := URL("wss://h/v1/"+ghp+"/ws?model=x&cfg="+skProj), "wss://h/v1/redacted(40)/ws?model=x&cfg=redacted(38)"; got != want {
		t.Errorf("URL\n got %q\nwant %q", got, want)
	}
	if got, want := Header("X-Upstream-Auth", "Bearer "+jwt), "Bearer «redacted: 92 chars»"; got != want {
		t.Errorf("Header\n got %q\nwant %q", got, want)
	}
	if got := Header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="); got != "dGhlIHNhbXBsZSBub25jZQ==" {
		t.Errorf("Header changed a key: %q", got)
	}
}

// TestScrubberRemembersShapes: a token found by its shape is replaced
// wherever else it is quoted, cut or not.
func TestScrubberRemembersShapes(t *testing.T) {
	t.Parallel()
	s := NewScrubber()
	s.JSON([]byte(`{"text":"use ` + ghp + `"}`))
	if got := s.Literals("echo:" + ghp + ":end"); got != "echo:«redacted: 40 chars»:end" {
		t.Errorf("Literals = %q", got)
	}
}

// TestShapesQuietOnImages: base64 content (an image in a message, in the
// standard and the URL alphabet) is left byte for byte.
func TestShapesQuietOnImages(t *testing.T) {
	t.Parallel()
	raw := make([]byte, 48<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range raw {
		raw[i] = byte(r.Uint32())
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		p, _ := json.Marshal(map[string]string{"type": "image", "data": "data:image/png;base64," + enc.EncodeToString(raw)})
		if got, changed := JSON(p); changed || !bytes.Equal(got, p) {
			t.Errorf("an image in base64 was changed")
		}
		if got, changed, _ := Binary(raw); changed || !bytes.Equal(got, raw) {
			t.Errorf("random binary was changed")
		}
	}
}
