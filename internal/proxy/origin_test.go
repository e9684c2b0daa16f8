package proxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reports"
)

// sameOriginServer is an app as many are written: a page and a WebSocket
// endpoint on one origin, the endpoint upgraded by gorilla with its
// default CheckOrigin (Origin's host must equal Host). The socket answers
// a minicodex hello with a welcome and echoes a text as an assistant_text,
// so the proxy has dialect traffic to judge; other paths echo what they
// get.
type sameOriginServer struct {
	srv   *httptest.Server
	url   string // ws://127.0.0.1:PORT
	mu    sync.Mutex
	hosts []string
}

func startSameOrigin(t testing.TB, page string) *sameOriginServer {
	t.Helper()
	s := &sameOriginServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page)
	})
	mux.HandleFunc("/boom", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "database on fire", http.StatusInternalServerError)
	})
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("session_id") {
			// a server that is restarting refuses the resumption
			http.Error(w, "restarting", http.StatusServiceUnavailable)
			return
		}
		s.serveWS(w, r)
	})
	mux.HandleFunc("/ws/notifications", s.serveWS)
	s.srv = httptest.NewServer(mux)
	s.url = "ws" + strings.TrimPrefix(s.srv.URL, "http")
	t.Cleanup(s.srv.Close)
	return s
}

func (s *sameOriginServer) serveWS(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hosts = append(s.hosts, r.Host)
	s.mu.Unlock()
	ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil) // default CheckOrigin: same origin only
	if err != nil {
		return
	}
	defer ws.Close()
	n := 0
	for {
		op, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		if r.URL.Path != "/ws" {
			_ = ws.WriteMessage(op, data)
			continue
		}
		var out string
		if strings.Contains(string(data), `"hello"`) {
			out = `{"type":"welcome","v":"1.0.0","session_state":{"session_id":"sess_same","version":"1.0.0","capabilities":[],"run_counter":0}}`
		} else {
			n++
			out = `{"type":"assistant_text","event_id":` + strconv.Itoa(n) + `,"text":"echo","ts":"2026-01-01T00:00:00.000Z","run_id":"run_1","turn_id":"turn_1","session_id":"sess_same"}`
		}
		if ws.WriteMessage(websocket.TextMessage, []byte(out)) != nil {
			return
		}
	}
}

// TestHostAndOrigin: a browser's page loaded through the proxy sends the
// proxy's origin. With the defaults (Host and Origin kept) the
// same-origin server accepts it; with --host upstream alone it refuses
// (and the report's verdict is error with the 403, not passed); with
// --host upstream --origin upstream it accepts again; a foreign page's
// Origin is never rewritten.
func TestHostAndOrigin(t *testing.T) {
	t.Parallel()
	up := startSameOrigin(t, "<p>app</p>")
	for _, tc := range []struct {
		name, host, origin string
		foreign            bool
		want               int
	}{
		{"defaults keep both", "", "", false, http.StatusSwitchingProtocols},
		{"host upstream, origin kept", HostUpstream, OriginKeep, false, http.StatusForbidden},
		{"both upstream", HostUpstream, OriginUpstream, false, http.StatusSwitchingProtocols},
		{"foreign origin stays foreign", HostUpstream, OriginUpstream, true, http.StatusForbidden},
		{"foreign origin, host kept", HostKeep, OriginUpstream, true, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// --allow-origin '*': the foreign page reaches the upstream,
			// which refuses it (the proxy's own check: TestAllowOrigin)
			tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex", Host: tc.host, Origin: tc.origin, AllowOrigins: []string{"*"}})
			origin := tp.http
			if tc.foreign {
				origin = "http://evil.example"
			}
			ws, resp, err := websocket.DefaultDialer.Dial(tp.url+"/ws", http.Header{"Origin": {origin}})
			got := 0
			if resp != nil {
				got = resp.StatusCode
			}
			if got != tc.want {
				t.Fatalf("status %d (%v), want %d", got, err, tc.want)
			}
			if ws != nil {
				if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`)); err != nil {
					t.Fatal(err)
				}
				if _, data, err := ws.ReadMessage(); err != nil || !strings.Contains(string(data), "welcome") {
					t.Fatalf("read %q %v", data, err)
				}
				_ = ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(1000, ""))
				_, _, _ = ws.ReadMessage()
				ws.Close()
			}
			r := tp.Stop()
			if tc.want == http.StatusSwitchingProtocols {
				if r.Verdict != reports.Passed {
					t.Errorf("verdict %s, errors %v, findings %s", r.Verdict, r.Errors, describeFindings(findings(r)))
				}
				return
			}
			if r.Verdict != reports.Error {
				t.Fatalf("verdict %s, want error", r.Verdict)
			}
			fs := findings(r)
			if len(fs) != 1 || fs[0].Rule != RuleUpstreamRefused.ID || !strings.HasPrefix(fs[0].Actual, "403 Forbidden") {
				t.Errorf("findings %s", describeFindings(fs))
			}
		})
	}
	up.mu.Lock()
	defer up.mu.Unlock()
	if len(up.hosts) == 0 || strings.HasPrefix(up.hosts[0], strings.TrimPrefix(up.url, "ws://")) {
		t.Errorf("hosts seen upstream %v: the first (defaults) should be the proxy's", up.hosts)
	}
}

// TestHTTPRefusals: plain HTTP answers of 5xx and 4xx are warnings next
// to a judged session (a 5xx alone would be an error of the report: see
// TestRefusalVerdicts), a missing favicon nothing; the client gets the
// upstream's answer in every case. Each is in the report however soon the
// proxy stops after the client had its answer (TestShutdownWaitsForHTTP).
func TestHTTPRefusals(t *testing.T) {
	t.Parallel()
	up := startSameOrigin(t, "<p>app</p>")
	tp := startProxy(t, Config{Upstream: up.url, Dialect: "minicodex"})
	for path, want := range map[string]int{"/": 200, "/boom": 500, "/missing": 404, "/favicon.ico": 404} {
		resp, err := http.Get(tp.http + path)
		if err != nil || resp.StatusCode != want {
			t.Fatalf("GET %s: %v %v", path, resp, err)
		}
		resp.Body.Close()
	}
	c := dial(t, tp.url+"/ws", http.Header{"Origin": {tp.http}})
	c.send(map[string]any{"type": "hello", "v": "1.0.0"})
	c.next()
	c.closeWith(1000, "")
	c.closed()
	r := tp.Stop()
	bySession := map[string]reports.Session{}
	for _, s := range r.Sessions {
		bySession[s.ID] = s
	}
	if s := bySession["http GET /boom 500"]; s.Verdict != reports.NonStrict || len(s.Findings) != 1 || s.Findings[0].Actual != "500 Internal Server Error: database on fire" {
		t.Errorf("/boom session %+v", s)
	}
	if s := bySession["http GET /missing 404"]; s.Verdict != reports.NonStrict {
		t.Errorf("/missing session %+v", s)
	}
	if s := bySession["sess_same"]; s.Verdict != reports.Passed {
		t.Errorf("judged session %+v", s)
	}
	if _, ok := bySession["http GET /favicon.ico 404"]; ok || r.Verdict != reports.NonStrict {
		t.Errorf("verdict %s, sessions %v", r.Verdict, bySession)
	}
}
