package asyncapi

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/validate"
)

// TestChatroomExample: the example protocol (none of the five dialects)
// is a valid AsyncAPI 3.0 document, and its recording gets exactly the
// three planted faults, found by the generic rules the document's
// extension and correlationIds enable.
func TestChatroomExample(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "chatroom")
	doc := filepath.Join(dir, "chatroom.asyncapi.yaml")
	raw, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	v, err := decode("chatroom.asyncapi.yaml", raw)
	if err != nil {
		t.Fatal(err)
	}
	official, err := os.ReadFile(filepath.Join("testdata", "asyncapi-spec-json-schemas", "3.0.0-without-id.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(official), gojsonschema.NewGoLoader(v))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Errors() {
		t.Errorf("official schema: %s", e)
	}
	p, err := Load(doc)
	if err != nil {
		t.Fatal(err)
	}
	out, err := validate.File(context.Background(), filepath.Join(dir, "chatroom.jsonl"), validate.Options{Dialect: p.Name})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range out.Findings {
		got = append(got, key(f))
	}
	want := []string{
		"protocol.replay-equal s2c frame=10 conn=c2 ptr=/text sev=error session=ada",
		"schema.violation s2c frame=11 conn=c2 ptr=/from sev=error session=ada",
		"protocol.reply-unmatched s2c frame=12 conn=c2 ptr=/msg_id sev=error session=ada",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n  %q\nwant\n  %q", got, want)
	}
	if out.Sessions != 1 {
		t.Errorf("%d sessions, want the reconnect judged with the first connection", out.Sessions)
	}
}
