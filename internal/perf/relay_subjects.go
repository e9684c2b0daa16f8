package perf

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/reports"
)

// The subjects every relay figure compares, on the same upstream.
const (
	Direct    = "direct"    // the client dials the upstream
	TCPRelay  = "tcp-relay" // a bare TCP relay: io.Copy both ways
	Wsproxy   = "wsproxy"   // validation (minicodex) and recording to a file on, as a user runs it
	Mitmproxy = "mitmproxy" // mitmdump in reverse mode, no addons
)

// subject is one started subject: the URL clients dial and how to stop
// it. stop returns what the subject's report says (wsproxy only).
type subject struct {
	name string
	url  string
	pid  int // the process relaying, 0 when it runs in this process
	stop func() (proxyResult, error)
}

// proxyResult is what wsproxy's report says about a run.
type proxyResult struct {
	gaps     int64 // frames relayed but not checked (proxy.validation-gap)
	findings int   // other findings: the traffic is clean, so none is expected
	rules    []string
}

// wsproxyOptions are extra flags for a wsproxy subject.
type wsproxyOptions struct {
	maxConns int // 0: the default
}

// startSubject starts subject name in front of up. run numbers the files
// of a wsproxy subject.
func startSubject(ctx context.Context, cfg Config, name string, up *upstream, run int, opt wsproxyOptions) (*subject, error) {
	switch name {
	case Direct:
		return &subject{name: name, url: up.url, stop: func() (proxyResult, error) { return proxyResult{}, nil }}, nil
	case TCPRelay:
		if cfg.Wsproxy != "" {
			return startTCPRelayProcess(up.addr)
		}
		return startTCPRelay(up.addr)
	case Wsproxy:
		if cfg.Wsproxy != "" {
			return startWsproxyProcess(ctx, cfg, up, run, opt)
		}
		return startWsproxyInProcess(cfg, up, run, opt)
	case Mitmproxy:
		return startMitmproxy(ctx, cfg, up)
	}
	return nil, fmt.Errorf("unknown subject %q", name)
}

// startTCPRelay relays every connection to addr with io.Copy both ways,
// in this process: the least any relay can cost.
func startTCPRelay(addr string) (*subject, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the tcp relay: %w", err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := map[net.Conn]bool{}
	track := func(c net.Conn, on bool) {
		mu.Lock()
		defer mu.Unlock()
		if on {
			open[c] = true
		} else {
			delete(open, c)
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			a, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); relayTCP(a, addr, track) }()
		}
	}()
	return &subject{name: TCPRelay, url: "ws://" + ln.Addr().String(), stop: func() (proxyResult, error) {
		ln.Close()
		mu.Lock()
		for c := range open {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
		return proxyResult{}, nil
	}}, nil
}

// wsproxyFiles are the recording and report of run.
func wsproxyFiles(cfg Config, run int) (rec, report string) {
	dir := cfg.TempDir
	if dir == "" {
		dir = os.TempDir()
	}
	return filepath.Join(dir, fmt.Sprintf("wsproxy-%d.jsonl", run)), filepath.Join(dir, fmt.Sprintf("wsproxy-%d.json", run))
}

// startWsproxyProcess runs the wsproxy command as a user does: minicodex,
// recording to a file, findings only on the console, a JSON report.
func startWsproxyProcess(ctx context.Context, cfg Config, up *upstream, run int, opt wsproxyOptions) (*subject, error) {
	rec, report := wsproxyFiles(cfg, run)
	args := []string{"--upstream", up.url, "--listen", "127.0.0.1:0", "--dialect", "minicodex",
		"--record", rec, "--json", report, "--quiet", "--color", "never"}
	if opt.maxConns != 0 {
		args = append(args, "--max-conns", strconv.Itoa(opt.maxConns))
	}
	cmd := exec.Command(cfg.Wsproxy, args...)
	stderr := &tail{max: 8 << 10}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start wsproxy: %w", err)
	}
	sc := bufio.NewScanner(out)
	var l struct {
		Type, URL string
	}
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &l) != nil || l.Type != "listening" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("wsproxy did not start: %s", stderr)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stop := func() (proxyResult, error) {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-done:
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				return proxyResult{}, fmt.Errorf("wsproxy: %w", err)
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			return proxyResult{}, fmt.Errorf("wsproxy did not stop within 30 s: %s", stderr)
		}
		f, err := os.Open(report)
		if err != nil {
			return proxyResult{}, fmt.Errorf("wsproxy report: %w (%s)", err, stderr)
		}
		defer f.Close()
		r, err := reports.ReadJSON(f)
		if err != nil {
			return proxyResult{}, fmt.Errorf("wsproxy report: %w", err)
		}
		return resultOf(r), nil
	}
	return &subject{name: Wsproxy, url: l.URL, pid: cmd.Process.Pid, stop: stop}, nil
}

// startWsproxyInProcess serves the proxy in this process, configured as
// the command configures it, for when no wsproxy binary was built (a
// quick check of the measures).
func startWsproxyInProcess(cfg Config, up *upstream, run int, opt wsproxyOptions) (*subject, error) {
	recPath, _ := wsproxyFiles(cfg, run)
	rec, err := os.Create(recPath)
	if err != nil {
		return nil, err
	}
	p, err := proxy.New(proxy.Config{Upstream: up.url, Dialect: "minicodex", Record: rec, Console: io.Discard, Quiet: true,
		MaxConns: opt.maxConns, Label: "perf", Tool: "perf"})
	if err != nil {
		rec.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		rec.Close()
		return nil, err
	}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	stop := func() (proxyResult, error) {
		defer rec.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		go func() { _ = srv.Shutdown(ctx) }()
		if err := p.Shutdown(ctx); err != nil {
			return proxyResult{}, err
		}
		return resultOf(p.Report()), nil
	}
	return &subject{name: Wsproxy, url: "ws://" + ln.Addr().String(), stop: stop}, nil
}

// resultOf counts the validation gaps and the other findings of a report.
func resultOf(r *reports.Report) proxyResult {
	var res proxyResult
	if r == nil {
		return res
	}
	for _, s := range r.Sessions {
		for _, f := range s.Findings {
			if f.Rule == proxy.RuleValidationGap.ID {
				n, _ := strconv.ParseInt(strings.TrimSuffix(f.Actual, " not checked"), 10, 64)
				res.gaps += n
				continue
			}
			res.findings++
			if len(res.rules) < 5 {
				res.rules = append(res.rules, f.Rule)
			}
		}
	}
	return res
}

// startMitmproxy runs mitmdump in reverse mode in front of up, with no
// addons and nothing printed.
func startMitmproxy(ctx context.Context, cfg Config, up *upstream) (*subject, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(cfg.Mitmproxy, "--mode", "reverse:http://"+up.addr, "--listen-host", "127.0.0.1",
		"--listen-port", strconv.Itoa(port), "--quiet")
	stderr := &tail{max: 8 << 10}
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start mitmdump: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	// mitmdump prints nothing when ready: wait until it accepts.
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		select {
		case err := <-done:
			return nil, fmt.Errorf("mitmdump exited: %v: %s", err, stderr)
		case <-ctx.Done():
			_ = cmd.Process.Kill()
			<-done
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-done
			return nil, fmt.Errorf("mitmdump did not listen within 30 s: %s", stderr)
		}
	}
	return &subject{name: Mitmproxy, url: "ws://" + addr, pid: cmd.Process.Pid, stop: func() (proxyResult, error) {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		return proxyResult{}, nil
	}}, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// tail keeps the last max bytes written to it, for error messages.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}
