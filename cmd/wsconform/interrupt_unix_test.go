//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/exit"
	"github.com/wsconform/wsconform/reference/reftest"
)

// signalWait bounds each wait of these tests for the process: a bound
// against a hang, never a synchronisation (they wait for lines).
const signalWait = 2 * time.Minute

// TestInterruptProcess signals the real binary, as a user's Ctrl-C or a
// cancelled CI job does.
func TestInterruptProcess(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "wsconform")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Run("run", func(t *testing.T) { t.Parallel(); testInterruptRun(t, bin) })
	t.Run("gate", func(t *testing.T) { t.Parallel(); testInterruptGate(t, bin) })
	t.Run("gate, second signal", func(t *testing.T) { t.Parallel(); testSecondSignal(t, bin) })
}

// proc is the binary running with its output read line by line.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr chan string
	out, errs      strings.Builder // every line, once read
}

func startBinary(t *testing.T, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), stdout: make(chan string, 1024), stderr: make(chan string, 1024)}
	p.cmd.Env = append(os.Environ(), "NO_COLOR=1", "GITHUB_STEP_SUMMARY=")
	for _, pipe := range []struct {
		get func() (io.ReadCloser, error)
		ch  chan string
	}{{p.cmd.StdoutPipe, p.stdout}, {p.cmd.StderrPipe, p.stderr}} {
		r, err := pipe.get()
		if err != nil {
			t.Fatal(err)
		}
		go func(ch chan string) {
			defer close(ch)
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				ch <- sc.Text()
			}
		}(pipe.ch)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	return p
}

// waitLine reads ch until a line satisfies ok, and returns it.
func (p *proc) waitLine(t *testing.T, ch chan string, what string, ok func(string) bool) string {
	t.Helper()
	into := &p.out
	if ch == p.stderr {
		into = &p.errs
	}
	deadline := time.After(signalWait)
	for {
		select {
		case line, open := <-ch:
			if !open {
				t.Fatalf("the output ended before %s\nstdout:\n%s\nstderr:\n%s", what, p.out.String(), p.errs.String())
			}
			into.WriteString(line + "\n")
			if ok(line) {
				return line
			}
		case <-deadline:
			t.Fatalf("no %s within %s\nstdout:\n%s\nstderr:\n%s", what, signalWait, p.out.String(), p.errs.String())
		}
	}
}

// wait drains the output and returns how the process ended.
func (p *proc) wait(t *testing.T) *os.ProcessState {
	t.Helper()
	for _, c := range []struct {
		ch   chan string
		into *strings.Builder
	}{{p.stdout, &p.out}, {p.stderr, &p.errs}} {
		deadline := time.After(signalWait)
	drain:
		for {
			select {
			case line, open := <-c.ch:
				if !open {
					break drain
				}
				c.into.WriteString(line + "\n")
			case <-deadline:
				t.Fatalf("the process did not end within %s\nstdout:\n%s\nstderr:\n%s", signalWait, p.out.String(), p.errs.String())
			}
		}
	}
	err := p.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return p.cmd.ProcessState
}

// testInterruptRun: SIGINT while a scenario waits on the target, after two
// finished. The console, the exit code and every report say "interrupted
// by the user after 2 of 4 scenarios"; the two that finished keep
// "passed", the one in flight and the one never started are not-run, and
// nothing is called a harness error.
func testInterruptRun(t *testing.T, bin string) {
	held := make(chan struct{}, 1)
	url := reftest.HoldUpstream(t, func() {
		select {
		case held <- struct{}{}:
		default:
		}
	})
	dir := t.TempDir()
	js, h, j, md := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.md")
	p := startBinary(t, bin, "run", "--features", "testdata/interrupt", "--target", url+"/ws", "--concurrency", "1",
		"--color", "never", "--json", js, "--html", h, "--junit", j, "--markdown", md)
	passed := 0
	p.waitLine(t, p.stdout, "two passed scenarios", func(l string) bool {
		if strings.HasPrefix(l, "✓ passed") {
			passed++
		}
		return passed == 2
	})
	select {
	case <-held: // the third scenario waits on the server
	case <-time.After(signalWait):
		t.Fatalf("the held scenario never reached the server\n%s", p.out.String())
	}
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	st := p.wait(t)
	out := p.out.String()
	if st.ExitCode() != exit.Interrupted {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", st.ExitCode(), exit.Interrupted, out, p.errs.String())
	}
	for _, want := range []string{"INTERRUPTED  4 scenarios", "interrupted by the user after 2 of 4 scenarios: 2 scenarios were not run",
		"error  not run\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the console lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"✗", "harness error", "canceled", "could not run"} {
		if strings.Contains(out+p.errs.String(), bad) {
			t.Errorf("the console says %q:\nstdout:\n%s\nstderr:\n%s", bad, out, p.errs.String())
		}
	}
	if !strings.Contains(p.errs.String(), stopHint) {
		t.Errorf("stderr lacks the stop hint:\n%s", p.errs.String())
	}

	var rep struct {
		Verdict     string         `json:"verdict"`
		Counts      map[string]int `json:"counts"`
		Interrupted string         `json:"interrupted"`
		Errors      []string       `json:"errors"`
		Scenarios   []struct {
			ID, Verdict, Reason string
			Steps               []struct{ Status string }
		} `json:"scenarios"`
	}
	readJSON(t, js, &rep)
	const said = "interrupted by the user after 2 of 4 scenarios"
	if rep.Interrupted != said || rep.Verdict != "not-run" || len(rep.Errors) > 0 || rep.Counts["passed"] != 2 || rep.Counts["not-run"] != 2 || rep.Counts["error"] != 0 {
		t.Errorf("JSON report: %q verdict %s counts %v errors %v", rep.Interrupted, rep.Verdict, rep.Counts, rep.Errors)
	}
	want := map[string]string{"int.first": "passed", "int.second": "passed", "int.hold": "not-run", "int.last": "not-run"}
	for _, s := range rep.Scenarios {
		if s.Verdict != want[s.ID] {
			t.Errorf("%s: %s (%s), want %s", s.ID, s.Verdict, s.Reason, want[s.ID])
		}
		if s.Verdict == "not-run" && !strings.HasPrefix(s.Reason, said+": ") {
			t.Errorf("%s: reason %q does not say the run was interrupted", s.ID, s.Reason)
		}
		if s.ID == "int.hold" && (!strings.HasSuffix(s.Reason, "stopped while it ran") || len(s.Steps) != 5 || s.Steps[2].Status != "passed") {
			t.Errorf("the scenario in flight: %q, steps %+v", s.Reason, s.Steps)
		}
	}

	var ju struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Skipped *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	b, err := os.ReadFile(j)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, &ju); err != nil {
		t.Fatalf("JUnit: %v", err)
	}
	if ju.Failures != 0 || ju.Errors != 0 || ju.Skipped != 2 {
		t.Errorf("JUnit: %d failures, %d errors, %d skipped; want 0, 0, 2", ju.Failures, ju.Errors, ju.Skipped)
	}
	for _, s := range ju.Suites {
		for _, c := range s.Cases {
			if c.Skipped != nil && !strings.HasPrefix(c.Skipped.Message, "not run: "+said) {
				t.Errorf("JUnit %s: skipped %q", c.Name, c.Skipped.Message)
			}
		}
	}

	page := readText(t, h)
	for _, want := range []string{`id="interrupted"`, said, `data-verdict="not-run"`, `data-count="not-run">2<`, `data-count="passed">2<`} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	if summary := readText(t, md); !strings.Contains(summary, "Interrupted by the user after 2 of 4 scenarios") || !strings.Contains(summary, "not-run") {
		t.Errorf("the Markdown summary:\n%s", summary)
	}
}

// testInterruptGate: SIGINT while the client command runs stops it; the
// gate calls neither the command nor its traffic failed: both are
// not-run, and the exit code is 130.
func testInterruptGate(t *testing.T, bin string) {
	js := filepath.Join(t.TempDir(), "r.json")
	p := startBinary(t, bin, "gate", "--dialect", "minicodex", "--color", "never", "--json", js, "--",
		"sh", "-c", `echo ready; exec sleep 120`)
	p.waitLine(t, p.stdout, "the command's ready line", func(l string) bool { return l == "ready" })
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	st := p.wait(t)
	errs := p.errs.String()
	if st.ExitCode() != exit.Interrupted || !strings.Contains(errs, "○ client command stopped: interrupted by the user while the client command ran") ||
		!strings.Contains(errs, "INTERRUPTED") || strings.Contains(errs, "FAIL") || strings.Contains(errs, "✗") {
		t.Errorf("exit %d (want %d)\nstderr:\n%s", st.ExitCode(), exit.Interrupted, errs)
	}
	var rep struct {
		Verdict, Interrupted string
		Scenarios            []struct{ ID, Verdict, Reason string }
	}
	readJSON(t, js, &rep)
	if rep.Interrupted == "" || rep.Verdict != "not-run" || len(rep.Scenarios) != 2 {
		t.Fatalf("JSON report: %+v", rep)
	}
	for _, s := range rep.Scenarios {
		if s.Verdict != "not-run" {
			t.Errorf("%s: %s (%s), want not-run", s.ID, s.Verdict, s.Reason)
		}
	}
}

// testSecondSignal: the first SIGINT makes the gate stop its client
// command, which ignores SIGTERM (the gate would wait 5 s, then kill it);
// a second SIGINT is not caught any more and ends the process at once.
func testSecondSignal(t *testing.T, bin string) {
	p := startBinary(t, bin, "gate", "--dialect", "minicodex", "--color", "never", "--",
		"sh", "-c", `trap "" TERM; echo ready $$; exec sleep 120`)
	line := p.waitLine(t, p.stdout, "the command's ready line", func(l string) bool { return strings.HasPrefix(l, "ready ") })
	if pid, err := strconv.Atoi(strings.TrimPrefix(line, "ready ")); err == nil {
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	}
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	p.waitLine(t, p.stderr, "the stop hint", func(l string) bool { return l == stopHint })
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// the command, still running, holds the output open: wait for the
	// process alone
	ended := make(chan *os.ProcessState, 1)
	go func() { st, _ := p.cmd.Process.Wait(); ended <- st }()
	var st *os.ProcessState
	select {
	case st = <-ended:
	case <-time.After(signalWait):
		t.Fatalf("wsconform did not end after a second SIGINT\nstderr:\n%s", p.errs.String())
	}
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("after a second SIGINT: %v, want killed by SIGINT\nstderr:\n%s", st, p.errs.String())
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
