package runner

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// TestClassifyDialTLS: a scenario's handshake with a wss:// target that
// answers in plain HTTP is a harness error saying to use ws:// (never
// --insecure, never a failure blamed on the server); one whose certificate
// is not trusted suggests --insecure.
func TestClassifyDialTLS(t *testing.T) {
	t.Parallel()
	plain := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(plain.Close)
	untrusted := httptest.NewTLSServer(http.NotFoundHandler())
	t.Cleanup(untrusted.Close)
	for _, tt := range []struct {
		name, url, want string
		insecure        bool
	}{
		{"plain HTTP", "wss" + strings.TrimPrefix(plain.URL, "http") + "/ws", "the target does not speak TLS on this port: use ws" + strings.TrimPrefix(plain.URL, "http") + "/ws", false},
		{"plain HTTP, --insecure", "wss" + strings.TrimPrefix(plain.URL, "http") + "/ws", "the target does not speak TLS on this port: use ws://", true},
		{"untrusted certificate", "wss" + strings.TrimPrefix(untrusted.URL, "https") + "/ws", "use --insecure to accept this certificate", false},
	} {
		d := websocket.Dialer{TLSClientConfig: &tls.Config{InsecureSkipVerify: tt.insecure}}
		conn, resp, err := d.DialContext(context.Background(), tt.url, nil)
		if err == nil {
			conn.Close()
			t.Fatalf("%s: the handshake succeeded", tt.name)
		}
		got := classifyDial(tt.url, resp, err)
		if !isHarness(got) || !strings.Contains(got.Error(), tt.want) {
			t.Errorf("%s: %v (harness error: %t), want it to say %q", tt.name, got, isHarness(got), tt.want)
		}
		if strings.Contains(tt.want, "TLS on this port") && strings.Contains(got.Error(), "--insecure") {
			t.Errorf("%s: %v suggests --insecure", tt.name, got)
		}
	}
}
