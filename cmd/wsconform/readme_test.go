package main

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The README marks each fenced ```sh block with an HTML comment on the
// line before it:
//
//	<!-- runnable: exit N -->          every command in the block is run and must exit N
//	<!-- not run by the README test: why -->
//
// A runnable block's commands run one by one against the embedded
// reference server (no network beyond loopback), with `go run
// ./cmd/wsconform` and `go run ./cmd/wsproxy` replaced by binaries built
// once, in a scratch directory that sees the repository's files, so
// reports land there and not in the checkout. A failing command's
// trailing "# comment" is what it prints (up to a "…").
var (
	runnableMark = regexp.MustCompile(`^<!-- runnable: exit (\d+) -->$`)
	notRunMark   = regexp.MustCompile(`^<!-- not run by the README test: .+ -->$`)
)

// readmeCommandTimeout bounds each command; the slowest, the whole suite
// against the reference, takes about 8 s on two idle cores.
const readmeCommandTimeout = 3 * time.Minute

type readmeBlock struct {
	line     int // of the fence
	runnable bool
	exit     int
	commands []string
}

// readmeBlocks returns every ```sh block of README.md with its mark; a
// block without one is an error: every command the README shows is
// either run by this test or says why not.
func readmeBlocks(t *testing.T, path string) []readmeBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []readmeBlock
	var cur *readmeBlock
	prev, n := "", 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```sh":
			b := readmeBlock{line: n}
			if m := runnableMark.FindStringSubmatch(strings.TrimSpace(prev)); m != nil {
				b.runnable = true
				b.exit, _ = strconv.Atoi(m[1])
			} else if !notRunMark.MatchString(strings.TrimSpace(prev)) {
				t.Errorf("README.md:%d: a ```sh block without <!-- runnable: exit N --> or <!-- not run by the README test: why --> on the line before", n)
			}
			cur = &b
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cmd := strings.TrimSpace(line)
			if cmd == "" || strings.HasPrefix(cmd, "#") {
				continue
			}
			if k := len(cur.commands); k > 0 && strings.HasSuffix(cur.commands[k-1], `\`) {
				cur.commands[k-1] = strings.TrimSuffix(cur.commands[k-1], `\`) + " " + cmd
				continue
			}
			cur.commands = append(cur.commands, cmd)
		}
		if strings.TrimSpace(line) != "" {
			prev = strings.TrimSpace(line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// goRun matches the ways the README starts a command.
var goRun = regexp.MustCompile(`(^|[;&|(]\s*)go run \./cmd/(wsconform|wsproxy)\b`)

func TestREADMEExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the README's commands take about 20 s")
	}
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeBlocks(t, filepath.Join(root, "README.md"))
	var runnable []readmeBlock
	for _, b := range blocks {
		if b.runnable {
			runnable = append(runnable, b)
		}
	}
	if len(runnable) < 5 {
		t.Fatalf("only %d runnable blocks in README.md: the main job, validate, the mistakes and the dead target at least", len(runnable))
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./cmd/wsconform", "./cmd/wsproxy")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := scratch(t, root)
	for _, b := range runnable {
		for _, c := range b.commands {
			cmdline := goRun.ReplaceAllString(c, "${1}${2}")
			t.Run(strconv.Itoa(b.line)+": "+c, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), readmeCommandTimeout)
				defer cancel()
				cmd := exec.CommandContext(ctx, "sh", "-c", cmdline)
				cmd.Dir = work
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1", "GITHUB_STEP_SUMMARY=")
				out, err := cmd.CombinedOutput()
				code := 0
				var ee *exec.ExitError
				switch {
				case ctx.Err() != nil:
					t.Fatalf("README.md:%d: %s ran past %s\n%s", b.line, c, readmeCommandTimeout, out)
				case errors.As(err, &ee):
					code = ee.ExitCode()
				case err != nil:
					t.Fatalf("README.md:%d: %s: %v", b.line, c, err)
				}
				if code != b.exit {
					t.Errorf("README.md:%d: %s exited %d, the README says %d\n%s", b.line, c, code, b.exit, tail(string(out), 30))
				}
				// a failing command's comment quotes what it prints
				if _, comment, ok := strings.Cut(c, " # "); ok && b.exit != 0 {
					quote, _, _ := strings.Cut(strings.TrimSpace(comment), "…")
					if !strings.Contains(string(out), quote) {
						t.Errorf("README.md:%d: %s does not print %q:\n%s", b.line, c, quote, out)
					}
				}
			})
		}
	}
}

// scratch is a directory whose entries link to the repository's, so a
// command reads the repository's files and writes its own next to them.
func scratch(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == ".git" {
			continue
		}
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"…"}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// TestREADMEGoVersion: the Go version the README asks for is go.mod's.
func TestREADMEGoVersion(t *testing.T) {
	t.Parallel()
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range regexp.MustCompile(`Go (1\.\d+(?:\.\d+)?) or newer`).FindAllSubmatch(readme, -1) {
		if string(v[1]) != string(m[1]) {
			t.Errorf("README.md says Go %s or newer, go.mod says go %s", v[1], m[1])
		}
	}
	if !strings.Contains(string(readme), "Go "+string(m[1])+" or newer") {
		t.Errorf("README.md does not say which Go it needs (Go %s or newer)", m[1])
	}
	for _, ref := range regexp.MustCompile(`\]\((\.\./[^)]*)\)|(\.\./shared/\S+)`).FindAllString(string(readme), -1) {
		t.Errorf("README.md points outside the repository: %s", ref)
	}
}
