package hostd_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reference/hostd"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

const hostToken = "demo-host-token"

// start runs a hostd reference server for one test; allow names the
// warnings the test provokes in server frames on purpose.
func start(t *testing.T, cfg server.Config, allow ...string) *reftest.Server {
	t.Helper()
	if cfg.Slow == 0 {
		cfg.Slow = 20 * time.Millisecond
	}
	if cfg.Heartbeat == 0 {
		cfg.Heartbeat = -1
	}
	srv := reftest.Start(t, "hostd", hostd.New, reftest.Options{Config: cfg})
	// reftest fails on error findings in server frames; warnings (an
	// ambiguity, a wrong endpoint) are not expected either.
	t.Cleanup(func() {
		for _, f := range serverFindings(srv) {
			if f.Severity != check.Error && !slices.Contains(allow, f.Rule) {
				t.Errorf("server frame finding: %s", reftest.Describe(f))
			}
		}
	})
	return srv
}

// response is an HTTP answer, its JSON body decoded.
type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

func (r response) str(k string) string { s, _ := r.body[k].(string); return s }

// do sends an HTTP request to the server; body is sent as is when it is a
// string, as JSON otherwise, and not at all when nil.
func do(t testing.TB, srv *reftest.Server, method, path, auth string, body any) response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, srv.HTTP+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := response{status: resp.StatusCode, header: resp.Header, raw: raw}
	_ = json.Unmarshal(raw, &out.body)
	return out
}

// login returns a fresh access token of the demo user.
func login(t testing.TB, srv *reftest.Server) string {
	t.Helper()
	r := do(t, srv, http.MethodPost, "/auth/login", "", map[string]any{"username": "demo", "password": "demo"})
	if r.status != http.StatusOK || r.str("access_token") == "" {
		t.Fatalf("login: %d %s", r.status, r.raw)
	}
	if fs := check.ValidateHTTP(srv.Dialect, "login_response", r.raw, check.Limits{}); len(fs) > 0 {
		t.Fatalf("login response breaks its schema: %s", reftest.Describe(fs[0]))
	}
	return r.str("access_token")
}

// postInput posts an input for run with a valid token.
func postInput(t *testing.T, srv *reftest.Server, token, run, inputID, text string) response {
	t.Helper()
	return do(t, srv, http.MethodPost, "/runs/"+run+"/input", "Bearer "+token, map[string]any{"input_id": inputID, "text": text})
}

// dialHost opens /ws/host for hostID; extra is appended to the query.
func dialHost(t *testing.T, srv *reftest.Server, hostID, extra string, opts ...reftest.DialOption) *reftest.Client {
	t.Helper()
	return srv.Dial(t, "/ws/host?host_id="+hostID+"&host_token="+hostToken+extra, opts...)
}

// dialApp opens /ws/app with token; extra is appended to the query.
func dialApp(t *testing.T, srv *reftest.Server, token, extra string, opts ...reftest.DialOption) *reftest.Client {
	t.Helper()
	return srv.Dial(t, "/ws/app?token="+token+extra, opts...)
}

// ev is a host event; seq < 0 leaves seq out.
func ev(typ, run string, seq int64, data map[string]any) map[string]any {
	m := map[string]any{"type": typ, "run_id": run, "data": data}
	if seq >= 0 {
		m["seq"] = seq
	}
	return m
}

func started(run string, seq int64) map[string]any {
	return ev("run.started", run, seq, map[string]any{"tool": "codex", "cwd": "/w", "command": "codex"})
}

func output(run string, seq int64, text string) map[string]any {
	return ev("run.output", run, seq, map[string]any{"stream": "stdout", "text": text})
}

func exited(run string, seq int64, code int) map[string]any {
	return ev("run.exited", run, seq, map[string]any{"exit_code": code})
}

func sendInput(run, inputID, text string) map[string]any {
	return map[string]any{"type": "run.send_input", "run_id": run, "data": map[string]any{"input_id": inputID, "text": text}}
}

func stop(run string, data map[string]any) map[string]any {
	return map[string]any{"type": "run.stop", "run_id": run, "data": data}
}

// uuid is a fixed UUID numbered n.
func uuid(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

// sendAcked sends host events and waits for each one's run.ack; it returns
// the acknowledged last_seq values.
func sendAcked(t *testing.T, host *reftest.Client, events ...map[string]any) []int64 {
	t.Helper()
	var out []int64
	for _, e := range events {
		host.Send(e)
		out = append(out, host.Expect("run.ack").Int("/data/last_seq"))
	}
	return out
}

// seqs collects the seq of each message of type typ among msgs.
func seqs(msgs []reftest.Msg) []int64 {
	var out []int64
	for _, m := range msgs {
		out = append(out, m.Int("/seq"))
	}
	return out
}

// serverFindings are the findings in frames the server sent.
func serverFindings(srv *reftest.Server) []check.Finding {
	var out []check.Finding
	for _, f := range srv.Findings() {
		if f.Dir == wire.ServerToClient {
			out = append(out, f)
		}
	}
	return out
}

// eventually polls cond until it holds. Only for state that no message
// announces (the server noticing a closed connection); everything else
// waits for a message.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(reftest.Timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, reftest.Timeout)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// sum is the hex sha256 of text.
func sum(text string) string {
	s := sha256.Sum256([]byte(text))
	return hex.EncodeToString(s[:])
}

// subscribed returns once every app is subscribed to live events. The
// server subscribes an app just after the handshake, so until an app has
// had a message, events may reach it as the replay of retained events
// instead (the same events, but not those without seq). Two events of a
// sync run settle it (two, so the hostd-fanout-reorders mutation, which
// holds a run's first event back, lets them through); acks to apps (the
// hostd-ack-to-apps mutation) are skipped.
func subscribed(t *testing.T, host *reftest.Client, apps ...*reftest.Client) {
	t.Helper()
	sendAcked(t, host, started("sync", 1), output("sync", 2, "sync"))
	for _, app := range apps {
		for seen := 0; seen < 2; {
			m := app.Next()
			if m.Type == "run.ack" {
				continue
			}
			if m.Str("/run_id") != "sync" {
				t.Fatalf("%s: got %s, want the sync run", app.ID, m.Raw)
			}
			seen++
		}
	}
}
