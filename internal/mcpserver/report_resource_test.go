package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/reports"
)

// TestReportResource: a --json report under the root is a resource that
// reads as its verdict and root causes, with the requirements of each
// cause's rule; a JSON file that is not a report is not listed.
func TestReportResource(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	col := validate.NewCollector(gapRecording, reports.WireLimits{})
	if _, err := validate.File(context.Background(), gapRecording, validate.Options{Observer: col}); err != nil {
		t.Fatal(err)
	}
	rep := reports.New(reports.KindValidate, "test", time.Now())
	rep.Sessions = col.Sessions()
	rep.Tally()
	f, err := os.Create(filepath.Join(root, "validate.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := reports.WriteJSON(f, rep); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"name":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, Config{Roots: []string{root}})
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	if len(uris) != 1 || !strings.HasPrefix(uris[0], reportScheme) || !strings.HasSuffix(uris[0], "/validate.json") {
		t.Fatalf("resources %v, want the report alone", uris)
	}
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uris[0]})
	if err != nil {
		t.Fatal(err)
	}
	var sum reportSummary
	if err := json.Unmarshal([]byte(read.Contents[0].Text), &sum); err != nil {
		t.Fatal(err)
	}
	p := problemOf(sum.Problems, "minicodex.replay-gap")
	if sum.Kind != "validate" || sum.Verdict != "failed" || p == nil || !slices.Contains(p.Requirements, "minicodex.handshake.reply") ||
		!slices.Equal(p.Frames, []int64{14}) {
		t.Errorf("summary %+v", sum)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: reportURI("/etc/passwd")}); err == nil || !strings.Contains(err.Error(), "outside the roots") {
		t.Errorf("a report outside the roots: %v", err)
	}
}
