package recording_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/internal/wire"
)

// Credentials of every kind the writer must keep out of a recording (the
// AWS ones are AWS's documentation examples).
var rtSecrets = []string{
	"ghp_0123456789abcdefghijABCDEFGHIJklmnop",
	"sk-proj-Ab3dEf6hIj9lMn0pQr5tUv8xYz_-12",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
	"AKIAIOSFODNN7EXAMPLE",
	"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	"xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
	"AIzaSyA0123456789abcdefghijklmnopqrstuv",
	"hunter2-pass",
}

// collected is a validate.Observer that keeps every judged frame's
// payload, as read back from a file.
type collected struct{ payloads [][]byte }

func (c *collected) Begin(string, string)        {}
func (c *collected) Line(recording.Line)         {}
func (c *collected) Unreadable(validate.Finding) {}
func (c *collected) Bound(string, string)        {}
func (c *collected) Judged(_ string, f wire.Frame, _ []validate.Finding) {
	c.payloads = append(c.payloads, f.Payload)
}

// TestRecordingHoldsNoSecret writes traffic carrying credentials in every
// place a recording holds them (a URL's path and query, JSON in a string
// member, free text, a text frame that is not JSON, binary frames that are
// and are not UTF-8, a ping, a close frame's reason, a close line) through
// the real Writer to a file, and reads the file back: the secrets appear
// nowhere in its bytes, nor in any decoded (base64) payload, nor in the
// HAR exported from it.
func TestRecordingHoldsNoSecret(t *testing.T) {
	t.Parallel()
	ghp, sk, jwt, akia, aws, slack, google, pass := rtSecrets[0], rtSecrets[1], rtSecrets[2], rtSecrets[3], rtSecrets[4], rtSecrets[5], rtSecrets[6], rtSecrets[7]
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1700000000, 0)
	w, err := recording.NewWriter(f, recording.Header{Dialect: "minicodex", Started: now})
	if err != nil {
		t.Fatal(err)
	}
	frame := func(i int64, op wire.Opcode, p string) wire.Frame {
		return wire.Frame{Conn: "c1", Dir: wire.ClientToServer, Index: i, Time: now, Op: op, Payload: []byte(p)}
	}
	for _, err := range []error{
		w.Open("c1", "s1", "", "ws://127.0.0.1:1/v1/"+ghp+"/ws?cfg="+sk, now),
		w.Frame("s1", frame(1, wire.OpText, `{"type":"x","config":"{\"apiKey\":\"`+pass+`\",\"n\":1}"}`)),
		w.Frame("s1", frame(2, wire.OpText, `{"type":"agent_message_delta","delta":"try Bearer `+jwt+`\nor `+akia+`"}`)),
		w.Frame("s1", frame(3, wire.OpText, "aws_secret_access_key = "+aws)),
		w.Frame("s1", frame(4, wire.OpBinary, `{"type":"x","password":"`+pass+`","k":"`+google+`"}`)),
		w.Frame("s1", frame(5, wire.OpBinary, "\x92\xff\x00"+slack+"\xa3"+ghp+"\x00")),
		w.Frame("s1", frame(6, wire.OpPing, "\xff"+ghp)),
		w.Frame("s1", wire.Frame{Conn: "c1", Dir: wire.ServerToClient, Index: 7, Time: now, Op: wire.OpClose,
			CloseCode: 1008, Payload: []byte("revoked " + sk)}),
		w.Close("c1", "s1", 1008, "revoked "+sk, recording.ByServer, now),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	noSecret(t, "recording", raw)

	// Every payload decoded, base64 ones included.
	r := recording.NewReader(bytes.NewReader(raw))
	frames := 0
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if l.Kind != recording.KindFrame {
			continue
		}
		fr, err := l.Frame()
		if err != nil {
			t.Fatal(err)
		}
		frames++
		noSecret(t, "frame "+fr.Op.String(), fr.Payload)
		if fr.Op == wire.OpBinary && fr.Index == 5 && len(fr.Payload) != len(frame(5, wire.OpBinary, "\x92\xff\x00"+slack+"\xa3"+ghp+"\x00").Payload) {
			t.Errorf("a binary frame that is not text changed length: %q", fr.Payload)
		}
	}
	if frames != 7 || len(r.Problems()) > 0 {
		t.Fatalf("read %d frames, want 7; problems %v", frames, r.Problems())
	}

	// The HAR exported from it, as written and as read back.
	harPath := filepath.Join(dir, "rec.har")
	var har bytes.Buffer
	if _, err := recording.ExportHAR(&har, bytes.NewReader(raw), recording.HAROptions{Creator: "test 0"}); err != nil {
		t.Fatal(err)
	}
	noSecret(t, "HAR", har.Bytes())
	if err := os.WriteFile(harPath, har.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &collected{}
	if _, err := validate.File(context.Background(), harPath, validate.Options{Dialect: "minicodex", Observer: c}); err != nil {
		t.Fatal(err)
	}
	if len(c.payloads) == 0 {
		t.Fatal("the HAR read back no frames")
	}
	for _, p := range c.payloads {
		noSecret(t, "HAR frame", p)
	}
}

// noSecret fails when b holds one of the secrets, as they are or in
// base64 (a payload a file encodes).
func noSecret(t *testing.T, what string, b []byte) {
	t.Helper()
	for _, s := range rtSecrets {
		if bytes.Contains(b, []byte(s)) || bytes.Contains(b, []byte(strings.ReplaceAll(s, "/", `\/`))) {
			t.Errorf("%s holds %s:\n%s", what, s, b)
		}
	}
	if d, err := base64.StdEncoding.DecodeString(string(b)); err == nil && len(d) > 0 {
		noSecret(t, what+" (base64)", d)
	}
}
