package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProtocolFlag: export --asyncapi writes a document that validate
// --protocol reads back to the built-in dialect's verdict; the chatroom
// example fails on its planted faults; a document that cannot be imported
// is one line and exit 2; --protocol excludes --dialect; gate --protocol
// needs --replay.
func TestProtocolFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	doc := filepath.Join(dir, "minicodex.asyncapi.yaml")
	if code, _, stderr := wsconform(t, "export", "--asyncapi", doc, "--dialect", "minicodex"); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("asyncapi: 3.0.0\ninfo: {title: b, version: '1'}\noperations:\n  a: {action: receive, channel: {$ref: '#/channels/nope'}, messages: []}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	chat := filepath.Join("..", "..", "internal", "asyncapi", "testdata", "chatroom")
	cases := []struct {
		name string
		args []string
		code int
		msg  string
		// serial: the case needs chatroom not registered yet; --protocol
		// registers a protocol for the life of the process, and every
		// parallel case runs after the serial ones.
		serial bool
	}{
		{"exported, clean", []string{"validate", "--protocol", doc, "testdata/minicodex-clean.jsonl"}, exitOK, "asyncapi:minicodex", false},
		{"exported, planted", []string{"validate", "--protocol", doc, "testdata/minicodex-planted.jsonl"}, exitFail, "minicodex.event-id-order", false},
		{"chatroom", []string{"validate", "--protocol", filepath.Join(chat, "chatroom.asyncapi.yaml"), filepath.Join(chat, "chatroom.jsonl")}, exitFail, "protocol.reply-unmatched", false},
		{"imported protocol's recording without --protocol", []string{"validate", filepath.Join(chat, "chatroom.jsonl")}, exitUsage, "give that document with --protocol FILE", true},
		{"broken document", []string{"validate", "--protocol", broken, "testdata/minicodex-clean.jsonl"}, exitUsage, "broken.yaml: at /operations/a/channel: broken $ref", false},
		{"with --dialect", []string{"validate", "--protocol", doc, "--dialect", "mitto", "testdata/minicodex-clean.jsonl"}, exitUsage, "exclude each other", false},
		{"gate without --replay", []string{"gate", "--protocol", doc, "--", "true"}, exitUsage, "--protocol needs --replay", false},
		{"serve --protocol without --replay", []string{"serve", "--protocol", doc}, exitUsage, "--protocol needs --replay", false},
		{"export without --dialect", []string{"export", "--asyncapi", "-"}, exitUsage, "needs --dialect", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !c.serial {
				t.Parallel()
			}
			code, stdout, stderr := wsconform(t, append([]string{c.args[0], "--color", "never"}, c.args[1:]...)...)
			if c.args[0] == "export" || c.args[0] == "gate" || c.args[0] == "serve" {
				code, stdout, stderr = wsconform(t, c.args...)
			}
			if code != c.code || !strings.Contains(stdout+stderr, c.msg) {
				t.Errorf("exit %d, want %d with %q in:\n%.2000s%.2000s", code, c.code, c.msg, stdout, stderr)
			}
			if c.code == exitUsage && strings.Count(strings.TrimSpace(stderr), "\n") > 1 {
				t.Errorf("want one line and the usage hint on stderr, got:\n%s", stderr)
			}
		})
	}
}
