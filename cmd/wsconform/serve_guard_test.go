package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// dialStatus dials url with header and returns the handshake's status
// (101 on success; the connection is closed at cleanup) and the refusal's
// error code.
func dialStatus(t *testing.T, url string, header http.Header) (int, string) {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(url, header)
	if err == nil {
		t.Cleanup(func() { ws.Close() })
		return resp.StatusCode, ""
	}
	if resp == nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	defer resp.Body.Close()
	var body struct{ Error string }
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body.Error
}

func TestServeRefusesCrossOriginPages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		origin string // "SELF" is the server's own origin
		status int
	}{
		{"no Origin: not a browser", nil, "", http.StatusSwitchingProtocols},
		{"same origin", nil, "SELF", http.StatusSwitchingProtocols},
		{"foreign page", nil, "http://evil.example", http.StatusForbidden},
		{"listed origin", []string{"--allow-origin", "http://localhost:3000"}, "http://localhost:3000", http.StatusSwitchingProtocols},
		{"unlisted origin with a list", []string{"--allow-origin", "http://localhost:3000"}, "http://localhost:3001", http.StatusForbidden},
		{"any origin", []string{"--allow-origin", "*"}, "http://evil.example", http.StatusSwitchingProtocols},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l, _ := serving(t, append([]string{"--dialect", "minicodex"}, tt.args...)...)
			h := http.Header{}
			switch tt.origin {
			case "":
			case "SELF":
				h.Set("Origin", "http"+strings.TrimPrefix(l.URL, "ws"))
			default:
				h.Set("Origin", tt.origin)
			}
			status, code := dialStatus(t, l.URL+"/ws", h)
			if status != tt.status || (status == http.StatusForbidden && code != "bad_origin") {
				t.Errorf("Origin %q: %d %q, want %d", h.Get("Origin"), status, code, tt.status)
			}
		})
	}
}

func TestServeRefusesForeignHosts(t *testing.T) {
	t.Parallel()
	l, _ := serving(t, "--dialect", "hostd", "--no-scripted-host")
	allowed, _ := serving(t, "--dialect", "hostd", "--no-scripted-host", "--allow-host", "dev.example")
	port := l.URL[strings.LastIndex(l.URL, ":"):]
	for _, tt := range []struct {
		url, host string
		status    int
	}{
		{l.URL, "rebound.example" + port, http.StatusForbidden},
		{l.URL, "localhost" + port, http.StatusSwitchingProtocols}, // past the Host check (then refused for want of a token)
		{l.URL, "127.0.0.1" + port, http.StatusSwitchingProtocols},
		{allowed.URL, "dev.example", http.StatusSwitchingProtocols},
		{allowed.URL, "rebound.example", http.StatusForbidden},
	} {
		status, code := dialStatus(t, tt.url+"/ws/app", http.Header{"Host": {tt.host}})
		if status != tt.status || (status == http.StatusForbidden && code != "bad_host") {
			t.Errorf("WebSocket with Host %s: %d %q, want %d", tt.host, status, code, tt.status)
		}
		// The plain HTTP endpoints are guarded too.
		req, _ := http.NewRequest(http.MethodPost, "http"+strings.TrimPrefix(tt.url, "ws")+"/auth/login", strings.NewReader(`{"username":"demo","password":"demo"}`))
		req.Host = tt.host
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if (resp.StatusCode == http.StatusForbidden) != (tt.status == http.StatusForbidden) {
			t.Errorf("POST /auth/login with Host %s: %d", tt.host, resp.StatusCode)
		}
	}
}

func TestServeConnectionLimit(t *testing.T) {
	t.Parallel()
	l, _ := serving(t, "--dialect", "minicodex", "--max-conns", "2")
	var open []*websocket.Conn
	for range 2 {
		ws, _, err := websocket.DefaultDialer.Dial(l.URL+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		open = append(open, ws)
	}
	if status, code := dialStatus(t, l.URL+"/ws", nil); status != http.StatusServiceUnavailable || code != "too_many_connections" {
		t.Fatalf("third connection: %d %q, want 503", status, code)
	}
	// Closing one frees its slot once the server has seen it end.
	_ = open[0].WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	for {
		if _, _, err := open[0].ReadMessage(); err != nil {
			break
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, _ := dialStatus(t, l.URL+"/ws", nil)
		if status == http.StatusSwitchingProtocols {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no slot after a connection closed: %d", status)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestServeIdleTimeout(t *testing.T) {
	t.Parallel()
	l, _ := serving(t, "--dialect", "minicodex", "--idle-timeout", "300ms")
	talker, _, err := websocket.DefaultDialer.Dial(l.URL+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer talker.Close()
	if err := talker.WriteJSON(map[string]any{"type": "hello", "v": "1.0.0"}); err != nil {
		t.Fatal(err)
	}
	silent, _, err := websocket.DefaultDialer.Dial(l.URL+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	// The silent connection, dialled after the talker, is closed 1001 once
	// its timeout passed; by then the talker's timeout has passed too.
	_ = silent.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		_, _, err := silent.ReadMessage()
		if err != nil {
			if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
				t.Fatalf("silent connection: %v, want close 1001", err)
			}
			break
		}
	}
	if err := talker.WriteJSON(map[string]any{"type": "ping", "req_id": "still"}); err != nil {
		t.Fatal(err)
	}
	_ = talker.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		var m map[string]any
		if err := talker.ReadJSON(&m); err != nil {
			t.Fatalf("the connection that spoke was closed: %v", err)
		}
		if m["type"] == "accepted" && m["req_id"] == "still" {
			return
		}
	}
}

func TestServeGuardUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--allow-origin", "evil.example"},
		{"--allow-origin", "http://x/path"},
		{"--allow-host", "a/b"},
		{"--max-conns", "0"},
		{"--idle-timeout", "0s"},
		{"--max-sessions", "0"},
		{"--max-sessions", "-2"},
		{"--session-ttl", "0s"},
	} {
		code, stdout, stderr := wsconform(t, append([]string{"serve"}, args...)...)
		if code != exitUsage {
			t.Errorf("serve %v: exit %d, want usage:\n%s%s", args, code, stdout, stderr)
		}
	}
}
