package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestCompletion: each shell's script is generated from the flag sets the
// commands parse (every flag of every command is in it) and the shell
// parses it (bash -n; zsh -n and fish -n where installed).
func TestCompletion(t *testing.T) {
	t.Parallel()
	sets := flagSets(context.Background())
	if len(sets) != len(commands()) {
		t.Fatalf("%d flag sets for %d commands", len(sets), len(commands()))
	}
	n := 0
	for _, c := range sets {
		c.Flags.VisitAll(func(*pflag.Flag) { n++ })
	}
	if n < 60 {
		t.Fatalf("only %d flags collected: a command does not hand its flag set over", n)
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			code, out, errs := wsconform(t, "completion", shell)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, c := range sets {
				if !strings.Contains(out, c.Name) {
					t.Errorf("%s script lacks the command %s", shell, c.Name)
				}
				c.Flags.VisitAll(func(f *pflag.Flag) {
					want := "--" + f.Name
					if shell == "fish" {
						want = "-l " + f.Name
					}
					if !strings.Contains(out, want) {
						t.Errorf("%s script lacks %s of %s", shell, want, c.Name)
					}
				})
			}
			parses(t, shell, out)
		})
	}
}

// parses checks the script with the shell's own parser; a shell that is
// not installed is skipped, except bash, which every CI machine has.
func parses(t *testing.T, shell, script string) {
	t.Helper()
	bin, err := exec.LookPath(shell)
	if err != nil {
		if shell == "bash" {
			t.Fatalf("bash is needed to check the bash completion: %v", err)
		}
		t.Skipf("%s is not installed (apt-get install %s)", shell, shell)
	}
	file := filepath.Join(t.TempDir(), "completion."+shell)
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-n", file}
	if shell == "fish" {
		args = []string{"--no-execute", file}
	}
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Errorf("%s does not parse the script: %v\n%s", shell, err, out)
	}
}

// TestBashCompletionCompletes loads the bash script and asks it what a
// user gets for "wsconform ru<TAB>", "wsconform run --dia<TAB>" and
// "wsconform run --dialect m<TAB>".
func TestBashCompletionCompletes(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	_, script, _ := wsconform(t, "completion", "bash")
	file := filepath.Join(t.TempDir(), "c.bash")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for line, want := range map[string]string{
		"wsconform ru":               "run",
		"wsconform run --dia":        "--dialect",
		"wsconform run --dialect mi": "minicodex mitto",
		"wsconform run -":            "--quiet",
		"wsconform gate --color a":   "auto always",
		"wsconform validate --ma":    "--max-frame --markdown",
	} {
		words := strings.Fields(line)
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		prog := `source "$1"; COMP_WORDS=(` + shellJoin(words) + `); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _wsconform; echo "${COMPREPLY[*]}"`
		out, err := exec.Command("bash", "-c", prog, "bash", file).CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("%q completes to %q (%v), want %q", line, out, err, want)
		}
	}
}
