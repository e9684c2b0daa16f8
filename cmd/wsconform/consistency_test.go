package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestHelpCommandIsCommandHelp: `wsconform help CMD` prints what `wsconform
// CMD --help` prints, for every command.
func TestHelpCommandIsCommandHelp(t *testing.T) {
	t.Parallel()
	for _, c := range commands() {
		code1, a, _ := wsconform(t, "help", c.name)
		code2, b, _ := wsconform(t, c.name, "--help")
		if code1 != exitOK || code2 != exitOK || a != b || !strings.Contains(a, "Usage: wsconform "+c.name) {
			t.Errorf("help %s (exit %d) and %s --help (exit %d) differ or lack the usage line:\n%s\n---\n%s", c.name, code1, c.name, code2, a, b)
		}
	}
}

// TestQuietVerboseEverywhere: every command that judges and prints has the
// same short flags -q and -v, and refuses both at once.
func TestQuietVerboseEverywhere(t *testing.T) {
	t.Parallel()
	judging := map[string]bool{"run": true, "gate": true, "validate": true, "replay": true, "merge": true}
	for _, c := range flagSets(context.Background()) {
		if !judging[c.Name] {
			continue
		}
		for _, short := range []string{"q", "v"} {
			if c.Flags.ShorthandLookup(short) == nil {
				t.Errorf("%s has no -%s", c.Name, short)
			}
		}
	}
}

// TestNameListsInMessages: lists of names in messages read "a, b, c", never
// as a Go slice "[a b c]".
func TestNameListsInMessages(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"rules", "--dialect", "nope"},
		{"requirements", "--dialect", "nope"},
		{"validate", "--dialect", "nope", "x.jsonl"},
		{"replay", "--dialect", "nope", "--against", "ws://127.0.0.1:1", "x.jsonl"},
		{"run", "--dialect", "nope"},
		{"gate", "--dialect", "nope", "--", "true"},
	} {
		code, _, errs := wsconform(t, args...)
		if code != exitUsage || !strings.Contains(errs, "minicodex, hostd") || strings.Contains(errs, "[minicodex") {
			t.Errorf("%v: exit %d, %q: want a usage error listing the dialects as 'minicodex, hostd, …'", args, code, errs)
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"rules", "--help"}, &out, &out); err != nil || strings.Contains(out.String(), "[minicodex") {
		t.Errorf("rules --help lists dialects as a Go slice: %v\n%s", err, out.String())
	}
}
