package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/agent"
	"github.com/wsconform/wsconform/reference/hostd"
	"github.com/wsconform/wsconform/reference/server"
)

func postJSON(t *testing.T, url, token string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// TestHostdThroughProxy: hostd's HTTP login and input endpoints work
// through the proxy (reverse-proxied), the host daemon and the app both
// connect through it, every hostd connection is judged in one session, and
// a server that alters what it forwards to the apps is caught by comparing
// the app side with the host side.
func TestHostdThroughProxy(t *testing.T) {
	t.Parallel()
	for _, mutation := range []string{"", "hostd-forward-alters"} {
		t.Run("mutation="+mutation, func(t *testing.T) {
			t.Parallel()
			opts := reference.Options{Dialects: []string{"hostd"}, NoScriptedHost: true,
				Config: server.Config{Heartbeat: -1}}
			if mutation != "" {
				opts.Mutate = []string{mutation}
			}
			ref, err := reference.Start(context.Background(), "127.0.0.1:0", opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = ref.Shutdown(context.Background()) })
			tp := startProxy(t, Config{Upstream: ref.URL})

			status, body := postJSON(t, tp.http+"/auth/login", "", map[string]any{"username": "demo", "password": "demo"})
			token, _ := body["access_token"].(string)
			if status != http.StatusOK || token == "" {
				t.Fatalf("login through the proxy: %d %v", status, body)
			}
			app := dial(t, tp.url+"/ws/app?token="+token, nil)
			ctx, cancel := context.WithCancel(context.Background())
			hostDone := make(chan error, 1)
			go func() {
				hostDone <- hostd.RunScriptedHost(ctx, tp.url, hostd.HostOptions{Pace: hostPace()})
			}()
			first := app.until("type", "run.awaiting_input")
			run := first[0].str("run_id")
			if first[0].str("type") != "run.started" || run == "" {
				t.Fatalf("app got %s first", first[0].data)
			}
			status, body = postJSON(t, tp.http+"/runs/"+run+"/input", token,
				map[string]any{"input_id": "7f1c2a9e-8b7d-4c6e-9f00-123456789abc", "text": "hello\n"})
			if status != http.StatusAccepted {
				t.Fatalf("input through the proxy: %d %v", status, body)
			}
			app.until("type", "run.awaiting_input")
			app.closeWith(1000, "bye")
			app.closed()
			cancel()
			if err := <-hostDone; err != nil {
				t.Errorf("scripted host: %v", err)
			}
			r := tp.Stop()
			if len(r.Sessions) != 1 || r.Sessions[0].ID != "hostd" || len(r.Sessions[0].Conns) != 2 {
				t.Fatalf("want the app and the host in one session, got %+v", r.Sessions)
			}
			errs := errorsOf(r)
			if mutation == "" && len(errs) > 0 {
				t.Errorf("clean hostd gave errors: %s", describeFindings(errs))
			}
			if mutation != "" && !hasRule(r, "hostd.replay-mismatch") {
				t.Errorf("altered forwarding not caught: %s", describeFindings(findings(r)))
			}
			out := tp.console.String()
			for _, want := range []string{"HTTP POST /auth/login → 200", "HTTP POST /runs/" + run + "/input → 202", "dialect hostd"} {
				if !strings.Contains(out, want) {
					t.Errorf("console lacks %q:\n%s", want, out)
				}
			}
			sameOffline(t, tp, r)
		})
	}
}

func hostPace() agent.Pace { return agent.Pace{Slow: 10 * time.Millisecond} }
