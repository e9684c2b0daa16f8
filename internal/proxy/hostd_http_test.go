package proxy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/server"
)

// naiveHost is a hostd host daemon that writes every run.send_input it
// gets to its "PTY" and records it (run.input), without de-duplicating:
// whether an input_id is recorded once is then up to the server.
type naiveHost struct {
	c   *client
	run string
	seq int
}

func startNaiveHost(t *testing.T, proxyURL, run string) *naiveHost {
	t.Helper()
	h := &naiveHost{c: dial(t, proxyURL+"/ws/host?host_id=host_t&host_token="+server.DefaultAuth.HostToken, nil), run: run}
	h.event("run.started", map[string]any{"tool": "codex", "cwd": "/tmp", "command": "codex"})
	return h
}

// event sends an event and waits for the server's run.ack of it: the
// server has persisted it (and knows the run) when the ack comes.
func (h *naiveHost) event(typ string, data map[string]any) {
	h.seq++
	h.c.send(map[string]any{"type": typ, "ts": "2026-11-27T10:00:00Z", "host_id": "host_t", "run_id": h.run, "seq": h.seq, "data": data})
	h.c.until("type", "run.ack")
}

// record reads the next run.send_input and records it.
func (h *naiveHost) record() {
	msgs := h.c.until("type", "run.send_input")
	d, _ := msgs[len(msgs)-1].doc()["data"].(map[string]any)
	id, _ := d["input_id"].(string)
	text, _ := d["text"].(string)
	sum := sha256.Sum256([]byte(text))
	h.event("run.input", map[string]any{"actor": "web", "input_id": id, "text_redacted": text, "text_sha256": hex.EncodeToString(sum[:])})
}

// TestHostdHTTPRecordedAndJudged is issue 25's acceptance through a real
// proxy: a client sends the same input_id twice over HTTP. The reference
// server de-duplicates, the host records one run.input, and the recording
// (login and both inputs as http lines, credentials redacted) passes
// `validate`. With the server mutated to forward the repeat again, the
// naive host records it twice, and both the live report and `validate`
// of the recording fail on the idempotency requirement.
func TestHostdHTTPRecordedAndJudged(t *testing.T) {
	t.Parallel()
	for _, mutation := range []string{"", "hostd-input-reforwarded"} {
		t.Run("mutation="+mutation, func(t *testing.T) {
			t.Parallel()
			opts := reference.Options{Dialects: []string{"hostd"}, NoScriptedHost: true, Config: server.Config{Heartbeat: -1}}
			if mutation != "" {
				opts.Mutate = []string{mutation}
			}
			ref, err := reference.Start(context.Background(), "127.0.0.1:0", opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = ref.Shutdown(context.Background()) })
			tp := startProxy(t, Config{Upstream: ref.URL, Dialect: "hostd"})

			status, body := postJSON(t, tp.http+"/auth/login", "", map[string]any{"username": "demo", "password": "demo"})
			token, _ := body["access_token"].(string)
			if status != http.StatusOK || token == "" {
				t.Fatalf("login: %d %v", status, body)
			}
			host := startNaiveHost(t, tp.url, "run_t1")
			input := map[string]any{"input_id": "7f1c2a9e-8b7d-4c6e-9f00-123456789abc", "text": "yes\n"}
			if status, body = postJSON(t, tp.http+"/runs/run_t1/input", token, input); status != http.StatusAccepted {
				t.Fatalf("first input: %d %v", status, body)
			}
			host.record()
			if status, body = postJSON(t, tp.http+"/runs/run_t1/input", token, input); status/100 != 2 {
				t.Fatalf("repeated input: %d %v", status, body)
			}
			if mutation != "" {
				host.record() // forwarded again: recorded again
			}
			if status, _ = postJSON(t, tp.http+"/runs/run_t1/input", "", input); status != http.StatusUnauthorized {
				t.Fatalf("input without a token: %d", status)
			}
			host.c.closeWith(1000, "bye")
			host.c.closed()
			r := tp.Stop()

			rec := tp.rec.String()
			if n := strings.Count(rec, `"kind":"http"`); n != 4 || !strings.Contains(rec, `"version":2`) {
				t.Errorf("want 4 http lines in a version-2 recording, got %d:\n%s", n, rec)
			}
			for _, secret := range []string{`\"password\":\"demo\"`, token} {
				if strings.Contains(rec, secret) {
					t.Errorf("the recording holds %q", secret)
				}
			}
			if !strings.Contains(rec, `{"kind":"http","conn":"h1","session":"hostd","time":`) || !strings.Contains(rec, `"endpoint":"input","method":"POST","path":"/runs/run_t1/input","status":401`) {
				t.Errorf("http lines lack their session, index or status:\n%s", rec)
			}
			path := filepath.Join(t.TempDir(), "rec.jsonl")
			if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := validate.File(context.Background(), path, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Exchanges != 4 || len(res.Problems) > 0 {
				t.Errorf("validate read %d exchanges, problems %v", res.Exchanges, res.Problems)
			}
			var offline []string
			for _, f := range res.Findings {
				offline = append(offline, f.Rule)
				if f.Rule == "hostd.input-duplicate" && (!slices.Contains(f.Requires, "hostd.ids.input-id-idempotent") ||
					!strings.Contains(f.Message, "clients sent it 2 times: HTTP POST /runs/run_t1/input")) {
					t.Errorf("duplicate finding: %+v", f)
				}
			}
			// The request without a token is the client's error (the
			// test's, on purpose), the same live and offline.
			want := []string{"hostd.http-no-bearer"}
			if mutation != "" {
				want = []string{"hostd.http-no-bearer", "hostd.input-duplicate", "hostd.input-reforwarded"}
			}
			slices.Sort(offline)
			if !slices.Equal(offline, want) {
				t.Errorf("validate found %v, want %v", offline, want)
			}
			if hasRule(r, "hostd.input-duplicate") != (mutation != "") {
				t.Errorf("live report: %s", describeFindings(findings(r)))
			}
			sameOffline(t, tp, r)
		})
	}
}

// TestHostdHTTPAutoDialect: with --dialect auto the login, which comes
// before any socket tells the dialect, is recorded (without a session)
// and judged once the host's socket decided hostd, live and offline alike.
func TestHostdHTTPAutoDialect(t *testing.T) {
	t.Parallel()
	ref, err := reference.Start(context.Background(), "127.0.0.1:0",
		reference.Options{Dialects: []string{"hostd"}, NoScriptedHost: true, Config: server.Config{Heartbeat: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ref.Shutdown(context.Background()) })
	tp := startProxy(t, Config{Upstream: ref.URL})
	// A login answer without its token would be schema.shown; the
	// reference answers one, so the login is judged quiet. The input
	// without a token is the client's error once hostd is known.
	if status, _ := postJSON(t, tp.http+"/auth/login", "", map[string]any{"username": "demo", "password": "demo"}); status != http.StatusOK {
		t.Fatalf("login: %d", status)
	}
	host := startNaiveHost(t, tp.url, "run_a1")
	if status, _ := postJSON(t, tp.http+"/runs/run_a1/input", "", map[string]any{"input_id": "u1", "text": "x\n"}); status != http.StatusUnauthorized {
		t.Fatalf("input without a token: %d", status)
	}
	host.c.closeWith(1000, "bye")
	host.c.closed()
	r := tp.Stop()
	rec := tp.rec.String()
	if !strings.Contains(rec, `"version":2`) || !strings.Contains(rec, `{"kind":"http","conn":"h1","time":`) {
		t.Errorf("want a version-2 recording with the login before the dialect was known:\n%s", rec)
	}
	if !hasRule(r, "hostd.http-no-bearer") || hasRule(r, "proxy.upstream-refused") {
		t.Errorf("findings: %s", describeFindings(findings(r)))
	}
	sameOffline(t, tp, r)
}
