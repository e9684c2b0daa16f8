package ci

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// The interpreters the checks use. Debian's python3 is named by path: its
// python3-yaml and python3-websockets are not visible to another python3
// (a pyenv one) that may come first on PATH.
const debianPython = "/usr/bin/python3"

// Install steps named by the failures, so that a missing tool says how to
// get it (.ci/run does the same).
const (
	installYAML       = "apt-get install python3-yaml"
	installWebsockets = "apt-get install python3-websockets"
	installWS         = "npm ci --no-audit --no-fund (in ci/examples/node)"
	installNode       = "apt-get install nodejs npm"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildBin  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// wsconformBin builds cmd/wsconform once for every test of the package.
func wsconformBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "wsconform-ci-test-")
		if buildErr != nil {
			return
		}
		buildBin = filepath.Join(buildDir, "wsconform")
		cmd := exec.Command("go", "build", "-o", buildBin, "./cmd/wsconform")
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/wsconform: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildBin
}

// repoRoot is the module root; the test runs in ci/.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod above ci/: %v", err)
	}
	return root
}

// ciFiles lists the files under ci/ (not installed dependencies) whose name
// matches one of the patterns.
func ciFiles(t *testing.T, patterns ...string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "__pycache__") {
			return filepath.SkipDir
		}
		for _, p := range patterns {
			if ok, _ := filepath.Match(p, d.Name()); ok && !d.IsDir() {
				out = append(out, path)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// missing reports a tool or package a test needs that is not installed. On
// CI (CI set, as .ci/run runs) that fails the test: .ci/run installs
// everything, so a missing piece is a bug of the CI script. On a developer's
// machine the test is skipped with the command that installs it, so that
// `go test ./...` passes on a fresh clone with only Go.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf("skipped: "+format+" (.ci/run installs it; CI runs this test)", args...)
}

func needDebianPython(t *testing.T, module, install string) {
	t.Helper()
	if _, err := os.Stat(debianPython); err != nil {
		missing(t, "%s is missing (Debian's python3): apt-get install python3 %s", debianPython, strings.TrimPrefix(install, "apt-get install "))
	}
	if out, err := exec.Command(debianPython, "-c", "import "+module).CombinedOutput(); err != nil {
		missing(t, "%s cannot import %s (%v: %s): install it with `%s`", debianPython, module, err, bytes.TrimSpace(out), install)
	}
}

// loadYAML parses a YAML file with PyYAML's safe_load and returns it as
// decoded JSON.
func loadYAML(t *testing.T, path string) map[string]any {
	t.Helper()
	const prog = `import json, sys, yaml
json.dump(yaml.safe_load(open(sys.argv[1], encoding="utf-8")), sys.stdout)`
	var stderr bytes.Buffer
	cmd := exec.Command(debianPython, "-c", prog, path)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s does not parse as YAML: %v\n%s", path, err, stderr.String())
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%s: YAML is not a mapping: %v", path, err)
	}
	return doc
}

func TestYAMLParses(t *testing.T) {
	needDebianPython(t, "yaml", installYAML)
	files := ciFiles(t, "*.yml", "*.yaml")
	if len(files) < 2 {
		t.Fatalf("found %d YAML files under ci/, want the GitHub and GitLab ones: %v", len(files), files)
	}
	for _, f := range files {
		loadYAML(t, f)
	}
}

func TestGitHubWorkflow(t *testing.T) {
	needDebianPython(t, "yaml", installYAML)
	doc := loadYAML(t, "github/wsconform-gate.yml")
	// YAML 1.1 reads the key `on` as true; GitHub reads it as "on".
	if doc["on"] == nil && doc["true"] == nil {
		t.Error("workflow has no `on:` triggers")
	}
	jobs, _ := doc["jobs"].(map[string]any)
	if len(jobs) == 0 {
		t.Fatal("workflow has no jobs")
	}
	var uses []string
	var sawUpload, sawGate bool
	for name, j := range jobs {
		job, _ := j.(map[string]any)
		if job["runs-on"] == nil {
			t.Errorf("job %s has no runs-on", name)
		}
		steps, _ := job["steps"].([]any)
		for _, s := range steps {
			step, _ := s.(map[string]any)
			u, _ := step["uses"].(string)
			if u != "" {
				uses = append(uses, u)
				if !regexp.MustCompile(`^[\w.-]+/[\w.-]+(/[\w./-]+)?@[\w.-]+$`).MatchString(u) {
					t.Errorf("step uses %q: not owner/repo@ref", u)
				}
			}
			if strings.HasPrefix(u, "actions/upload-artifact@") {
				sawUpload = true
				if step["if"] != "always()" {
					t.Errorf("upload-artifact step has if: %v, want always() (reports are most needed when the gate fails)", step["if"])
				}
				with, _ := step["with"].(map[string]any)
				path, _ := with["path"].(string)
				for _, want := range []string{"report.html", "junit.xml"} {
					if !strings.Contains(path, want) {
						t.Errorf("upload-artifact path %q does not upload %s", path, want)
					}
				}
			}
			if run, _ := step["run"].(string); strings.Contains(run, "wsconform gate") {
				sawGate = true
			}
		}
	}
	for _, want := range []string{"actions/checkout@", "actions/setup-go@", "actions/upload-artifact@"} {
		if !hasPrefix(uses, want) {
			t.Errorf("workflow does not use %s (uses %v)", want, uses)
		}
	}
	if !sawUpload || !sawGate {
		t.Errorf("workflow: upload step %v, gate step %v; want both", sawUpload, sawGate)
	}
}

func TestGitLabJob(t *testing.T) {
	needDebianPython(t, "yaml", installYAML)
	doc := loadYAML(t, "gitlab/wsconform-gate.gitlab-ci.yml")
	job, _ := doc["wsconform-gate"].(map[string]any)
	if job == nil {
		t.Fatal("no wsconform-gate job")
	}
	if s, _ := job["script"].([]any); len(s) == 0 {
		t.Fatal("job has no script")
	}
	art, _ := job["artifacts"].(map[string]any)
	if art["when"] != "always" {
		t.Errorf("artifacts.when = %v, want always", art["when"])
	}
	rep, _ := art["reports"].(map[string]any)
	if junit, _ := rep["junit"].(string); !strings.HasSuffix(junit, "junit.xml") {
		t.Errorf("artifacts.reports.junit = %v, want the gate's junit.xml", rep["junit"])
	}
	if paths, _ := art["paths"].([]any); len(paths) == 0 {
		t.Error("artifacts.paths is empty: the HTML report is not kept")
	}
}

// gateFlags returns the long flags `wsconform gate --help` lists.
func gateFlags(t *testing.T) (map[string]bool, string) {
	t.Helper()
	out, err := exec.Command(wsconformBin(t), "gate", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("wsconform gate --help: %v\n%s", err, out)
	}
	flags := map[string]bool{"help": true}
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(string(out), -1) {
		flags[m[1]] = true
	}
	if !flags["dialect"] || !flags["fault"] {
		t.Fatalf("wsconform gate --help lists no --dialect/--fault flag; cannot check:\n%s", out)
	}
	return flags, string(out)
}

// shellCommands returns the shell text a file runs: the run/script/
// before_script entries of a YAML file, the whole of a shell script, the
// sh code blocks of a Markdown file.
func shellCommands(t *testing.T, path string) []string {
	t.Helper()
	switch filepath.Ext(path) {
	case ".yml", ".yaml":
		var out []string
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					switch k {
					case "run", "script", "before_script", "after_script":
						switch x := x.(type) {
						case string:
							out = append(out, x)
						case []any:
							for _, s := range x {
								if s, ok := s.(string); ok {
									out = append(out, s)
								}
							}
						}
					default:
						walk(x)
					}
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(loadYAML(t, path))
		return out
	case ".md":
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return shellBlocks(string(b))
	default:
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return []string{string(b)}
	}
}

// shellBlocks returns the fenced code blocks of Markdown text that are
// shell (sh, bash, shell, console, or no language).
func shellBlocks(md string) []string {
	var out []string
	var block strings.Builder
	in, keep := false, false
	for _, line := range strings.Split(md, "\n") {
		fence := strings.HasPrefix(strings.TrimSpace(line), "```")
		switch {
		case fence && !in:
			lang := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "```"))
			in, keep = true, lang == "" || lang == "sh" || lang == "bash" || lang == "shell" || lang == "console"
			block.Reset()
		case fence && in:
			in = false
			if keep {
				out = append(out, block.String())
			}
		case in:
			block.WriteString(line + "\n")
		}
	}
	return out
}

// gateInvocation is one `wsconform gate` command line found in a file.
type gateInvocation struct {
	flags   []string // long flag names, without --
	dialect string
	command []string // after --
}

// findGateInvocations reads `wsconform gate` (or `"$wsconform" gate`, or
// gate.sh) command lines out of shell text.
func findGateInvocations(text string) []gateInvocation {
	text = strings.ReplaceAll(text, "\\\n", " ")
	var out []gateInvocation
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		toks := strings.Fields(line)
		for i := 0; i < len(toks); i++ {
			start := -1
			switch {
			case toks[i] == "gate" && i > 0 && strings.Contains(toks[i-1], "wsconform"):
				start = i + 1
			case strings.HasSuffix(toks[i], "gate.sh") && !strings.HasPrefix(line, "echo"):
				start = i + 1
			}
			if start < 0 {
				continue
			}
			var inv gateInvocation
			j := start
		flags:
			for ; j < len(toks); j++ {
				tok := strings.Trim(toks[j], `"'[]`)
				switch {
				case tok == "--":
					j++
					break flags
				case tok == "||" || tok == "&&" || tok == ";" || tok == "|":
					break flags
				case strings.HasPrefix(tok, "--"):
					name, val, hasVal := strings.Cut(tok[2:], "=")
					inv.flags = append(inv.flags, name)
					if name == "dialect" {
						if !hasVal && j+1 < len(toks) {
							val = strings.Trim(toks[j+1], `"'`)
						}
						inv.dialect = val
					}
				}
			}
			for ; j < len(toks); j++ {
				if toks[j] == "||" || toks[j] == "&&" || toks[j] == ";" {
					break
				}
				inv.command = append(inv.command, toks[j])
			}
			out = append(out, inv)
			i = j
		}
	}
	return out
}

func TestCommandsExist(t *testing.T) {
	needDebianPython(t, "yaml", installYAML)
	flags, help := gateFlags(t)

	files := append(ciFiles(t, "*.yml", "*.yaml", "*.sh"), "README.md")
	total := 0
	for _, f := range files {
		for _, text := range shellCommands(t, f) {
			checkNoGoInstall(t, f, text)
		}
		if strings.HasPrefix(f, "field"+string(filepath.Separator)) || noGate[filepath.ToSlash(f)] {
			continue // they gate nothing: field trials start real servers, stress.sh runs our own tests, …
		}
		var invs []gateInvocation
		for _, text := range shellCommands(t, f) {
			invs = append(invs, findGateInvocations(text)...)
		}
		if len(invs) == 0 {
			t.Errorf("%s runs no `wsconform gate` (or ci/gate.sh)", f)
		}
		total += len(invs)
		for _, inv := range invs {
			for _, fl := range inv.flags {
				if !flags[fl] {
					t.Errorf("%s: `wsconform gate --%s`: no such flag (wsconform gate --help lists %v)", f, fl, keys(flags))
				}
			}
			placeholder := inv.dialect == strings.ToUpper(inv.dialect) || strings.HasPrefix(inv.dialect, "$")
			if inv.dialect != "" && !placeholder && !strings.Contains(help, inv.dialect) {
				t.Errorf("%s: --dialect %s is not a dialect wsconform gate --help names", f, inv.dialect)
			}
			checkExampleCommand(t, f, inv.command)
		}
	}
	t.Logf("checked %d gate command lines in %d files", total, len(files))
}

// noGate are the CI files that run no gate: they install or build
// wsconform, test a server, or run our own tests.
var noGate = map[string]bool{"stress.sh": true, "install.sh": true, "release.sh": true, "github/server/action.yml": true}

// checkNoGoInstall: the module is not published on a Go module proxy, so
// `go install github.com/wsconform/…@version` fails on a fresh machine
// (the proxy answers 403): every CI file installs from a checkout instead.
func checkNoGoInstall(t *testing.T, file, text string) {
	t.Helper()
	if m := regexp.MustCompile(`go install\s+"?github\.com/wsconform/[^\s"]*@`).FindString(text); m != "" {
		t.Errorf("%s: %q: the module is not published, this fails on a fresh machine; build from a checkout (ci/install.sh)", file, m)
	}
}

// checkExampleCommand checks that a gate command that runs one of this
// repository's example clients names a file that exists.
func checkExampleCommand(t *testing.T, file string, command []string) {
	t.Helper()
	for _, arg := range command {
		if !strings.Contains(arg, "examples/") || strings.Contains(arg, "$") {
			continue
		}
		p := arg
		if i := strings.Index(p, "ci/examples/"); i >= 0 {
			p = p[i+len("ci/"):]
		} else if i := strings.Index(p, "examples/"); i >= 0 {
			p = p[i:]
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: the gate runs %s, which does not exist: %v", file, arg, err)
		}
	}
}

func TestGateShSyntax(t *testing.T) {
	if out, err := exec.Command("bash", "-n", "gate.sh").CombinedOutput(); err != nil {
		t.Fatalf("bash -n gate.sh: %v\n%s", err, out)
	}
	if out, err := exec.Command("sh", "-n", "gate.sh").CombinedOutput(); err != nil {
		t.Fatalf("sh -n gate.sh: %v\n%s", err, out)
	}
	if fi, err := os.Stat("gate.sh"); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("gate.sh is not executable (%v)", err)
	}
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		missing(t, "shellcheck is not installed: apt-get install shellcheck")
	}
	for _, f := range ciFiles(t, "*.sh") { // gate.sh and the field-trial scripts
		if out, err := exec.Command(sc, f).CombinedOutput(); err != nil {
			t.Errorf("shellcheck %s: %v\n%s", f, err, out)
		}
	}
}

func TestExamplesSyntax(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not installed: %s", installNode)
	}
	js := ciFiles(t, "*.js")
	if len(js) < 2 {
		t.Fatalf("found %d JavaScript files, want good.js and bad.js at least: %v", len(js), js)
	}
	for _, f := range js {
		if out, err := exec.Command(node, "--check", f).CombinedOutput(); err != nil {
			t.Errorf("node --check %s: %v\n%s", f, err, out)
		}
	}
	needDebianPython(t, "py_compile", "apt-get install python3")
	py := ciFiles(t, "*.py")
	if len(py) < 2 {
		t.Fatalf("found %d Python files, want good.py and bad.py at least: %v", len(py), py)
	}
	tmp := t.TempDir()
	for i, f := range py {
		// py_compile, with the bytecode written outside the source tree.
		prog := `import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)`
		if out, err := exec.Command(debianPython, "-c", prog, f, filepath.Join(tmp, fmt.Sprintf("%d.pyc", i))).CombinedOutput(); err != nil {
			t.Errorf("py_compile %s: %v\n%s", f, err, out)
		}
	}
}

// needNodeWS fails unless node and the example's npm dependencies are there.
func needNodeWS(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not installed: %s", installNode)
	}
	if _, err := os.Stat("examples/node/node_modules/ws/package.json"); err != nil {
		missing(t, "the npm package ws is not installed for the Node.js example: run %s", installWS)
	}
	return node
}

// gateRun is the outcome of one `wsconform gate` run.
type gateRun struct {
	code   int
	output string
	report reports.Report
}

func runGate(t *testing.T, bin string, args []string, env ...string) gateRun {
	t.Helper()
	jsonPath := filepath.Join(t.TempDir(), "report.json")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	full := append([]string{"gate", "--json", jsonPath, "--timeout", "90s", "--color", "never"}, args...)
	cmd := exec.CommandContext(ctx, bin, full...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	r := gateRun{output: string(out)}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("wsconform %s: %v\n%s", strings.Join(full, " "), err, out)
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatalf("wsconform %s (exit %d) wrote no JSON report: %v\n%s", strings.Join(full, " "), r.code, err, out)
	}
	if err := json.Unmarshal(b, &r.report); err != nil {
		t.Fatalf("JSON report does not decode as reports.Report: %v", err)
	}
	return r
}

// TestGateExamples is the end-to-end proof: the gate passes each good
// example client and fails each bad one with the finding that names its
// planted bug, while the bad client's own process exits 0.
func TestGateExamples(t *testing.T) {
	bin := wsconformBin(t)
	if out, err := exec.Command(bin, "gate", "--help").CombinedOutput(); err != nil {
		t.Fatalf("this wsconform has no gate command (%v):\n%s", err, out)
	}
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	cases := []struct {
		name    string
		dialect string
		fault   string
		client  []string
		want    int
		rule    string // the finding the bad client must get
		needs   func(t *testing.T) string
	}{
		{"node-good", "minicodex", "drop-after=8", []string{"node", abs("examples/node/good.js")}, 0, "", needNodeWS},
		{"node-bad", "minicodex", "drop-after=8", []string{"node", abs("examples/node/bad.js")}, 1, "minicodex.resume-unseen", needNodeWS},
		{"python-good", "myagent", "drop-after=10", []string{debianPython, abs("examples/python/good.py")}, 0, "", needWebsockets},
		{"python-bad", "myagent", "drop-after=10", []string{debianPython, abs("examples/python/bad.py")}, 1, "myagent.ack-unsent", needWebsockets},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.needs(t)
			args := append([]string{"--dialect", tc.dialect, "--fault", tc.fault, "--"}, tc.client...)
			r := runGate(t, bin, args)
			if r.code != tc.want {
				t.Fatalf("wsconform gate %s: exit %d, want %d\n%s", strings.Join(args, " "), r.code, tc.want, r.output)
			}
			checkGateReport(t, tc.dialect, tc.rule, r)
		})
	}
}

func needWebsockets(t *testing.T) string {
	t.Helper()
	needDebianPython(t, "websockets", installWebsockets)
	return debianPython
}

func checkGateReport(t *testing.T, dialect, rule string, r gateRun) {
	t.Helper()
	rep := r.report
	if rep.Format != reports.Format {
		t.Errorf("report format %q, want %q", rep.Format, reports.Format)
	}
	// The client's own process exited 0 in every case: a bad client's
	// verdict comes from its findings, not from a crash.
	var sawCommand bool
	for _, s := range rep.Scenarios {
		if s.ID == "gate.command" {
			sawCommand = true
			if s.Verdict != reports.Passed {
				t.Errorf("the client command failed (%s: %s); it must exit 0\n%s", s.Verdict, s.Reason, r.output)
			}
		}
	}
	if !sawCommand {
		t.Errorf("report has no gate.command scenario (the client command's outcome); scenarios: %+v", rep.Scenarios)
	}
	// The fault made the client reconnect: more than one connection, one
	// session.
	conns := 0
	var blamed []reports.Finding
	for _, s := range rep.Sessions {
		conns += len(s.Conns)
		if s.Dialect != dialect {
			t.Errorf("session %s judged as %s, want %s", s.ID, s.Dialect, dialect)
		}
		for _, f := range s.Findings {
			if f.Dir == wire.ClientToServer {
				blamed = append(blamed, f)
			}
		}
	}
	if conns < 2 {
		t.Errorf("%d connections: the fault did not make the client reconnect\n%s", conns, r.output)
	}
	if rule == "" {
		for _, f := range blamed {
			t.Errorf("finding on a client frame of the good client: %s %s: %s", f.Severity, f.Rule, f.Message)
		}
		if rep.Verdict != reports.Passed {
			t.Errorf("report verdict %s, want passed", rep.Verdict)
		}
		return
	}
	for _, f := range blamed {
		if f.Rule == rule && f.Severity.String() == "error" {
			return
		}
	}
	t.Errorf("no error finding %s on a client frame; client findings: %v\n%s", rule, findingRules(blamed), r.output)
}

func findingRules(fs []reports.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Severity.String()+" "+f.Rule)
	}
	return out
}

// TestGateSh runs ci/gate.sh around the Node.js examples with the binary
// built here, and checks its install step with a stand-in `go`.
func TestGateSh(t *testing.T) {
	bin := wsconformBin(t)
	needNodeWS(t)
	good, _ := filepath.Abs("examples/node/good.js")
	bad, _ := filepath.Abs("examples/node/bad.js")
	for _, tc := range []struct {
		script string
		want   int
	}{{good, 0}, {bad, 1}} {
		dir := filepath.Join(t.TempDir(), "reports")
		cmd := exec.Command("./gate.sh", "--dialect", "minicodex", "--fault", "drop-after=8", "--color", "never", "--", "node", tc.script)
		cmd.Env = append(os.Environ(), "WSCONFORM="+bin, "WSCONFORM_REPORTS="+dir)
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("gate.sh: %v", err)
		}
		if code != tc.want {
			t.Errorf("gate.sh ... node %s: exit %d, want %d\n%s", filepath.Base(tc.script), code, tc.want, out)
		}
		for _, f := range []string{"report.html", "junit.xml", "report.json"} {
			if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
				t.Errorf("gate.sh did not write %s: %v", f, err)
			}
		}
	}

	t.Run("build-from-checkout", func(t *testing.T) {
		// PATH holds go, git and the base system but no wsconform: gate.sh
		// must build one from the checkout it lives in (ci/install.sh).
		path := onlyGo(t)
		dir := filepath.Join(t.TempDir(), "reports")
		node, _ := exec.LookPath("node")
		cmd := exec.Command("./gate.sh", "--dialect", "minicodex", "--", node, good)
		cmd.Env = append(filteredEnv("PATH", "WSCONFORM"), "PATH="+path, "WSCONFORM_REPORTS="+dir, "TMPDIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("gate.sh building wsconform: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "building wsconform from the checkout") {
			t.Errorf("gate.sh did not say it built wsconform:\n%s", out)
		}
		if fi, err := os.Stat(filepath.Join(dir, "report.html")); err != nil || fi.Size() == 0 {
			t.Errorf("gate.sh did not write report.html: %v", err)
		}
	})
}

// onlyGo is a PATH with the Go toolchain and the base system (git, sh,
// tar) and no wsconform: a fresh CI machine that has only Go.
func onlyGo(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	goBin, _ = filepath.EvalSymlinks(goBin)
	path := filepath.Dir(goBin) + string(os.PathListSeparator) + "/usr/bin" + string(os.PathListSeparator) + "/bin"
	for _, d := range filepath.SplitList(path) {
		if _, err := os.Stat(filepath.Join(d, "wsconform")); err == nil {
			t.Fatalf("%s/wsconform exists: cannot test the install step", d)
		}
	}
	return path
}

func filteredEnv(drop ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, d := range drop {
			if name == d {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}

func firstLine(s string) string {
	sc := bufio.NewScanner(strings.NewReader(s))
	if sc.Scan() {
		return sc.Text()
	}
	return ""
}

func hasPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestFindGateInvocations checks the command-line reader the flag check
// relies on, so that a flag it misses cannot pass unnoticed.
func TestFindGateInvocations(t *testing.T) {
	text := "mkdir -p x\n" +
		"wsconform gate --dialect minicodex --fault drop-after=8 \\\n  --html \"$R/report.html\" --json=x.json \\\n  -- npm test --flag\n" +
		"# wsconform gate --commented\n" +
		"\"$wsconform\" gate --junit \"$r/junit.xml\" \"$@\" || code=$?\n" +
		"ci/gate.sh --dialect myagent --record r.jsonl -- /usr/bin/python3 ci/examples/python/good.py\n"
	got := findGateInvocations(text)
	want := []gateInvocation{
		{flags: []string{"dialect", "fault", "html", "json"}, dialect: "minicodex", command: []string{"npm", "test", "--flag"}},
		{flags: []string{"junit"}},
		{flags: []string{"dialect", "record"}, dialect: "myagent", command: []string{"/usr/bin/python3", "ci/examples/python/good.py"}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("findGateInvocations:\n got %v\nwant %v", got, want)
	}
}
