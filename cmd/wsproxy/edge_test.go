package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func wsproxy(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := exitCode(run(context.Background(), args, &out, &errb), &errb)
	return code, out.String(), errb.String()
}

// TestEdgeCases: each mistake gets one clear line and exit 2, before the
// proxy listens (so a report path is not found wrong at Ctrl-C).
func TestEdgeCases(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope", "r.html")
	tests := []struct {
		name string
		args []string
		want string
		not  string
	}{
		{"upstream as an argument", []string{"ws://127.0.0.1:7337"}, "wsproxy --upstream ws://127.0.0.1:7337", "unexpected argument"},
		{"upstream without a scheme", []string{"--upstream", "127.0.0.1:7337"}, "upstreams are ws:// or wss:// URLs", "first path segment"},
		{"html in a missing directory", []string{"--upstream", "ws://127.0.0.1:1", "--html", missing}, "does not exist", "listening"},
		{"markdown in a missing directory", []string{"--upstream", "ws://127.0.0.1:1", "--markdown", missing}, "does not exist", "listening"},
		{"json is a directory", []string{"--upstream", "ws://127.0.0.1:1", "--json", dir}, "is a directory", "listening"},
		{"junit in a missing directory", []string{"--upstream", "ws://127.0.0.1:1", "--junit", missing}, "--junit", "listening"},
		{"recording in a missing directory", []string{"--upstream", "ws://127.0.0.1:1", "--record", missing}, "--record", "listening"},
		{"seed not a number", []string{"--upstream", "ws://127.0.0.1:1", "--seed", "x"}, `--seed "x": not a whole number`, "strconv"},
		{"timeout not a duration", []string{"--upstream", "ws://127.0.0.1:1", "--idle-timeout", "5"}, `--idle-timeout "5": not a duration`, "time:"},
		{"completion of an unknown shell", []string{"completion", "tcsh"}, `unknown shell "tcsh"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := wsproxy(tt.args...)
			if code != exitUsage || !strings.Contains(errs, tt.want) || (tt.not != "" && strings.Contains(out+errs, tt.not)) {
				t.Errorf("exit %d (want %d), want %q (not %q):\nstdout: %s\nstderr: %s", code, exitUsage, tt.want, tt.not, out, errs)
			}
			if lines := strings.Split(strings.TrimSpace(errs), "\n"); len(lines) != 2 {
				t.Errorf("want one line and the --help hint:\n%s", errs)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	code, out, _ := wsproxy("--version")
	if code != exitOK || !strings.HasPrefix(out, "wsproxy ") || !strings.Contains(out, " commit ") || !strings.Contains(out, runtime.Version()) {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// TestCompletion: the scripts name every flag wsproxy parses, and the
// shells parse them.
func TestCompletion(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, out, errs := wsproxy("completion", shell)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", shell, code, errs)
		}
		var o options
		newFlagSet(&o).VisitAll(func(f *pflag.Flag) {
			want := "--" + f.Name
			if shell == "fish" {
				want = "-l " + f.Name
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s script lacks %s", shell, want)
			}
		})
		bin, err := exec.LookPath(shell)
		if err != nil {
			if shell == "bash" {
				t.Fatal("bash is needed to check the bash completion")
			}
			t.Logf("%s not installed: not parsed", shell)
			continue
		}
		file := filepath.Join(t.TempDir(), "c."+shell)
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		flag := "-n"
		if shell == "fish" {
			flag = "--no-execute"
		}
		if b, err := exec.Command(bin, flag, file).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse its script: %v\n%s", shell, err, b)
		}
	}
}
