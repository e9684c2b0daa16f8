package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProtocolFlag: --protocol makes the proxy judge the protocol an
// AsyncAPI document describes (the dialect it announces is the document's),
// excludes --dialect, and a document that cannot be imported is one line
// naming the place, exit 2.
func TestProtocolFlag(t *testing.T) {
	t.Parallel()
	doc := filepath.Join("..", "..", "internal", "asyncapi", "testdata", "chatroom", "chatroom.asyncapi.yaml")
	o, done, err := parseFlags([]string{"--upstream", "ws://127.0.0.1:1", "--protocol", doc}, &bytes.Buffer{})
	if err != nil || done {
		t.Fatalf("parse: %v (done %v)", err, done)
	}
	if o.dialect != "asyncapi:chatroom" {
		t.Errorf("dialect %q, want asyncapi:chatroom", o.dialect)
	}
	broken := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(broken, []byte("asyncapi: 2.6.0\ninfo: {title: old, version: '1'}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--upstream", "ws://127.0.0.1:1", "--protocol", doc, "--dialect", "mitto"}, "--protocol and --dialect exclude each other"},
		{[]string{"--upstream", "ws://127.0.0.1:1", "--protocol", broken}, "broken.yaml: at /asyncapi: AsyncAPI 2.6.0 is not supported"},
	} {
		var out, errb bytes.Buffer
		code := exitCode(run(context.Background(), tt.args, &out, &errb), &errb)
		if code != exitUsage || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tt.args, code, errb.String(), tt.want)
		}
	}
}
