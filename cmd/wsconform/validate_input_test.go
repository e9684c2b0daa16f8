package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/recording"
)

// TestValidateNoFalsePass: what cannot be read fails the verdict (exit 1,
// recording.unreadable with its place), a file with no frame is a harness
// error (exit 3, one line) with or without --dialect, and a HAR page
// refresh whose replay alters an event fails without --one-session.
func TestValidateNoFalsePass(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	clean, err := os.ReadFile("testdata/minicodex-clean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	header := strings.SplitN(string(clean), "\n", 2)[0] + "\n"
	big := write("big.jsonl", string(clean)+`{"kind":"frame","conn":"c1","dir":"s2c","opcode":1,"text":"`+strings.Repeat("a", recording.MaxLineBytes)+"\"}\n") // over the reader's limit
	har := func(name, msgs string) string {
		return write(name, `{"log":{"entries":[{"request":{"url":"ws://127.0.0.1:7337/ws"},"_webSocketMessages":[`+msgs+`]}]}}`)
	}
	msg := func(typ, secs, data string) string {
		return `{"type":"` + typ + `","time":` + secs + `,"opcode":1,"data":` + data + `}`
	}
	welcome := `"{\"type\":\"welcome\",\"v\":\"1.0.0\",\"session_state\":{\"session_id\":\"s9\",\"version\":\"1.0.0\",\"capabilities\":[],\"last_event_id\":null,\"active_run_id\":null,\"run_counter\":0}}"`
	ev := func(text string) string {
		return `"{\"type\":\"assistant_text\",\"text\":\"` + text + `\",\"event_id\":1}"`
	}
	refresh := write("refresh.har", `{"log":{"entries":[`+
		`{"request":{"url":"ws://127.0.0.1:7337/ws"},"_webSocketMessages":[`+msg("receive", "1795255200.1", welcome)+`,`+msg("receive", "1795255200.2", ev("one"))+`]},`+
		`{"request":{"url":"ws://127.0.0.1:7337/ws"},"_webSocketMessages":[`+msg("send", "1795255201.1", `"{\"type\":\"resume\",\"session_id\":\"s9\",\"last_seen_event_id\":0}"`)+`,`+
		msg("receive", "1795255201.2", welcome)+`,`+msg("receive", "1795255201.3", ev("changed"))+`]}]}}`)
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"clean", []string{"testdata/minicodex-clean.jsonl"}, exitOK, "PASS"},
		{"line over the limit", []string{big}, exitFail, "recording.unreadable"},
		{"empty", []string{write("empty.jsonl", "")}, exitHarness, "the file holds no frame"},
		{"empty with --dialect", []string{"--dialect", "minicodex", write("empty2.jsonl", "")}, exitHarness, "the recording is empty"},
		{"header only", []string{write("header.jsonl", header)}, exitHarness, "no frame"},
		{"header only with --dialect", []string{"--dialect", "minicodex", write("header2.jsonl", header)}, exitHarness, "1 lines and no frame"},
		{"HAR with bad base64", []string{"--dialect", "minicodex", har("b64.har", msg("receive", "1795255200.1", welcome)+
			`,{"type":"receive","time":1795255200.2,"opcode":2,"data":"@@"}`)}, exitFail, "HAR entry 1, message 2 cannot be read"},
		{"HAR refresh with an altered replay", []string{refresh}, exitFail, "minicodex.replay-mismatch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := wsconform(t, append([]string{"validate", "--color", "never"}, c.args...)...)
			if code != c.code || !strings.Contains(stdout+stderr, c.msg) {
				t.Errorf("exit %d, want %d with %q in:\n%.2000s%.2000s", code, c.code, c.msg, stdout, stderr)
			}
			if c.code == exitHarness && strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("want one line on stderr, got:\n%s", stderr)
			}
		})
	}
}
