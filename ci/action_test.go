package ci

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The CI files are tested as they run: their shell steps, in a scratch
// directory, on a PATH that has Go and the base system but no wsconform
// (onlyGo), with GitHub's or GitLab's variables set by hand. Steps that
// use another action (checkout, setup-go, upload-artifact) are not run;
// what they upload is checked to exist.

// ghStep is one step of a workflow job or a composite action.
type ghStep struct {
	Name, Run, If, Uses, Shell string
	Env, With                  map[string]string
}

func stepsOf(t *testing.T, list any) []ghStep {
	t.Helper()
	items, _ := list.([]any)
	var out []ghStep
	for _, it := range items {
		m, _ := it.(map[string]any)
		st := ghStep{Env: strMap(m["env"]), With: strMap(m["with"])}
		st.Name, _ = m["name"].(string)
		st.Run, _ = m["run"].(string)
		st.If, _ = m["if"].(string)
		st.Uses, _ = m["uses"].(string)
		st.Shell, _ = m["shell"].(string)
		out = append(out, st)
	}
	return out
}

func strMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	out := map[string]string{}
	for k, x := range m {
		out[k] = fmt.Sprint(x)
	}
	return out
}

var expr = regexp.MustCompile(`\$\{\{\s*([a-z_]+)\.([A-Za-z_][\w-]*)\s*\}\}`)

// ghRunner runs GitHub steps: expressions from inputs, env and runner.
type ghRunner struct {
	t       *testing.T
	dir     string // working directory
	inputs  map[string]string
	env     map[string]string // workflow env and GitHub's variables
	path    string
	outputs string
}

func newGHRunner(t *testing.T, inputs map[string]string) *ghRunner {
	t.Helper()
	root := t.TempDir()
	r := &ghRunner{t: t, dir: filepath.Join(root, "work"), inputs: inputs, path: onlyGo(t), env: map[string]string{}}
	for _, d := range []string{r.dir, filepath.Join(root, "temp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.env["RUNNER_TEMP"] = filepath.Join(root, "temp")
	r.env["GITHUB_PATH"] = filepath.Join(root, "github_path")
	r.env["GITHUB_OUTPUT"] = filepath.Join(root, "github_output")
	r.env["GITHUB_STEP_SUMMARY"] = filepath.Join(root, "step_summary.md")
	r.env["GITHUB_WORKSPACE"] = r.dir
	r.env["CI"] = "true"
	return r
}

func (r *ghRunner) expand(s string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		p := expr.FindStringSubmatch(m)
		switch p[1] {
		case "inputs":
			return r.inputs[p[2]]
		case "env":
			return r.env[p[2]]
		case "runner":
			if p[2] == "temp" {
				return r.env["RUNNER_TEMP"]
			}
		case "github":
			if p[2] == "action_path" {
				return r.env["GITHUB_ACTION_PATH"]
			}
		}
		r.t.Fatalf("expression %s: not simulated", m)
		return ""
	})
}

// run runs one step's shell text and returns its exit code and output.
func (r *ghRunner) run(st ghStep) (int, string) {
	r.t.Helper()
	script := r.expand(st.Run)
	shell := []string{"bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script}
	if st.Shell == "sh" {
		shell = []string{"sh", "-e", "-c", script}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell[0], shell[1:]...)
	cmd.Dir = r.dir
	env := filteredEnv("PATH", "WSCONFORM", "GOFLAGS")
	for k, v := range r.env {
		env = append(env, k+"="+v)
	}
	for k, v := range st.Env {
		env = append(env, k+"="+r.expand(v))
	}
	cmd.Env = append(env, "PATH="+r.extraPath()+r.path)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatalf("step %q: %v", st.Name, err)
	}
	return code, string(out)
}

// extraPath is what steps appended to $GITHUB_PATH, first.
func (r *ghRunner) extraPath() string {
	b, err := os.ReadFile(r.env["GITHUB_PATH"])
	if err != nil {
		return ""
	}
	var out string
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			out = line + string(os.PathListSeparator) + out
		}
	}
	return out
}

func (r *ghRunner) output(name string) string {
	b, _ := os.ReadFile(r.env["GITHUB_OUTPUT"])
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+"="); ok {
			return v
		}
	}
	return ""
}

// runAction runs a composite action's steps, as GitHub does: a failed step
// skips the rest but those with if: always(); inputs get their defaults.
func runAction(t *testing.T, dir string, inputs map[string]string) (*ghRunner, int, []ghStep) {
	t.Helper()
	needDebianPython(t, "yaml", installYAML)
	doc := loadYAML(t, filepath.Join(dir, "action.yml"))
	in, _ := doc["inputs"].(map[string]any)
	all := map[string]string{}
	for name, v := range in {
		spec, _ := v.(map[string]any)
		if d, ok := spec["default"]; ok {
			all[name] = fmt.Sprint(d)
		}
		if req, _ := spec["required"].(bool); req && inputs[name] == "" {
			t.Fatalf("input %s is required", name)
		}
	}
	for k, v := range inputs {
		if _, known := in[k]; !known {
			t.Fatalf("input %s is not declared by %s/action.yml", k, dir)
		}
		all[k] = v
	}
	runs, _ := doc["runs"].(map[string]any)
	if runs["using"] != "composite" {
		t.Fatalf("%s: runs.using = %v, want composite", dir, runs["using"])
	}
	r := newGHRunner(t, all)
	abs, _ := filepath.Abs(dir)
	r.env["GITHUB_ACTION_PATH"] = abs
	steps := stepsOf(t, runs["steps"])
	failed := 0
	for _, st := range steps {
		always := strings.Contains(st.If, "always()")
		if failed != 0 && !always {
			continue
		}
		if st.Uses != "" {
			continue // checked by the caller
		}
		if st.Shell == "" {
			t.Errorf("%s: step %q has no shell (a composite run step needs one)", dir, st.Name)
		}
		code, out := r.run(st)
		t.Logf("step %q: exit %d\n%s", st.Name, code, tailLines(out, 15))
		if code != 0 && failed == 0 {
			failed = code
		}
	}
	return r, failed, steps
}

// checkUploads checks that every upload-artifact step runs always and
// that the files it uploads exist.
func checkUploads(t *testing.T, r *ghRunner, steps []ghStep) {
	t.Helper()
	n := 0
	for _, st := range steps {
		if !strings.HasPrefix(st.Uses, "actions/upload-artifact@") {
			continue
		}
		n++
		if !strings.Contains(st.If, "always()") {
			t.Errorf("upload step %q: if %q, want always() (reports are most needed when it fails)", st.Name, st.If)
		}
		for _, p := range strings.Fields(r.expand(st.With["path"])) {
			if fi, err := os.Stat(filepath.Join(r.dir, p)); err != nil || fi.Size() == 0 {
				t.Errorf("upload step %q: %s was not written: %v", st.Name, p, err)
			}
		}
	}
	if n == 0 {
		t.Error("no upload-artifact step: the reports are lost when the job ends")
	}
}

// TestGateAction runs ci/github/gate as GitHub would, on a good and a bad
// client: the verdict output, exit code, step summary and reports.
func TestGateAction(t *testing.T) {
	node := needNodeWS(t)
	for _, tc := range []struct {
		script, verdict string
		fails           bool
	}{{"examples/node/good.js", "passed", false}, {"examples/node/bad.js", "failed", true}} {
		abs, _ := filepath.Abs(tc.script)
		r, code, steps := runAction(t, "github/gate", map[string]string{"dialect": "minicodex", "faults": "drop-after=8",
			"command": node + " " + abs, "args": "--color never"})
		if (code != 0) != tc.fails || r.output("verdict") != tc.verdict {
			t.Errorf("%s: exit %d, verdict %q; want failure %v, verdict %q", tc.script, code, r.output("verdict"), tc.fails, tc.verdict)
		}
		checkUploads(t, r, steps)
		sum, err := os.ReadFile(r.env["GITHUB_STEP_SUMMARY"])
		if err != nil || !strings.Contains(string(sum), "wsconform") {
			t.Errorf("%s: no step summary: %v %q", tc.script, err, sum)
		}
	}
}

// TestServerAction runs ci/github/server against a reference server the
// test starts, for one shard of a 2-way split.
func TestServerAction(t *testing.T) {
	bin := wsconformBin(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve", "--dialect", "minicodex", "--listen", "127.0.0.1:0")
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = srv.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := regexp.MustCompile(`"minicodex":\["([^"]+)"`).FindStringSubmatch(line)
	if url == nil {
		t.Fatalf("serve printed no minicodex endpoint: %s", line)
	}
	r, code, steps := runAction(t, "github/server", map[string]string{"dialect": "minicodex", "target": url[1],
		"shard": "1/2", "args": "--tags @id:minicodex.connect.hello-welcome-snapshot,@id:minicodex.send.turn --color never"})
	if code != 0 || r.output("verdict") != "passed" {
		t.Errorf("server action: exit %d, verdict %q; want 0, passed", code, r.output("verdict"))
	}
	checkUploads(t, r, steps)
	b, err := os.ReadFile(filepath.Join(r.dir, "wsconform-reports", "report.json"))
	if err != nil || !strings.Contains(string(b), `"shard": "1/2"`) {
		t.Errorf("the report is not shard 1/2: %v", err)
	}
}

// TestGitHubWorkflowSteps runs the copy-paste workflow's install and gate
// steps on a machine with only Go: the install fetches this repository at
// its HEAD (standing in for WSCONFORM_REPO at WSCONFORM_REF) and builds it.
func TestGitHubWorkflowSteps(t *testing.T) {
	node := needNodeWS(t)
	needDebianPython(t, "yaml", installYAML)
	doc := loadYAML(t, "github/wsconform-gate.yml")
	r := newGHRunner(t, nil)
	for k, v := range strMap(doc["env"]) {
		r.env[k] = v
	}
	r.env["WSCONFORM_REPO"], r.env["WSCONFORM_REF"] = repoRoot(t), "HEAD"
	good, _ := filepath.Abs("examples/node/good.js")
	writeNPMProject(t, r.dir, node+" "+good)
	jobs, _ := doc["jobs"].(map[string]any)
	job, _ := jobs["gate"].(map[string]any)
	ran := 0
	for _, st := range stepsOf(t, job["steps"]) {
		if st.Run == "" || strings.TrimSpace(st.Run) == "npm ci" {
			continue // other actions, and the client's own toolchain
		}
		code, out := r.run(st)
		if code != 0 {
			t.Fatalf("step %q: exit %d\n%s", st.Name, code, tailLines(out, 30))
		}
		ran++
	}
	if ran < 2 {
		t.Fatalf("ran %d shell steps, want install and gate", ran)
	}
	for _, f := range []string{"report.html", "junit.xml", "report.json"} {
		if fi, err := os.Stat(filepath.Join(r.dir, r.env["WSCONFORM_REPORTS"], f)); err != nil || fi.Size() == 0 {
			t.Errorf("the workflow did not write %s: %v", f, err)
		}
	}
}

// TestGitLabJobSteps runs the GitLab job's install (before_script, without
// the client's apt and npm lines) and script on a machine with only Go.
func TestGitLabJobSteps(t *testing.T) {
	node := needNodeWS(t)
	needDebianPython(t, "yaml", installYAML)
	doc := loadYAML(t, "gitlab/wsconform-gate.gitlab-ci.yml")
	job, _ := doc["wsconform-gate"].(map[string]any)
	vars := strMap(job["variables"])
	vars["WSCONFORM_REPO"], vars["WSCONFORM_REF"] = repoRoot(t), "HEAD"
	var lines []string
	for _, part := range []string{"before_script", "script"} {
		list, _ := job[part].([]any)
		for _, l := range list {
			s := fmt.Sprint(l)
			if strings.Contains(s, "apt-get") || strings.TrimSpace(s) == "npm ci" {
				continue
			}
			lines = append(lines, s)
		}
	}
	scratch := t.TempDir()
	script := strings.ReplaceAll(strings.Join(lines, "\n"), "/tmp/", scratch+"/")
	good, _ := filepath.Abs("examples/node/good.js")
	work := filepath.Join(scratch, "work")
	writeNPMProject(t, work, node+" "+good)
	cmd := exec.Command("sh", "-e", "-c", script)
	cmd.Dir = work
	env := append(filteredEnv("PATH", "WSCONFORM"), "PATH="+onlyGo(t), "CI=true")
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the GitLab job: %v\n%s", err, tailLines(string(out), 30))
	}
	for _, f := range []string{"report.html", "junit.xml", "report.json"} {
		if fi, err := os.Stat(filepath.Join(work, vars["WSCONFORM_REPORTS"], f)); err != nil || fi.Size() == 0 {
			t.Errorf("the job did not write %s: %v", f, err)
		}
	}
}

// TestReleaseSnapshot builds a snapshot release for this machine's
// platform: the archive, its checksum, and a binary that says its version
// and commit.
func TestReleaseSnapshot(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a release build compiles both commands from scratch")
	}
	out := t.TempDir()
	cmd := exec.Command("sh", "release.sh", "--snapshot", "--out", out, "--target", "linux/amd64")
	cmd.Env = append(filteredEnv("PATH"), "PATH="+onlyGo(t))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release.sh --snapshot: %v\n%s", err, b)
	}
	archives, _ := filepath.Glob(filepath.Join(out, "wsconform_*_linux_amd64.tar.gz"))
	if len(archives) != 1 {
		t.Fatalf("archives %v, want one for linux/amd64", archives)
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil || !strings.Contains(string(sums), filepath.Base(archives[0])) {
		t.Fatalf("SHA256SUMS does not list the archive: %v %s", err, sums)
	}
	if b, err := exec.Command("tar", "-xzf", archives[0], "-C", out).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v %s", err, b)
	}
	name := strings.TrimSuffix(filepath.Base(archives[0]), ".tar.gz")
	version := strings.TrimPrefix(strings.TrimSuffix(name, "_linux_amd64"), "wsconform_")
	head, _ := exec.Command("git", "-C", repoRoot(t), "rev-parse", "--short=12", "HEAD").Output()
	for _, bin := range []string{"wsconform", "wsproxy"} {
		b, err := exec.Command(filepath.Join(out, name, bin), "--version").CombinedOutput()
		if err != nil || !strings.Contains(string(b), version) || !strings.Contains(string(b), strings.TrimSpace(string(head))) {
			t.Errorf("%s --version: %q (%v), want version %s and commit %s", bin, b, err, version, head)
		}
	}
}

// writeNPMProject writes a client project whose `npm test` runs command.
func writeNPMProject(t *testing.T, dir, command string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	pkg := fmt.Sprintf(`{"name": "client", "private": true, "scripts": {"test": %q}}`, command)
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644); err != nil {
		t.Fatal(err)
	}
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
