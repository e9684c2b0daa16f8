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
	file     string // README.md or docs/PAGE.md
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
	name := filepath.Base(path)
	if filepath.Base(filepath.Dir(path)) == "docs" {
		name = "docs/" + name
	}
	prev, n := "", 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```sh":
			b := readmeBlock{file: name, line: n}
			if m := runnableMark.FindStringSubmatch(strings.TrimSpace(prev)); m != nil {
				b.runnable = true
				b.exit, _ = strconv.Atoi(m[1])
			} else if !notRunMark.MatchString(strings.TrimSpace(prev)) {
				t.Errorf("%s:%d: a ```sh block without <!-- runnable: exit N --> or <!-- not run by the README test: why --> on the line before", name, n)
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
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(pages) < 10 {
		t.Fatalf("docs/*.md: %d pages (%v): the per-command pages are missing", len(pages), err)
	}
	for _, p := range pages {
		blocks = append(blocks, readmeBlocks(t, p)...)
	}
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
					t.Fatalf("%s:%d: %s ran past %s\n%s", b.file, b.line, c, readmeCommandTimeout, out)
				case errors.As(err, &ee):
					code = ee.ExitCode()
				case err != nil:
					t.Fatalf("%s:%d: %s: %v", b.file, b.line, c, err)
				}
				if code != b.exit {
					t.Errorf("%s:%d: %s exited %d, the README says %d\n%s", b.file, b.line, c, code, b.exit, tail(string(out), 30))
				}
				// a failing command's comment quotes what it prints
				if _, comment, ok := strings.Cut(c, " # "); ok && b.exit != 0 {
					quote, _, _ := strings.Cut(strings.TrimSpace(comment), "…")
					if !strings.Contains(string(out), quote) {
						t.Errorf("%s:%d: %s does not print %q:\n%s", b.file, b.line, c, quote, out)
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

// TestDocsLinks: every relative link of the README and of docs/*.md
// names a file of the repository (the pages moved out of the README, so
// their links to each other and to the code must still resolve), and the
// README stays a newcomer's page: at most about 250 lines.
func TestDocsLinks(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	for _, p := range append([]string{filepath.Join(root, "README.md")}, pages...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(p) == "README.md" {
			if n := strings.Count(string(b), "\n"); n > 260 {
				t.Errorf("README.md has %d lines: the reference belongs in docs/, the README stays short", n)
			}
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(p), target)); err != nil {
				rel, _ := filepath.Rel(root, p)
				t.Errorf("%s links %s, which does not exist", rel, target)
			}
		}
	}
}
