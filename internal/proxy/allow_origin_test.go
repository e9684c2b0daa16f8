package proxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reports"
)

// countingUpstream accepts every WebSocket (it checks no Origin) and
// counts the handshakes that reached it.
func countingUpstream(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		ws, err := (&websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http"), &n
}

// TestAllowOrigin: a page of another site cannot open a WebSocket through
// the proxy (WebSockets are not subject to CORS): real loopback handshakes
// with and without Origin, under the default rule, a listed origin and '*'.
// A refused one gets 403 naming the origin and the flag, never reaches the
// upstream, and is a proxy.origin-refused finding that names the origin;
// alone in the run, it makes the verdict error (nothing was tested).
func TestAllowOrigin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		allow  []string
		origin string // "self": the proxy's own http:// address
		want   int
		flag   string // the flag the refusal suggests
	}{
		{"no origin: a CLI", nil, "", http.StatusSwitchingProtocols, ""},
		{"the proxy's own page", nil, "self", http.StatusSwitchingProtocols, ""},
		{"a dev server on localhost", nil, "http://localhost:5173", http.StatusSwitchingProtocols, ""},
		{"a dev server on [::1]", nil, "https://[::1]:3000", http.StatusSwitchingProtocols, ""},
		{"another site", nil, "https://evil.example", http.StatusForbidden, "--allow-origin https://evil.example"},
		{"a sandboxed frame", nil, "null", http.StatusForbidden, "--allow-origin '*'"},
		{"a rebinding name", nil, "http://evil.example:8080", http.StatusForbidden, "--allow-origin http://evil.example:8080"},
		{"listed", []string{"https://app.example,https://evil.example"}, "https://evil.example", http.StatusSwitchingProtocols, ""},
		{"listed, another site", []string{"https://app.example"}, "https://evil.example", http.StatusForbidden, "--allow-origin https://evil.example"},
		{"star", []string{"*"}, "https://evil.example", http.StatusSwitchingProtocols, ""},
		{"star, null", []string{"*"}, "null", http.StatusSwitchingProtocols, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up, reached := countingUpstream(t)
			tp := startProxy(t, Config{Upstream: up, Dialect: "minicodex", AllowOrigins: tc.allow})
			origin := tc.origin
			if origin == "self" {
				origin = tp.http
			}
			h := http.Header{}
			if origin != "" {
				h.Set("Origin", origin)
			}
			c, resp, err := tryDial(t, tp.url+"/ws", h)
			if resp == nil || resp.StatusCode != tc.want {
				t.Fatalf("dial: %v %+v, want %d", err, resp, tc.want)
			}
			if tc.want == http.StatusSwitchingProtocols {
				c.closeWith(1000, "")
				c.closed()
				if r := tp.Stop(); r.Verdict == reports.Error || reached.Load() != 1 {
					t.Errorf("verdict %s, errors %v, upstream reached %d times", r.Verdict, r.Errors, reached.Load())
				}
				return
			}
			body, _ := io.ReadAll(resp.Body)
			if !strings.Contains(string(body), tc.flag) || !strings.Contains(string(body), origin) {
				t.Errorf("403 body %q lacks %q", body, tc.flag)
			}
			r := tp.Stop()
			if reached.Load() != 0 {
				t.Errorf("the upstream was dialled %d times for a refused page", reached.Load())
			}
			fs := findings(r)
			if r.Verdict != reports.Error || len(r.Sessions) != 1 || len(fs) != 1 || fs[0].Rule != RuleOriginRefused.ID ||
				!strings.Contains(fs[0].Message, tc.flag) || !strings.Contains(fs[0].Actual, origin) {
				t.Errorf("verdict %s, sessions %d, findings %s", r.Verdict, len(r.Sessions), describeFindings(fs))
			}
			if con := tp.console.String(); !strings.Contains(con, RuleOriginRefused.ID) || !strings.Contains(con, tc.flag) {
				t.Errorf("console lacks the refusal:\n%s", con)
			}
		})
	}
}

// TestRefusalVerdicts: a refused handshake is an error of the run only
// when nothing was judged, or when it refused a judged session's own
// reconnection; a stray one (a page of another origin, an old tab the
// upstream refuses) next to a judged session is a warning: its session is
// non-strict, the judged session keeps its verdict, and the report's
// verdict is that of the judged session with a warning (non-strict, never
// error).
func TestRefusalVerdicts(t *testing.T) {
	t.Parallel()
	up := startSameOrigin(t, "<p>app</p>")
	session := func(tp *testProxy) {
		c := dial(t, tp.url+"/ws", http.Header{"Origin": {tp.http}})
		c.send(map[string]any{"type": "hello", "v": "1.0.0"})
		c.next()
		c.closeWith(1000, "")
		c.closed()
	}
	refused := func(tp *testProxy, path, origin string, want int) {
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		if _, resp, err := tryDial(t, tp.url+path, h); resp == nil || resp.StatusCode != want {
			t.Fatalf("dial %s: %v %+v, want %d", path, err, resp, want)
		}
	}
	for _, tc := range []struct {
		name    string
		run     func(tp *testProxy)
		verdict reports.Verdict
		refused reports.Verdict // the refusals' session
	}{
		{"only a foreign page", func(tp *testProxy) { refused(tp, "/ws", "https://evil.example", 403) }, reports.Error, reports.Error},
		{"only an upstream refusal", func(tp *testProxy) { refused(tp, "/nowhere", "", 404) }, reports.Error, reports.Error},
		{"a foreign page next to a judged session", func(tp *testProxy) {
			session(tp)
			refused(tp, "/ws", "https://evil.example", 403)
		}, reports.NonStrict, reports.NonStrict},
		{"a foreign page before a judged session", func(tp *testProxy) {
			refused(tp, "/ws", "https://evil.example", 403)
			session(tp)
		}, reports.NonStrict, reports.NonStrict},
		{"an old tab the upstream refuses, next to a judged session", func(tp *testProxy) {
			session(tp)
			refused(tp, "/nowhere", "", 404)
		}, reports.NonStrict, reports.NonStrict},
		{"the judged session's reconnection refused", func(tp *testProxy) {
			session(tp)
			refused(tp, "/ws?session_id=sess_same", "", 503)
		}, reports.Error, reports.Error},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex"})
			tc.run(tp)
			r := tp.Stop()
			var judged, refusals []reports.Session
			for _, s := range r.Sessions {
				if strings.HasPrefix(s.ID, "refused ") {
					refusals = append(refusals, s)
				} else {
					judged = append(judged, s)
				}
			}
			if r.Verdict != tc.verdict || len(refusals) != 1 || refusals[0].Verdict != tc.refused {
				t.Fatalf("verdict %s (want %s), refusals %+v", r.Verdict, tc.verdict, refusals)
			}
			for _, s := range judged {
				if s.Verdict != reports.Passed {
					t.Errorf("judged session %s: %s", s.ID, s.Verdict)
				}
			}
			// the finding is a warning wherever it is counted: the root
			// causes agree with the session's verdict
			for _, rc := range r.RootCauses {
				if rc.Verdict() == reports.Error || rc.Verdict() == reports.Failed {
					t.Errorf("root cause %s is %s", rc.Rule, rc.Verdict())
				}
			}
			if tc.verdict == reports.Error && strings.Contains(tc.name, "reconnection") &&
				!strings.Contains(refusals[0].Findings[0].Message, "reconnection of session sess_same") {
				t.Errorf("finding %q does not say whose reconnection", refusals[0].Findings[0].Message)
			}
		})
	}
}
