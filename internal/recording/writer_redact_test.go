package recording

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// secretTraffic records a connection whose URL and frames carry
// credentials, and returns the recording and the frame it was given.
func secretTraffic(t *testing.T, h Header, wrap bool) (string, wire.Frame) {
	t.Helper()
	var buf bytes.Buffer
	var dest io.Writer = &buf
	if wrap {
		dest = KeepSecrets(&buf)
	}
	w, err := NewWriter(dest, h)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1700000000, 0)
	url := "ws://127.0.0.1:1/ws?token=SECRET1&host_token=SECRET2&v=1"
	payload := []byte(`{"type":"hello","apiKey":"SECRET4-0123456789abcdef"}`)
	f := wire.Frame{Conn: "c1", Dir: wire.ClientToServer, Index: 1, Time: now, Op: wire.OpText, Payload: payload}
	for _, err := range []error{
		w.Open("c1", "s1", "", url, now),
		w.OpenPending("c2", url, now),
		w.Frame("s1", f),
		w.Frame("s1", wire.Frame{Conn: "c1", Dir: wire.ServerToClient, Index: 2, Time: now, Op: wire.OpBinary, Payload: []byte{0, 1}}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return buf.String(), f
}

func TestWriterRedacts(t *testing.T) {
	out, f := secretTraffic(t, Header{Dialect: "minicodex"}, false)
	for _, s := range []string{"SECRET1", "SECRET2", "SECRET4"} {
		if strings.Contains(out, s) {
			t.Errorf("recording holds %s:\n%s", s, out)
		}
	}
	for _, want := range []string{`token=redacted(7)&host_token=redacted(7)&v=1`,
		`{\"type\":\"hello\",\"apiKey\":\"«redacted: 24 chars»\"}`} {
		if !strings.Contains(out, want) {
			t.Errorf("recording lacks %s:\n%s", want, out)
		}
	}
	if !strings.Contains(string(f.Payload), "SECRET4") {
		t.Error("the caller's frame was changed")
	}
	// the redacted recording reads back, frames and all
	r := NewReader(strings.NewReader(out))
	n := 0
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if l.Kind == KindFrame {
			if _, err := l.Frame(); err != nil {
				t.Fatal(err)
			}
		}
		n++
	}
	if n != 5 || len(r.Problems()) > 0 {
		t.Fatalf("read %d lines, want 5; problems %v", n, r.Problems())
	}
}

func TestWriterKeepsSecretsWhenTold(t *testing.T) {
	for name, tc := range map[string]struct {
		h    Header
		wrap bool
	}{
		"header":  {Header{KeepSecrets: true}, false},
		"wrapper": {Header{}, true},
	} {
		out, _ := secretTraffic(t, tc.h, tc.wrap)
		for _, s := range []string{"SECRET1", "SECRET2", "SECRET4"} {
			if !strings.Contains(out, s) {
				t.Errorf("%s: recording lacks %s:\n%s", name, s, out)
			}
		}
	}
}
