package reports_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/runner"
	"github.com/wsconform/wsconform/reports"
)

// TestMergedReportInBrowser: the report merged from two shards of a real
// run (one scenario failing on a mutated replay) renders in headless
// Chromium with the unsharded run's counts and its failure open to read.
func TestMergedReportInBrowser(t *testing.T) {
	b := newBrowser(t)
	dir := artifacts(t)
	ctx := context.Background()
	srv, target, err := runner.StartReference(ctx, []string{"minicodex"}, []string{"minicodex-replay-alters-payload"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	tags := "@id:minicodex.connect.hello-welcome-snapshot,@id:minicodex.send.turn,@id:minicodex.errors.invalid-command-not-json," +
		"@id:minicodex.resume.replay-after-refresh"
	var parts []*reports.Report
	for i := 1; i <= 2; i++ {
		res, err := runner.Run(ctx, runner.Options{Dialects: []string{"minicodex"}, Targets: []runner.Target{target},
			Vars: runner.ReferenceVars(), Tags: tags, Shard: runner.Shard{Index: i, Count: 2}})
		if err != nil {
			t.Fatal(err)
		}
		r := reports.New(reports.KindRun, "wsconform browser-test", time.Now())
		r.Scenarios, r.Shard = res, fmt.Sprintf("%d/2", i)
		r.Targets = []reports.Target{{Name: target.Name, URL: target.URL, Reference: true}}
		r.Dialects = []string{"minicodex"}
		r.Tally()
		parts = append(parts, r)
	}
	if len(parts[0].Scenarios) != 2 || len(parts[1].Scenarios) != 2 {
		t.Fatalf("shards of %d and %d scenarios, want 2 and 2", len(parts[0].Scenarios), len(parts[1].Scenarios))
	}
	m, err := reports.MergeShards(parts)
	if err != nil {
		t.Fatal(err)
	}
	runner.SortResults(m.Scenarios, []runner.Target{target})
	m.Tally()
	page := filepath.Join(dir, "merged.html")
	writePage(t, page, m)
	dom, _ := b.dom(page)
	expect(t, dom, `data-ready="1"`, `data-shown="4"`, `data-count="failed">1<`, `data-count="passed">3<`,
		`<details class="item" id="s-`+target.Name+`-minicodex.resume.replay-after-refresh"`)
	b.screenshot(page, filepath.Join(dir, "merged.png"), 1280, 900)
}
