package recording

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestUnjudgedLine: the mark of a connection that is not the dialect's
// traffic reads back with its reason, and is a session line binding the
// connection to a session of its own, which a reader that does not know
// the member accepts as such (the format version stays 1).
func TestUnjudgedLine(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Dialect: "myagent", Tool: "test", Started: t0})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.OpenPending("c2", "ws://127.0.0.1:1/notify?token=s3cret", t0); err != nil {
		t.Fatal(err)
	}
	reason := "its first 4 data frames are not myagent messages (notify)"
	if err := w.Unjudged("c2", reason, t0); err != nil {
		t.Fatal(err)
	}
	raw := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(raw) != 3 || !strings.Contains(raw[0], `"version":1`) {
		t.Fatalf("recording:\n%s", buf.String())
	}
	want := `{"kind":"session","conn":"c2","session":"c2","unjudged":"` + reason + `"`
	if !strings.HasPrefix(raw[2], want) {
		t.Errorf("unjudged line\n%s\nwant it to start with\n%s", raw[2], want)
	}
	r := NewReader(strings.NewReader(buf.String()))
	var got []Line
	for {
		l, err := r.Next()
		if err != nil {
			break
		}
		got = append(got, l)
	}
	if len(r.Problems()) > 0 || len(got) != 3 {
		t.Fatalf("read %d lines, problems %v", len(got), r.Problems())
	}
	if l := got[2]; l.Kind != KindSession || l.Conn != "c2" || l.Session != "c2" || l.Unjudged != reason {
		t.Errorf("read back %+v", l)
	}
	// A reader of the members it knew before: a plain session line.
	var old struct {
		Kind, Conn, Session string
	}
	if err := json.Unmarshal([]byte(raw[2]), &old); err != nil || old.Kind != "session" || old.Session != "c2" {
		t.Errorf("an older reader sees %+v (%v)", old, err)
	}
}
