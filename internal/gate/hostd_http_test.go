package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// hostdClientEnv makes the test binary the hostd client of a gate test.
const hostdClientEnv = "WSCONFORM_GATE_HOSTD_CLIENT"

// TestHostdClientProcess is the hostd client program; skipped in normal
// runs.
func TestHostdClientProcess(t *testing.T) {
	mode := os.Getenv(hostdClientEnv)
	if mode == "" {
		t.Skip("only runs as the client of a gate test")
	}
	if err := hostdClient(mode); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(7)
	}
	os.Exit(0)
}

// hostdClient logs in over HTTP, watches a run on the app socket and
// answers its prompt over HTTP, once (mode "good"), or also sends the
// same input_id again with another text (mode "reuse": a client bug), or
// sends its input without the token (mode "no-token").
func hostdClient(mode string) error {
	base := os.Getenv("WSCONFORM_HTTP_URL")
	var login struct {
		AccessToken string `json:"access_token"`
	}
	if _, err := post(base+"/auth/login", "", map[string]string{"username": os.Getenv("WSCONFORM_USER"), "password": os.Getenv("WSCONFORM_PASSWORD")}, &login); err != nil {
		return err
	}
	conn, _, err := websocket.DefaultDialer.Dial(os.Getenv("WSCONFORM_APP_URL")+"?token="+url.QueryEscape(login.AccessToken), nil)
	if err != nil {
		return err
	}
	defer conn.Close()
	run := ""
	for run == "" {
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		var m map[string]any
		if err := conn.ReadJSON(&m); err != nil {
			return err
		}
		if m["type"] == "run.awaiting_input" {
			run, _ = m["run_id"].(string)
		}
	}
	token := login.AccessToken
	if mode == "no-token" {
		token = ""
	}
	const id = "5b0f7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e"
	in := base + "/runs/" + url.PathEscape(run) + "/input"
	status, err := post(in, token, map[string]string{"input_id": id, "text": "y\n"}, nil)
	if err != nil {
		return err
	}
	if mode == "reuse" {
		if _, err := post(in, token, map[string]string{"input_id": id, "text": "n\n"}, nil); err != nil {
			return err
		}
	}
	if status/100 == 2 {
		for { // the host records the input: the run goes on
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			var m map[string]any
			if err := conn.ReadJSON(&m); err != nil {
				return err
			}
			if m["type"] == "run.input" {
				break
			}
		}
	}
	return conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(1000, "done"))
}

func post(u, token string, body any, out any) (int, error) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(http.MethodPost, u, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s: %d: %w", u, resp.StatusCode, err)
		}
	}
	return resp.StatusCode, nil
}

// TestGateHostdHTTP: the gate judges a hostd client's HTTP requests with
// its frames. A good client passes; one that reuses an input_id with
// another text, or sends its input without the token, fails, and the
// finding names the rule and blames the client. The recording holds the
// exchanges.
// Not parallel: t.Setenv hands the mode to the client process.
func TestGateHostdHTTP(t *testing.T) {
	tests := []struct {
		mode string
		pass bool
		want string
	}{
		{"good", true, ""},
		{"reuse", false, "c2s:hostd.input-id-reused"},
		{"no-token", false, "c2s:hostd.http-no-bearer"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Setenv(hostdClientEnv, tt.mode)
			var out, rec bytes.Buffer
			res, err := Run(context.Background(), Options{Dialect: "hostd", Record: &rec,
				Command: []string{os.Args[0], "-test.run=^TestHostdClientProcess$"},
				Stdout:  &out, Stderr: &out, Console: &out, Color: "never", Timeout: 30 * time.Second})
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			got := rules(res.Report)
			if res.Passed() != tt.pass || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("passed %v (command %v), findings %q; want passed %v with %s\n%s", res.Passed(), res.CommandErr, got, tt.pass, tt.want, out.String())
			}
			t.Logf("%s", out.String())
			if tt.want != "" && !strings.Contains(out.String(), "http exchange ") {
				t.Errorf("the console does not name the HTTP exchange:\n%s", out.String())
			}
			if n := strings.Count(rec.String(), `"kind":"http"`); n < 2 {
				t.Errorf("recording holds %d http lines, want the login and the inputs", n)
			}
		})
	}
}
