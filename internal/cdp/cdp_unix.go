//go:build unix

package cdp

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Browser is one Chromium with one page. Its methods fail the test or
// benchmark they were started with (or the one given to Use) on any error.
type Browser struct {
	// Timeout bounds WaitFor (20 s when zero).
	Timeout time.Duration
	// Diag is a JavaScript expression whose value WaitFor shows when it
	// gives up (the page's own account of its state).
	Diag string
	// CallTimeout bounds each command (30 s when zero). A command waits
	// for the page's main thread, so a benchmark that drives a page into
	// long tasks on purpose gives it longer, to measure them rather than
	// fail.
	CallTimeout time.Duration

	t       testing.TB
	cmd     *exec.Cmd
	ws      *websocket.Conn
	session string // the page's flattened CDP session
	metrics bool   // Performance.enable was sent

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan cdpReply
	readErr error
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// Options are what differs between the pages tested.
type Options struct {
	// Window is the window size, "WIDTH,HEIGHT" (default 1000,800).
	Window string
}

// chromiumBin finds Chromium: WSCONFORM_CHROMIUM, /usr/bin/chromium or
// one on PATH. Without it the test fails (CI installs it), unless
// WSCONFORM_SKIP_BROWSER is set.
func chromiumBin(t testing.TB) string {
	t.Helper()
	names := []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}
	if env := os.Getenv("WSCONFORM_CHROMIUM"); env != "" {
		names = []string{env}
	}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("WSCONFORM_SKIP_BROWSER") != "" {
		t.Skip("no Chromium, and WSCONFORM_SKIP_BROWSER is set")
	}
	t.Fatal("these browser tests need headless Chromium: install it (Debian: apt-get install chromium), " +
		"point WSCONFORM_CHROMIUM at it, or set WSCONFORM_SKIP_BROWSER=1 to skip them")
	return ""
}

var devtoolsRe = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// Start starts a headless Chromium with a fresh profile and opens one
// blank page; the browser ends with the test. It takes a testing.TB so
// that benchmarks can measure with a real page open (internal/web).
func Start(t testing.TB, o Options) *Browser {
	t.Helper()
	if o.Window == "" {
		o.Window = "1000,800"
	}
	bin := chromiumBin(t)
	dir := t.TempDir()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
		"--window-size=" + o.Window, "--remote-debugging-port=0", "--user-data-dir=" + filepath.Join(dir, "profile")}
	// WSCONFORM_CHROMIUM_FLAGS adds flags, for looking into a page's cost
	// (for example --trace-startup=devtools.timeline
	// --trace-startup-file=/tmp/trace.json --trace-startup-duration=8).
	args = append(args, strings.Fields(os.Getenv("WSCONFORM_CHROMIUM_FLAGS"))...)
	cmd := exec.Command(bin, append(args, "about:blank")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	c := &Browser{t: t, cmd: cmd, waiting: map[int]chan cdpReply{}}
	t.Cleanup(c.close)
	found := make(chan string, 1)
	var tail []string
	var tailMu sync.Mutex
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			tailMu.Lock()
			if tail = append(tail, line); len(tail) > 20 {
				tail = tail[1:]
			}
			tailMu.Unlock()
			if m := devtoolsRe.FindStringSubmatch(line); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
	}()
	var wsURL string
	select {
	case wsURL = <-found:
	case <-time.After(30 * time.Second):
		tailMu.Lock()
		defer tailMu.Unlock()
		t.Fatalf("chromium did not start its DevTools endpoint:\n%s", strings.Join(tail, "\n"))
	}
	c.ws, _, err = websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		t.Fatalf("connect to chromium's DevTools: %v", err)
	}
	go c.read()
	var target struct {
		TargetID string `json:"targetId"`
	}
	c.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	c.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	c.session = attached.SessionID
	c.call(c.session, "Page.enable", nil, nil)
	return c
}

func (c *Browser) read() {
	for {
		var m struct {
			ID int `json:"id"`
			cdpReply
		}
		if err := c.ws.ReadJSON(&m); err != nil {
			c.mu.Lock()
			c.readErr = err
			for id, ch := range c.waiting {
				close(ch)
				delete(c.waiting, id)
			}
			c.mu.Unlock()
			return
		}
		if m.ID == 0 {
			continue // an event
		}
		c.mu.Lock()
		ch := c.waiting[m.ID]
		delete(c.waiting, m.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- m.cdpReply
		}
	}
}

// call sends one CDP command (to the browser when session is "") and
// decodes its result into out.
func (c *Browser) call(session, method string, params any, out any) {
	c.t.Helper()
	c.mu.Lock()
	if c.readErr != nil {
		c.mu.Unlock()
		c.t.Fatalf("%s: chromium is gone: %v", method, c.readErr)
	}
	c.nextID++
	id := c.nextID
	ch := make(chan cdpReply, 1)
	c.waiting[id] = ch
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	err := c.ws.WriteJSON(msg)
	wait := c.CallTimeout
	c.mu.Unlock()
	if wait == 0 {
		wait = 30 * time.Second
	}
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	select {
	case r, ok := <-ch:
		switch {
		case !ok:
			c.t.Fatalf("%s: chromium is gone", method)
		case r.Error != nil:
			c.t.Fatalf("%s: %s", method, r.Error.Message)
		case out != nil:
			if err := json.Unmarshal(r.Result, out); err != nil {
				c.t.Fatalf("%s: %v in %s", method, err, r.Result)
			}
		}
	case <-time.After(wait):
		c.t.Fatalf("%s: no answer from chromium within %v", method, wait)
	}
}

// Navigate loads url in the page.
func (c *Browser) Navigate(url string) {
	c.t.Helper()
	c.call(c.session, "Page.navigate", map[string]any{"url": url}, nil)
}

// Reload reloads the page, as a user pressing F5.
func (c *Browser) Reload() {
	c.t.Helper()
	c.call(c.session, "Page.reload", map[string]any{"ignoreCache": true}, nil)
}

// Eval evaluates a JavaScript expression in the page and returns its
// value as JSON.
func (c *Browser) Eval(expr string) json.RawMessage {
	c.t.Helper()
	v, exc := c.EvalErr(expr)
	if exc != "" {
		c.t.Fatalf("%s: %s", expr, exc)
	}
	return v
}

// EvalErr is Eval that returns an exception's text instead of failing
// (a page still loading has no elements yet).
func (c *Browser) EvalErr(expr string) (json.RawMessage, string) {
	c.t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	c.call(c.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if r.Exception != nil {
		return nil, r.Exception.Text
	}
	return r.Result.Value, ""
}

// Use makes the browser report failures to t (a subtest or
// sub-benchmark) and gives the previous one back when it ends.
func (c *Browser) Use(t testing.TB) {
	prev := c.t
	c.t = t
	t.Cleanup(func() { c.t = prev })
}

// Text is the text of the element with id, "" when there is none.
func (c *Browser) Text(id string) string {
	c.t.Helper()
	var s string
	_ = json.Unmarshal(c.Eval(fmt.Sprintf(`(document.getElementById(%q) || {}).textContent || ""`, id)), &s)
	return s
}

// WaitFor polls expr (a JavaScript boolean) until it is true.
func (c *Browser) WaitFor(what, expr string) {
	c.t.Helper()
	wait := c.Timeout
	if wait == 0 {
		wait = 20 * time.Second
	}
	deadline := time.Now().Add(wait)
	for {
		var ok bool
		v, exc := c.EvalErr(expr)
		if err := json.Unmarshal(v, &ok); exc == "" && err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			diag := ""
			if c.Diag != "" {
				v, _ := c.EvalErr(c.Diag)
				diag = "; the page says " + string(v)
			}
			c.t.Fatalf("waiting for %s: %s is still not true%s", what, expr, diag)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Screenshot saves a PNG of the page under $WSCONFORM_SCREENSHOTS (or
// the test's temporary directory) and returns its path.
func (c *Browser) Screenshot(name string) string {
	c.t.Helper()
	var r struct {
		Data string `json:"data"`
	}
	c.call(c.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &r)
	b, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil || len(b) < 1000 {
		c.t.Fatalf("screenshot %s: %v (%d bytes)", name, err, len(b))
	}
	dir := os.Getenv("WSCONFORM_SCREENSHOTS")
	if dir == "" {
		dir = c.t.TempDir()
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		c.t.Fatal(err)
	}
	c.t.Logf("screenshot: %s", path)
	return path
}

// Metrics returns the page's performance counters (Performance.getMetrics:
// TaskDuration, ScriptDuration, LayoutDuration, RecalcStyleDuration, in
// seconds since the page started, and counts such as Nodes). A benchmark
// reads them before and after a load to say where the page's main thread
// spent its time. The first call starts the counting.
func (c *Browser) Metrics() map[string]float64 {
	c.t.Helper()
	if !c.metrics {
		c.call(c.session, "Performance.enable", nil, nil)
		c.metrics = true
	}
	var r struct {
		Metrics []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"metrics"`
	}
	c.call(c.session, "Performance.getMetrics", nil, &r)
	m := make(map[string]float64, len(r.Metrics))
	for _, x := range r.Metrics {
		m[x.Name] = x.Value
	}
	return m
}

// CPUTime is the processor time used so far by the browser and every
// helper process of its group (user and system, from /proc), so that a
// benchmark can say how much of the machine a page took, on top of what
// Metrics says of its main thread. It is zero where /proc is not there.
func (c *Browser) CPUTime() time.Duration {
	const tick = 10 * time.Millisecond // USER_HZ, 100 on Linux
	var total time.Duration
	for _, p := range c.procs() {
		ut, _ := strconv.ParseInt(p.stat[11], 10, 64)
		st, _ := strconv.ParseInt(p.stat[12], 10, 64)
		total += time.Duration(ut+st) * tick
	}
	return total
}

// Pids lists the browser's processes: itself and every helper of its
// process group (from /proc; none where /proc is not there), for a
// benchmark that places them on processors of their own.
func (c *Browser) Pids() []int {
	var pids []int
	for _, p := range c.procs() {
		pids = append(pids, p.pid)
	}
	return pids
}

// proc is a process of the browser's group and the fields of its
// /proc/PID/stat after the command name (state first).
type proc struct {
	pid  int
	stat []string
}

// procs reads /proc for the processes of the browser's group.
func (c *Browser) procs() []proc {
	ents, _ := os.ReadDir("/proc")
	var out []proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp … utime stime: comm may hold spaces.
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 13 || f[2] != strconv.Itoa(c.cmd.Process.Pid) {
			continue
		}
		out = append(out, proc{pid: pid, stat: f})
	}
	return out
}

// Freeze stops the browser and its helper processes (SIGSTOP to its
// process group) until Thaw. A benchmark that measures setups in
// interleaved rounds freezes the page during the other setups' rounds, so
// that the browser's CPU weighs on its own rounds only: a page that is
// still busy would otherwise slow every setup alike and hide its cost.
func (c *Browser) Freeze() {
	c.t.Helper()
	if err := syscall.Kill(-c.cmd.Process.Pid, syscall.SIGSTOP); err != nil {
		c.t.Fatalf("freeze chromium: %v", err)
	}
}

// Thaw resumes a browser stopped by Freeze.
func (c *Browser) Thaw() {
	c.t.Helper()
	if err := syscall.Kill(-c.cmd.Process.Pid, syscall.SIGCONT); err != nil {
		c.t.Fatalf("thaw chromium: %v", err)
	}
}

// close ends the browser and every helper process it started.
func (c *Browser) close() {
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGCONT) // frozen, it could not close
	if c.ws != nil {
		c.mu.Lock()
		_ = c.ws.WriteJSON(map[string]any{"id": 1 << 30, "method": "Browser.close"})
		c.mu.Unlock()
	}
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL) // helpers left in the group
	if c.ws != nil {
		_ = c.ws.Close()
	}
}
