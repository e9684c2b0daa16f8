package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/recording"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds wsproxy once per test run, for tests that must signal a
// real process.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wsproxy-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "wsproxy")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		_ = os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// process is wsproxy running as a child process.
type process struct {
	cmd    *exec.Cmd
	l      listening
	stdout *bufio.Reader
	stderr *syncBuffer
}

func startProcess(t *testing.T, args ...string) *process {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"--listen", "127.0.0.1:0", "--color", "never"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, stdout: bufio.NewReader(out), stderr: &syncBuffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := p.stdout.ReadString('\n')
	if err != nil {
		t.Fatalf("no listening line: %v; stderr:\n%s", err, p.stderr.String())
	}
	if err := json.Unmarshal([]byte(line), &p.l); err != nil {
		t.Fatalf("listening line %q: %v", line, err)
	}
	return p
}

// wait waits for the process to exit and returns its exit code.
func (p *process) wait(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(2 * timeout):
		t.Fatalf("wsproxy did not exit; stderr:\n%s", p.stderr.String())
	}
	return -1
}

// echoUpstream is a trivial WebSocket echo server.
func echoUpstream(t *testing.T, tlsOn bool) string {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		for {
			op, data, err := ws.ReadMessage()
			if err != nil || ws.WriteMessage(op, data) != nil {
				return
			}
		}
	})
	var srv *httptest.Server
	if tlsOn {
		srv = httptest.NewTLSServer(h)
	} else {
		srv = httptest.NewServer(h)
	}
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// TestSIGINTDrains: SIGINT to the process closes the client with 1001,
// writes the report and exits 0.
func TestSIGINTDrains(t *testing.T) {
	t.Parallel()
	ref := startRef(t, "minicodex")
	dir := t.TempDir()
	js := filepath.Join(dir, "r.json")
	p := startProcess(t, "--upstream", ref.URL, "--json", js, "--record", filepath.Join(dir, "rec.jsonl"))
	ws := dialWS(t, p.l.URL+"/ws")
	sendJSON(t, ws, map[string]any{"type": "hello", "v": "1.0.0"})
	readUntil(t, ws, "snapshot")
	codes := make(chan int, 1)
	go func() { codes <- closeCode(ws) }()
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if got := <-codes; got != websocket.CloseGoingAway {
		t.Errorf("client got %d, want 1001", got)
	}
	if code := p.wait(t); code != 0 {
		t.Errorf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	if st, err := os.Stat(js); err != nil || st.Size() == 0 {
		t.Errorf("report: %v", err)
	}
	if !strings.Contains(p.stderr.String(), "closed 1001") || !strings.Contains(p.stderr.String(), "PASS") {
		t.Errorf("stderr:\n%s", p.stderr.String())
	}
}

// TestWebTempRecordingProcess: the real command with --web and no
// --record records to a temporary file, names it on the listening line and
// on stderr, and removes it when SIGINT ends it; with --record the file is
// the user's and stays.
func TestWebTempRecordingProcess(t *testing.T) {
	t.Parallel()
	ref := startRef(t, "minicodex")
	kept := filepath.Join(t.TempDir(), "kept.jsonl")
	for _, record := range []string{"", kept} {
		args := []string{"--upstream", ref.URL, "--web", "127.0.0.1:0", "-q"}
		if record != "" {
			args = append(args, "--record", record)
		}
		p := startProcess(t, args...)
		if p.l.Record == "" || record != "" && p.l.Record != record {
			t.Fatalf("listening line names recording %q", p.l.Record)
		}
		ws := dialWS(t, p.l.URL+"/ws")
		sendJSON(t, ws, map[string]any{"type": "hello", "v": "1.0.0"})
		readUntil(t, ws, "snapshot")
		if st, err := os.Stat(p.l.Record); err != nil || st.Size() == 0 {
			t.Fatalf("the recording while running: %v", err)
		}
		if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if code := p.wait(t); code != 0 {
			t.Errorf("exit %d; stderr:\n%s", code, p.stderr.String())
		}
		stderr := p.stderr.String()
		_, err := os.Stat(p.l.Record)
		switch record {
		case "":
			if !errors.Is(err, os.ErrNotExist) || !strings.Contains(stderr, "recording to "+p.l.Record) ||
				!strings.Contains(stderr, "removed the temporary recording "+p.l.Record) {
				t.Errorf("temporary recording: %v; stderr:\n%s", err, stderr)
				os.Remove(p.l.Record)
			}
		default:
			if err != nil || strings.Contains(stderr, "removed") || !strings.Contains(stderr, "wrote the recording") {
				t.Errorf("--record: %v; stderr:\n%s", err, stderr)
			}
		}
	}
}

// TestRecordingSurvivesSIGKILL: after kill -9 the recording holds every
// frame the client got an answer to, and reads back cleanly (at most a
// torn last line).
func TestRecordingSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	up := echoUpstream(t, false)
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	p := startProcess(t, "--upstream", up, "--record", rec, "--quiet")
	ws := dialWS(t, p.l.URL+"/ws")
	const n = 300
	for i := range n {
		msg := fmt.Sprintf(`{"type":"send","text":"message %d"}`, i)
		if err := ws.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		if _, got, err := ws.ReadMessage(); err != nil || string(got) != msg {
			t.Fatalf("echo %d: %q %v", i, got, err)
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.wait(t)
	f, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c2s, s2c int
	_, problems, err := recording.Scan(f, func(l recording.Line) error {
		if l.Kind != recording.KindFrame {
			return nil
		}
		fr, err := l.Frame()
		if err != nil {
			return err
		}
		want := fmt.Sprintf(`{"type":"send","text":"message %d"}`, min(c2s, s2c))
		if string(fr.Payload) != want {
			t.Errorf("frame %d: %s, want %s", fr.Index, fr.Payload, want)
		}
		if fr.Dir == "c2s" {
			c2s++
		} else {
			s2c++
		}
		return nil
	})
	if err != nil || len(problems) > 0 {
		t.Fatalf("read back: %v %v", problems, err)
	}
	if c2s != n || s2c != n {
		t.Errorf("recording holds %d c2s and %d s2c frames, want %d of each", c2s, s2c, n)
	}
}

// TestTLS: a TLS listener with a given certificate, and a wss:// upstream
// with a self-signed certificate that only --insecure accepts.
func TestTLS(t *testing.T) {
	t.Parallel()
	up := echoUpstream(t, true)
	// httptest's certificate doubles as the proxy's own.
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, localhostCert, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, localhostKey, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, insecure := range []bool{false, true} {
		args := []string{"--upstream", up, "--tls-cert", certFile, "--tls-key", keyFile}
		if insecure {
			args = append(args, "--insecure")
		}
		l, stop := proxying(t, args...)
		if !strings.HasPrefix(l.URL, "wss://") {
			t.Fatalf("listening on %s, want wss://", l.URL)
		}
		d := websocket.Dialer{HandshakeTimeout: timeout, TLSClientConfig: insecureTLS()}
		ws, resp, err := d.Dial(l.URL+"/ws", nil)
		switch {
		case insecure && err != nil:
			t.Errorf("--insecure: %v", err)
		case insecure:
			if err := ws.WriteMessage(websocket.TextMessage, []byte("hi")); err != nil {
				t.Fatal(err)
			}
			if _, got, err := ws.ReadMessage(); err != nil || string(got) != "hi" {
				t.Errorf("echo over wss: %q %v", got, err)
			}
			ws.Close()
		case err == nil || resp == nil || resp.StatusCode != http.StatusBadGateway:
			t.Errorf("a self-signed upstream without --insecure: %v %+v", err, resp)
		}
		stop()
	}
}
