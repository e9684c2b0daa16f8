package validate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/recording"
)

const (
	recHeader = `{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex","time":"2026-11-21T10:00:00Z"}`
	recOpen   = `{"kind":"open","conn":"c1","session":"s1","url":"ws://h/ws","time":"2026-11-21T10:00:00Z"}`
)

func recFrame(text string) string {
	b, _ := json.Marshal(map[string]any{"kind": "frame", "conn": "c1", "session": "s1", "dir": "s2c", "opcode": 1, "text": text})
	return string(b)
}

// harFile writes a HAR whose entries are lists of [type, data] messages.
func harFile(t *testing.T, conns ...[][2]string) string {
	t.Helper()
	var entries []any
	secs := 1795255200.0
	for _, c := range conns {
		var msgs []map[string]any
		for _, m := range c {
			secs += 0.1
			op := 1
			if strings.HasPrefix(m[1], "b64:") {
				op, m[1] = 2, strings.TrimPrefix(m[1], "b64:")
			}
			msgs = append(msgs, map[string]any{"type": m[0], "time": secs, "opcode": op, "data": m[1]})
		}
		entries = append(entries, map[string]any{"startedDateTime": "2026-11-21T10:00:00Z",
			"request": map[string]any{"url": "ws://127.0.0.1:7337/ws"}, "_webSocketMessages": msgs})
	}
	b, err := json.Marshal(map[string]any{"log": map[string]any{"entries": entries}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "capture.har")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const (
	welcome = `{"type":"welcome","v":"1.0.0","session_state":{"session_id":"sess_9","version":"1.0.0","capabilities":["replay"],"last_event_id":null,"active_run_id":null,"run_counter":0}}`
	event1  = `{"type":"assistant_text","text":"one","event_id":1}`
	event2  = `{"type":"assistant_text","text":"two","event_id":2}`
)

// TestNoFalsePass: every part of a file that cannot be read is a
// recording.unreadable finding with its place, and the frames around it
// are still judged; a file without a frame is ErrNoFrames; a HAR page
// refresh is one session, so an altered replay is caught without
// --one-session; clean files stay quiet.
func TestNoFalsePass(t *testing.T) {
	t.Parallel()
	jsonl := func(lines ...string) func(t *testing.T) string {
		return func(t *testing.T) string { return writeRecording(t, lines...) }
	}
	refresh := func(replay string) func(t *testing.T) string {
		return func(t *testing.T) string {
			return harFile(t,
				[][2]string{{"send", `{"type":"hello","v":"1.0.0"}`}, {"receive", welcome}, {"receive", event1}, {"receive", event2}},
				[][2]string{{"send", `{"type":"resume","session_id":"sess_9","last_seen_event_id":0}`}, {"receive", welcome}, {"receive", replay}, {"receive", event2}})
		}
	}
	tests := []struct {
		name    string
		file    func(t *testing.T) string
		dialect string
		want    []string // rule and where, in order
		frames  int
		err     error
	}{
		{name: "clean recording", file: jsonl(recHeader, recOpen, recFrame(event1), recFrame(event2)), frames: 2},
		{name: "line over the limit", file: jsonl(recHeader, recOpen, recFrame(`{"type":"assistant_text","text":"`+strings.Repeat("a", recording.MaxLineBytes)+`","event_id":1}`), recFrame(event2)),
			want: []string{"recording.unreadable line 3"}, frames: 1},
		{name: "bad base64", file: jsonl(recHeader, recOpen, `{"kind":"frame","conn":"c1","session":"s1","dir":"s2c","opcode":2,"base64":"%%%"}`, recFrame(event1)),
			want: []string{"recording.unreadable line 3"}, frames: 1},
		{name: "torn line", file: jsonl(recHeader, recOpen, recFrame(event1), `{"kind":"frame","conn":"c1","sess`, recFrame(event2)),
			want: []string{"recording.unreadable line 4"}, frames: 2},
		{name: "missing fields", file: jsonl(recHeader, recOpen, `{"kind":"frame","conn":"c1","opcode":1,"text":"{}"}`, recFrame(event1)),
			want: []string{"recording.unreadable line 3"}, frames: 1},
		{name: "empty file", file: jsonl(), err: ErrNoFrames},
		{name: "empty file with --dialect", file: jsonl(), dialect: "minicodex", err: ErrNoFrames},
		{name: "header only", file: jsonl(recHeader), err: ErrNoFrames},
		{name: "header only with --dialect", file: jsonl(recHeader), dialect: "mitto", err: ErrNoFrames},
		{name: "no readable line", file: jsonl("not json", "{"), err: ErrNoFrames},
		{name: "HAR without messages", file: func(t *testing.T) string { return harFile(t) }, dialect: "minicodex", err: ErrNoFrames},
		{name: "HAR with bad base64", file: func(t *testing.T) string {
			return harFile(t, [][2]string{{"send", `{"type":"hello","v":"1.0.0"}`}, {"receive", "b64:@@not base64"}, {"receive", welcome}})
		}, dialect: "minicodex", want: []string{"recording.unreadable HAR entry 1, message 2"}, frames: 2},
		{name: "HAR refresh, faithful replay", file: refresh(event1), frames: 8},
		{name: "HAR refresh, altered replay", file: refresh(`{"type":"assistant_text","text":"changed","event_id":1}`),
			want: []string{"minicodex.replay-mismatch h2"}, frames: 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := File(context.Background(), tt.file(t), Options{Dialect: tt.dialect})
			if tt.err != nil {
				if !errors.Is(err, tt.err) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("err %v, want one line of %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Findings {
				where := f.Conn
				if f.Rule == "recording.unreadable" {
					where = strings.SplitN(f.Message, " cannot be read", 2)[0]
				}
				got = append(got, f.Rule+" "+where)
			}
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") || res.Frames != tt.frames {
				t.Errorf("%d frames, findings %q; want %d, %q\n%+v", res.Frames, got, tt.frames, tt.want, res.Findings)
			}
			if strings.HasPrefix(tt.name, "HAR refresh") && (res.Sessions != 1 || res.Conns != 2) {
				t.Errorf("%d sessions of %d connections, want the refresh as one session", res.Sessions, res.Conns)
			}
		})
	}
}

// TestUnreadableBounded: past MaxUnreadable, unreadable lines are counted
// in one more finding, not reported one by one.
func TestUnreadableBounded(t *testing.T) {
	t.Parallel()
	lines := []string{recHeader, recOpen, recFrame(event1)}
	for range MaxUnreadable + 5 {
		lines = append(lines, "{torn")
	}
	res, err := File(context.Background(), writeRecording(t, lines...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Findings[len(res.Findings)-1]
	if len(res.Findings) != MaxUnreadable+1 || !strings.HasPrefix(last.Message, "5 more parts of the file") {
		t.Fatalf("%d findings, the last %q", len(res.Findings), last.Message)
	}
}
