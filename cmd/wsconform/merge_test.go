package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/reports"
)

// TestShardsMergeAsOneRun: a run split with --shard 1/4 … 4/4 and put back
// with merge gives the verdicts, distinct problems, requirement coverage
// and exit code of the same run unsharded — against a reference server
// that breaks the spec, so that there are failures and root causes to
// compare.
func TestShardsMergeAsOneRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := []string{"run", "--dialect", "minicodex", "--mutate", "minicodex-replay-alters-payload", "--color", "never", "-q"}
	full := filepath.Join(dir, "full.json")
	wantCode, out, errs := wsconform(t, append(base, "--json", full)...)
	if wantCode != exitFail {
		t.Fatalf("unsharded run: exit %d, want %d (the mutation fails scenarios)\n%s\n%s", wantCode, exitFail, out, errs)
	}
	var parts []string
	total := 0
	for i := 1; i <= 4; i++ {
		p := filepath.Join(dir, fmt.Sprintf("shard%d.json", i))
		code, out, errs := wsconform(t, append(base, "--shard", fmt.Sprintf("%d/4", i), "--json", p)...)
		if code != exitOK && code != exitFail {
			t.Fatalf("shard %d: exit %d\n%s\n%s", i, code, out, errs)
		}
		total += len(readJSONReport(t, p).Scenarios)
		parts = append(parts, p)
	}
	merged := filepath.Join(dir, "merged.json")
	code, out, errs := wsconform(t, append(append([]string{"merge", "--color", "never"}, parts...), "--json", merged, "--html", filepath.Join(dir, "merged.html"))...)
	if code != wantCode {
		t.Fatalf("merge: exit %d, want the unsharded run's %d\n%s\n%s", code, wantCode, out, errs)
	}
	a, b := readJSONReport(t, full), readJSONReport(t, merged)
	if total != len(a.Scenarios) {
		t.Errorf("the shards ran %d scenarios, the unsharded run %d: a scenario ran twice or never", total, len(a.Scenarios))
	}
	diff(t, "verdicts", verdictsOf(b), verdictsOf(a))
	diff(t, "root causes", causesOf(b), causesOf(a))
	if len(causesOf(a)) == 0 {
		t.Error("the mutation gave no root cause: the comparison proves little")
	}
	diff(t, "coverage", coverageOf2(b), coverageOf2(a))
	if b.Verdict != a.Verdict || !reflect.DeepEqual(b.Counts, a.Counts) {
		t.Errorf("merged verdict %s %v, unsharded %s %v", b.Verdict, b.Counts, a.Verdict, a.Counts)
	}
	if strings.Contains(b.Command, "--shard") || b.Shard != "" {
		t.Errorf("the merged report still reads as a shard: command %q, shard %q", b.Command, b.Shard)
	}
}

// TestMergeRefusesBrokenSets: a missing part, a part given twice, parts of
// different splits, another kind of report and a file that is not a
// report are usage errors that say what is wrong.
func TestMergeRefusesBrokenSets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, r *reports.Report) string {
		p := filepath.Join(dir, name)
		b, _ := json.Marshal(r)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	shard := func(s string) *reports.Report {
		r := reports.New(reports.KindRun, "t", time.Time{})
		r.Shard = s
		return r
	}
	s12, s22, s13 := write("a.json", shard("1/2")), write("b.json", shard("2/2")), write("c.json", shard("1/3"))
	gate := reports.New(reports.KindGate, "t", time.Time{})
	g := write("g.json", gate)
	junk := filepath.Join(dir, "junk.json")
	if err := os.WriteFile(junk, []byte(`{"format":"something-else"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{s12}, "shard 2/2 missing"},
		{[]string{s12, s12, s22}, "given twice"},
		{[]string{s12, s13}, "split differently"},
		{[]string{g}, "cannot be merged"},
		{[]string{junk}, `format "something-else"`},
		{[]string{filepath.Join(dir, "absent.json")}, "no such file"},
		{nil, "give the JSON reports"},
	}
	for _, c := range cases {
		code, out, errs := wsconform(t, append([]string{"merge"}, c.args...)...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("merge %v: exit %d, stderr %q; want exit %d and %q\n%s", c.args, code, errs, exitUsage, c.want, out)
		}
	}
}

// TestShardFlags: bad --shard values are usage errors; --shard-timings
// without --shard is refused.
func TestShardFlags(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"0/4", "5/4", "x", "1/0", "2"} {
		code, _, errs := wsconform(t, "run", "--dialect", "mitto", "--shard", bad, "--list")
		if code != exitUsage || !strings.Contains(errs, "--shard") {
			t.Errorf("--shard %s: exit %d %q, want a usage error", bad, code, errs)
		}
	}
	code, _, errs := wsconform(t, "run", "--dialect", "mitto", "--shard-timings", "x.json", "--list")
	if code != exitUsage || !strings.Contains(errs, "give both") {
		t.Errorf("--shard-timings alone: exit %d %q", code, errs)
	}
}

func readJSONReport(t *testing.T, path string) *reports.Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := reports.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func verdictsOf(r *reports.Report) []string {
	var out []string
	for _, s := range r.Scenarios {
		out = append(out, s.Target+" "+s.ID+" "+string(s.Verdict)+" "+firstLine(s.Reason))
	}
	return out
}

func causesOf(r *reports.Report) []string {
	var out []string
	for _, c := range r.RootCauses {
		out = append(out, fmt.Sprintf("%s %s n=%d %v", c.Rule, c.Severity, c.Count, c.Scenarios))
	}
	return out
}

func coverageOf2(r *reports.Report) []string {
	if r.Coverage == nil {
		return nil
	}
	var out []string
	for _, row := range r.Coverage.Requirements {
		out = append(out, fmt.Sprintf("%s %s %s %s", row.Dialect+":"+row.Target+":"+row.ID, row.Status, row.Why, row.Reason))
	}
	return out
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// diff reports the first lines where the merged report differs from the
// unsharded one.
func diff(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("merged %s: %d lines, unsharded %d", what, len(got), len(want))
	}
	shown := 0
	for i := 0; i < min(len(got), len(want)) && shown < 5; i++ {
		if got[i] != want[i] {
			t.Errorf("merged %s differ at %d:\n got %s\nwant %s", what, i, got[i], want[i])
			shown++
		}
	}
}
