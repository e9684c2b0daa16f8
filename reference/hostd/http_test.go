package hostd_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/reference/server"
)

func TestLogin(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	a, b := login(t, srv), login(t, srv)
	if a == b {
		t.Errorf("two logins gave the same token %q", a)
	}
	// A token opens /ws/app; checked in TestSocketAuth.
}

func TestLoginConfiguredCredentials(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{Auth: server.Auth{User: "ada", Password: "lovelace", HostToken: "h"}})
	if r := do(t, srv, http.MethodPost, "/auth/login", "", map[string]any{"username": "demo", "password": "demo"}); r.status != http.StatusUnauthorized {
		t.Errorf("demo login on a server configured for ada: %d %s", r.status, r.raw)
	}
	r := do(t, srv, http.MethodPost, "/auth/login", "", map[string]any{"username": "ada", "password": "lovelace", "remember": true})
	if r.status != http.StatusOK || r.str("access_token") == "" {
		t.Errorf("configured login: %d %s", r.status, r.raw)
	}
}

// TestHTTPErrors drives every HTTP error in the situation that produces it;
// each answer has a JSON body {error, message}.
func TestHTTPErrors(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{MaxFrame: 1024})
	tok := login(t, srv)
	host := dialHost(t, srv, "h1", "")
	sendAcked(t, host, started("run_live", 1))
	sendAcked(t, host, started("run_done", 1), exited("run_done", 2, 0))
	off := dialHost(t, srv, "h2", "")
	sendAcked(t, off, started("run_offline", 1))
	off.Close()
	if r := postInput(t, srv, tok, "run_live", uuid(1), "first\n"); r.status != http.StatusAccepted {
		t.Fatalf("first input: %d %s", r.status, r.raw)
	}
	host.Expect("run.send_input")
	// The server learns of off's close on its own goroutine: poll (fresh
	// input ids, as an input forwarded before that stays a duplicate).
	n := 100
	eventually(t, "host h2 offline", func() bool {
		n++
		return postInput(t, srv, tok, "run_offline", uuid(n), "x").status == http.StatusConflict
	})

	bearer := "Bearer " + tok
	good := map[string]any{"input_id": uuid(2), "text": "hi\n"}
	tests := []struct {
		name, method, path, auth string
		body                     any
		status                   int
		code                     string
	}{
		{"login wrong password", "POST", "/auth/login", "", map[string]any{"username": "demo", "password": "nope"}, 401, "invalid_credentials"},
		{"login unknown user", "POST", "/auth/login", "", map[string]any{"username": "eve", "password": "demo"}, 401, "invalid_credentials"},
		{"login invalid JSON", "POST", "/auth/login", "", `{"username":`, 400, "bad_request"},
		{"login not an object", "POST", "/auth/login", "", `["demo","demo"]`, 400, "bad_request"},
		{"login missing password", "POST", "/auth/login", "", map[string]any{"username": "demo"}, 400, "bad_request"},
		{"login password not a string", "POST", "/auth/login", "", map[string]any{"username": "demo", "password": 1234}, 400, "bad_request"},
		{"login empty body", "POST", "/auth/login", "", nil, 400, "bad_request"},
		{"login too large", "POST", "/auth/login", "", `{"username":"` + strings.Repeat("a", 2000) + `"}`, 413, "too_large"},
		{"login with GET", "GET", "/auth/login", "", nil, 405, "method_not_allowed"},
		{"input without token", "POST", "/runs/run_live/input", "", good, 401, "unauthorized"},
		{"input with bad token", "POST", "/runs/run_live/input", "Bearer at_nope", good, 401, "invalid_token"},
		{"input with basic auth", "POST", "/runs/run_live/input", "Basic ZGVtbzpkZW1v", good, 401, "invalid_token"},
		{"input unknown run", "POST", "/runs/run_nope/input", bearer, good, 404, "run_not_found"},
		{"input host offline", "POST", "/runs/run_offline/input", bearer, good, 409, "host_offline"},
		{"input run exited", "POST", "/runs/run_done/input", bearer, good, 409, "run_exited"},
		{"input id reused with other text", "POST", "/runs/run_live/input", bearer, map[string]any{"input_id": uuid(1), "text": "second\n"}, 422, "input_id_reused"},
		{"input invalid JSON", "POST", "/runs/run_live/input", bearer, `{"input_id"`, 400, "bad_request"},
		{"input missing text", "POST", "/runs/run_live/input", bearer, map[string]any{"input_id": uuid(3)}, 400, "bad_request"},
		{"input missing input_id", "POST", "/runs/run_live/input", bearer, map[string]any{"text": "x"}, 400, "bad_request"},
		{"input input_id not a UUID", "POST", "/runs/run_live/input", bearer, map[string]any{"input_id": "42", "text": "x"}, 400, "bad_request"},
		{"input text not a string", "POST", "/runs/run_live/input", bearer, map[string]any{"input_id": uuid(3), "text": []string{"x"}}, 400, "bad_request"},
		{"input too large", "POST", "/runs/run_live/input", bearer, map[string]any{"input_id": uuid(3), "text": strings.Repeat("x", 2000)}, 413, "too_large"},
		{"input with GET", "GET", "/runs/run_live/input", bearer, nil, 405, "method_not_allowed"},
		{"unknown path", "GET", "/nope", "", nil, 404, "not_found"},
		{"runs without input", "POST", "/runs/run_live", bearer, good, 404, "not_found"},
		{"app socket without upgrade", "GET", "/ws/app?token=" + tok, "", nil, 426, "websocket_required"},
		{"host socket with POST", "POST", "/ws/host?host_id=h&host_token=" + hostToken, "", nil, 405, "method_not_allowed"},
	}
	for _, tt := range tests {
		r := do(t, srv, tt.method, tt.path, tt.auth, tt.body)
		if r.status != tt.status || r.str("error") != tt.code || r.str("message") == "" {
			t.Errorf("%s: got %d %s; want %d with error %q and a message", tt.name, r.status, r.raw, tt.status, tt.code)
		}
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: Content-Type %q", tt.name, ct)
		}
		if tt.status == 401 && r.header.Get("WWW-Authenticate") == "" && tt.code != "invalid_credentials" {
			t.Errorf("%s: 401 without WWW-Authenticate", tt.name)
		}
	}
	// None of the refused inputs reached the host: the next thing it gets
	// is this stop.
	app := dialApp(t, srv, tok, "&run_id=run_live")
	app.Send(stop("run_live", map[string]any{}))
	if m := host.Next(); m.Type != "run.stop" {
		t.Errorf("host got %s after the refused inputs, want run.stop", m.Raw)
	}
}

func TestBadFaultQuery(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	_, resp, err := srv.TryDial(t, "/ws/app?token=x&fault=explode=1")
	if err == nil || resp == nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("dial with a bad fault: %v %v", err, resp)
	}
}

// TestInputIdempotent: the same input_id twice is forwarded once; the
// second answer says duplicate.
func TestInputIdempotent(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	tok := login(t, srv)
	host := dialHost(t, srv, "h1", "")
	sendAcked(t, host, started("r1", 1))
	first := postInput(t, srv, tok, "r1", uuid(7), "ls\n")
	if first.status != http.StatusAccepted || first.str("status") != "forwarded" || first.body["duplicate"] != false {
		t.Fatalf("first post: %d %s", first.status, first.raw)
	}
	fwd := host.Expect("run.send_input")
	if fwd.Str("/run_id") != "r1" || fwd.Str("/data/input_id") != uuid(7) || fwd.Str("/data/text") != "ls\n" || fwd.Str("/host_id") != "h1" {
		t.Errorf("forwarded %s", fwd.Raw)
	}
	again := postInput(t, srv, tok, "r1", uuid(7), "ls\n")
	if again.status != http.StatusOK || again.str("status") != "duplicate" || again.body["duplicate"] != true {
		t.Fatalf("second post: %d %s", again.status, again.raw)
	}
	// Recorded by the host, the id stays a duplicate, even over /ws/app.
	sendAcked(t, host, ev("run.input", "r1", 2, map[string]any{"actor": "web", "input_id": uuid(7), "text_redacted": "ls", "text_sha256": sum("ls\n")}))
	app := dialApp(t, srv, tok, "")
	app.Send(sendInput("r1", uuid(7), "ls\n"))
	if r := postInput(t, srv, tok, "r1", uuid(7), "ls\n"); r.status != http.StatusOK {
		t.Errorf("post after run.input: %d %s", r.status, r.raw)
	}
	// An input the host recorded on its own (typed at the CLI) counts too.
	sendAcked(t, host, ev("run.input", "r1", 3, map[string]any{"actor": "cli", "input_id": uuid(8), "text_redacted": "pwd", "text_sha256": sum("pwd\n")}))
	if r := postInput(t, srv, tok, "r1", uuid(8), "pwd\n"); r.str("status") != "duplicate" {
		t.Errorf("post of a CLI-recorded input: %d %s", r.status, r.raw)
	}
	app.Send(stop("r1", map[string]any{"signal": "kill"}))
	if m := host.Next(); m.Type != "run.stop" || m.Str("/data/signal") != "kill" {
		t.Errorf("host got %s, want only the run.stop after the duplicates", m.Raw)
	}
}
