package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
)

// TestQuickRun runs the command as a user does with --quick on the engine
// and validate groups (building wsconform from this checkout) and checks
// that the table has every row and the machine above it. It checks no
// value: these are measurements, and --quick's mean nothing.
func TestQuickRun(t *testing.T) {
	t.Parallel()
	var out, errb strings.Builder
	err := run(context.Background(), []string{"--quick", "--only", "engine,validate", "--rounds", "1"}, &out, &errb)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, errb.String())
	}
	text := out.String()
	for _, want := range []string{"machine: ", " cores", " before, ", " after", "go: go1.", "commit: ", "mitmproxy: ", "as each group started: engine ", ", validate ", "--quick: tiny sizes"} {
		if !strings.Contains(text, want) {
			t.Errorf("header lacks %q:\n%s", want, text)
		}
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(text, "\n") {
		if g, rest, ok := strings.Cut(line, " "); ok && (g == "engine" || g == "validate") {
			rows[g] = append(rows[g], rest)
		}
	}
	wantRows := map[string][]string{
		"engine":   {"check engine, Session.Observe", "check engine per CPU-second", "check engine allocations", "check engine allocated"},
		"validate": {"validate -q, 20k-frame recording", "20k-frame recording (", ": wall", ": CPU", ": peak RSS"},
	}
	for g, figs := range wantRows {
		all := strings.Join(rows[g], "\n")
		for _, f := range figs {
			if !strings.Contains(all, f) {
				t.Errorf("no %s row %q in:\n%s", g, f, text)
			}
		}
	}
	if len(rows["engine"]) != 4 || len(rows["validate"]) != 4 {
		t.Errorf("%d engine and %d validate rows, want 4 and 4:\n%s", len(rows["engine"]), len(rows["validate"]), text)
	}
	if len(rows["engine"]) > 0 {
		for _, d := range dialect.Names() {
			if !strings.Contains(rows["engine"][0], d+" ") {
				t.Errorf("engine row has no median for %s: %s", d, rows["engine"][0])
			}
		}
	}
	for _, other := range []string{"relay", "memory", "suite"} {
		if strings.Contains(text, "\n"+other+" ") {
			t.Errorf("--only engine,validate printed a %s row:\n%s", other, text)
		}
	}
}

// TestFlagErrors: a mistake in the command line is a usage error (exit 2)
// that says what is wrong, before anything is built or measured.
func TestFlagErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--nope"}, "unknown flag: --nope (see --help)"},
		{[]string{"--only", "engine,relays"}, `--only "engine,relays": no group "relays" (groups: engine, relay, memory, validate, suite)`},
		{[]string{"--only", ""}, `--only "": no group ""`},
		{[]string{"--rounds", "abc"}, `--rounds "abc": not a whole number`},
		{[]string{"--rounds", "0"}, "--rounds 0: at least 1"},
		{[]string{"engine"}, `unexpected argument "engine": bench takes only flags`},
	}
	for _, tt := range tests {
		var out, errb strings.Builder
		err := run(context.Background(), tt.args, &out, &errb)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: error %v, want a usage error", tt.args, err)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %q, want it to contain %q", tt.args, err, tt.want)
		}
		if out.Len() > 0 || errb.Len() > 0 {
			t.Errorf("%q: printed %q / %q before failing", tt.args, out.String(), errb.String())
		}
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	var out, errb strings.Builder
	if err := run(context.Background(), []string{"--help"}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"go run ./ci/bench", "--rounds", "--quick", "--only", "--markdown", "engine, relay, memory, validate, suite", "apt-get install mitmproxy"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help lacks %q:\n%s", want, out.String())
		}
	}
}
