package runner

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reports"
)

// helloFeature is one non-scripted scenario: hello is answered welcome.
var helloFeature = fstest.MapFS{"minicodex/hello.feature": {Data: []byte(`@minicodex
Feature: hello
  @id:t.hello @must
  Scenario: hello is answered
    Given a client connects
    When the client sends:
      """
      {"type": "hello", "v": "1.0.0"}
      """
    Then the client receives "welcome"
`)}}

// runHello runs helloFeature against url with short timeouts.
func runHello(t *testing.T, url string, insecure bool) reports.Scenario {
	t.Helper()
	to := DefaultTimeouts
	to.Scale = 0.2 // 1 s receive, 1 s connect: bad targets must not hang
	start := time.Now()
	res, err := Run(context.Background(), Options{Features: helloFeature, Targets: []Target{{Name: "t", URL: url}},
		Timeouts: to, Insecure: insecure})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 {
		t.Fatalf("got %d results, want 1", len(res))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s against a bad target", d)
	}
	return res[0]
}

// upgrader serves a WebSocket and hands it to fn.
func upgrader(fn func(c *websocket.Conn)) http.Handler {
	u := websocket.Upgrader{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := u.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		fn(c)
	})
}

func wsURL(s *httptest.Server) string { return "ws" + strings.TrimPrefix(s.URL, "http") + "/ws" }

func TestBadTargets(t *testing.T) {
	t.Parallel()
	refHandler, env, _, err := reference.Handler(reference.Options{Dialects: []string{"minicodex"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { env.Shutdown(context.Background()) })

	closed := httptest.NewServer(upgrader(func(c *websocket.Conn) {}))
	garbage := httptest.NewServer(upgrader(func(c *websocket.Conn) {
		_ = c.WriteMessage(websocket.BinaryMessage, []byte{0, 1, 2})
		_ = c.WriteMessage(websocket.TextMessage, []byte("{not json"))
		_, _, _ = c.ReadMessage()
		_, _, _ = c.ReadMessage()
	}))
	silent := httptest.NewServer(upgrader(func(c *websocket.Conn) {
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
		}
	}))
	refused := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	}))
	tlsRef := httptest.NewTLSServer(refHandler)
	hang, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { // accepts and never answers the handshake
		for {
			c, err := hang.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "ws://" + dead.Addr().String() + "/ws"
	dead.Close()
	for _, s := range []*httptest.Server{closed, garbage, silent, refused, tlsRef} {
		t.Cleanup(s.Close)
	}
	t.Cleanup(func() { hang.Close() })
	tlsURL := "wss" + strings.TrimPrefix(tlsRef.URL, "https") + "/ws"
	plainTLSURL := "wss" + strings.TrimPrefix(silent.URL, "http") + "/ws"

	tests := []struct {
		name     string
		url      string
		insecure bool
		want     reports.Verdict
		reason   string
	}{
		{"unreachable", deadURL, false, reports.Error, "unreachable"},
		{"tls untrusted certificate", tlsURL, false, reports.Error, "--insecure"},
		{"tls with --insecure", tlsURL, true, reports.Passed, ""},
		// a plain HTTP server on a wss:// target: --insecure cannot help
		{"wss to plain HTTP", plainTLSURL, false, reports.Error, "the target does not speak TLS on this port: use " + wsURL(silent)},
		{"wss to plain HTTP with --insecure", plainTLSURL, true, reports.Error, "the target does not speak TLS on this port: use " + wsURL(silent)},
		{"closes at once", wsURL(closed), false, reports.Failed, "1006"},
		{"binary and garbage", wsURL(garbage), false, reports.Failed, ""},
		{"never answers a message", wsURL(silent), false, reports.Failed, "within"},
		// a target that does not switch protocols is a target error (exit 3),
		// never a failed scenario: nothing was tested
		{"refuses the handshake", wsURL(refused), false, reports.Error, "HTTP 403"},
		{"never answers the handshake", "ws://" + hang.Addr().String() + "/ws", false, reports.Error, "did not answer the WebSocket handshake"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := runHello(t, tt.url, tt.insecure)
			if s.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %s", s.Verdict, tt.want, describe(s))
			}
			all := s.Reason
			for _, st := range s.Steps {
				all += " " + st.Error + " " + st.Expected + " " + st.Actual
			}
			if !strings.Contains(all, tt.reason) {
				t.Errorf("reason %q does not mention %q", all, tt.reason)
			}
			if strings.Contains(tt.reason, "does not speak TLS") && strings.Contains(all, "--insecure") {
				t.Errorf("reason %q suggests --insecure, which cannot help", all)
			}
		})
	}
}
