//go:build unix

package web

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A headless Chromium driven over the DevTools protocol (CDP), copied from
// internal/proxy/chromium_unix_test.go (test files cannot be imported):
// the live page must be watched while it updates, scrolled, and
// screenshotted, which one-shot --dump-dom cannot do. CDP speaks JSON over
// a WebSocket: gorilla is the client.

// chromium is one browser with one page.
type chromium struct {
	t       *testing.T
	cmd     *exec.Cmd
	ws      *websocket.Conn
	session string // the page's flattened CDP session

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

// chromiumBin finds Chromium: WSCONFORM_CHROMIUM, /usr/bin/chromium or
// one on PATH. Without it the test fails (CI installs it), unless
// WSCONFORM_SKIP_BROWSER is set.
func chromiumBin(t *testing.T) string {
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
	t.Fatal("the proxy's browser tests need headless Chromium: install it (Debian: apt-get install chromium), " +
		"point WSCONFORM_CHROMIUM at it, or set WSCONFORM_SKIP_BROWSER=1 to skip them")
	return ""
}

var devtoolsRe = regexp.MustCompile(`DevTools listening on (ws://\S+)`)

// startChromium starts a headless Chromium with a fresh profile and opens
// one blank page.
func startChromium(t *testing.T) *chromium {
	t.Helper()
	bin := chromiumBin(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
		"--window-size=1280,800", "--remote-debugging-port=0", "--user-data-dir="+filepath.Join(dir, "profile"), "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	c := &chromium{t: t, cmd: cmd, waiting: map[int]chan cdpReply{}}
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

func (c *chromium) read() {
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
func (c *chromium) call(session, method string, params any, out any) {
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
	c.mu.Unlock()
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
	case <-time.After(30 * time.Second):
		c.t.Fatalf("%s: no answer from chromium within 30s", method)
	}
}

// navigate loads url in the page.
func (c *chromium) navigate(url string) {
	c.t.Helper()
	c.call(c.session, "Page.navigate", map[string]any{"url": url}, nil)
}

// eval evaluates a JavaScript expression in the page and returns its
// value as JSON.
func (c *chromium) eval(expr string) json.RawMessage {
	c.t.Helper()
	v, exc := c.evalErr(expr)
	if exc != "" {
		c.t.Fatalf("%s: %s", expr, exc)
	}
	return v
}

// evalErr is eval that returns an exception's text instead of failing
// (a page still loading has no elements yet).
func (c *chromium) evalErr(expr string) (json.RawMessage, string) {
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

// waitFor polls expr (a JavaScript boolean) until it is true.
func (c *chromium) waitFor(what, expr string) {
	c.t.Helper()
	deadline := time.Now().Add(timeout * 2)
	for {
		var ok bool
		v, exc := c.evalErr(expr)
		if err := json.Unmarshal(v, &ok); exc == "" && err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			st, _ := c.evalErr(`JSON.stringify(window.wsLive && wsLive.state())`)
			c.t.Fatalf("waiting for %s: %s is still not true; page state %s", what, expr, st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// screenshot saves a PNG of the page under $WSCONFORM_SCREENSHOTS (or
// the test's temporary directory) and returns its path.
func (c *chromium) screenshot(name string) string {
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

// close ends the browser and every helper process it started.
func (c *chromium) close() {
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
