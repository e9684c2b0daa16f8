//go:build unix

package proxy

import (
	"context"
	"encoding/json"
	"github.com/wsconform/wsconform/internal/cdp"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/reference"
	"github.com/wsconform/wsconform/reference/server"
	"github.com/wsconform/wsconform/reports"
)

// The browser tests run one at a time (not in parallel): each Chromium
// takes a core.

// sameOriginPage opens the app's WebSocket on the origin that served it,
// as a browser app does, and shows what happened.
const sameOriginPage = `<!doctype html><meta charset="utf-8"><title>same origin</title>
<p>Status: <span id="status">connecting…</span></p>
<script>
const ws = new WebSocket("ws://" + location.host + "/ws");
ws.onopen = () => ws.send(JSON.stringify({type: "hello", v: "1.0.0", client_capabilities: []}));
ws.onmessage = (ev) => {
  const m = JSON.parse(ev.data);
  if (m.type === "welcome") document.getElementById("status").textContent = "connected " + m.session_state.session_id;
};
ws.onerror = () => document.getElementById("status").textContent = "connection failed";
</script>`

// TestBrowserSameOrigin: a page served by a same-origin-checking server
// (gorilla's default CheckOrigin), loaded in Chromium through the proxy.
// With the defaults (Host and Origin kept) the UI works and the report
// passes. With --host upstream the server refuses the handshake (Origin
// names the proxy, Host the upstream): the page cannot connect, and the
// report's verdict is error with the 403, not passed. --host upstream
// --origin upstream works again.
func TestBrowserSameOrigin(t *testing.T) {
	up := startSameOrigin(t, sameOriginPage)
	b := cdp.Start(t, cdp.Options{Window: "1000,800"})
	b.Timeout, b.Diag = 2*timeout, "document.getElementById(\"status\") && document.getElementById(\"status\").textContent"
	for _, tc := range []struct {
		name, host, origin string
		works              bool
	}{
		{"defaults", "", "", true},
		{"host-upstream", HostUpstream, OriginKeep, false},
		{"both-upstream", HostUpstream, OriginUpstream, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b.Use(t)
			tp := startProxy(t, Config{Upstream: up.url, Host: tc.host, Origin: tc.origin})
			b.Navigate(tp.http + "/")
			// the page's own final words: while the document is still being
			// parsed the span can read "connecting" without its "…"
			b.WaitFor("the page's verdict", `/^(connected |connection failed)/.test(document.getElementById("status").textContent)`)
			status := b.Text("status")
			if tc.works != strings.HasPrefix(status, "connected sess_same") {
				t.Fatalf("page status %q", status)
			}
			if tc.name == "defaults" {
				b.Screenshot("wsproxy-same-origin.png")
			}
			b.Navigate("about:blank") // the page's socket closes
			r := tp.Stop()
			if tc.works {
				if r.Verdict != reports.Passed || len(r.Sessions) != 1 || r.Sessions[0].ID != "sess_same" {
					t.Errorf("verdict %s, sessions %+v, errors %v", r.Verdict, r.Sessions, r.Errors)
				}
				return
			}
			fs := findings(r)
			if r.Verdict != reports.Error || len(fs) != 1 || fs[0].Rule != RuleUpstreamRefused.ID ||
				!strings.HasPrefix(fs[0].Actual, "403 Forbidden") {
				t.Fatalf("verdict %s, findings %s", r.Verdict, describeFindings(fs))
			}
			if !strings.Contains(tp.console.String(), "403 Forbidden") || strings.Contains(tp.console.String(), "PASS") {
				t.Errorf("console:\n%s", tp.console.String())
			}
		})
	}
}

// uiUpstream serves the minicodex UI of testdata/minicodex-ui at / and
// the reference server (with mutations) at /ws, on one origin.
func uiUpstream(t *testing.T, mutate ...string) string {
	t.Helper()
	page, err := os.ReadFile("testdata/minicodex-ui/index.html")
	if err != nil {
		t.Fatal(err)
	}
	h, env, _, err := reference.Handler(reference.Options{Dialects: []string{"minicodex"}, Mutate: mutate,
		Config: server.Config{Heartbeat: -1, Slow: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	})
	mux.Handle("/ws", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		_ = env.Shutdown(ctx)
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// TestBrowserMinicodexUIReload: the real minicodex UI in Chromium through
// the proxy: hello, a streamed turn, a reload mid-session (the page
// resumes from the last event it rendered, kept in localStorage), a second
// turn. The report ties both connections into the session the page kept,
// says nothing against a faithful server, and names the planted fault of
// a server whose replay repeats the event the client last saw.
func TestBrowserMinicodexUIReload(t *testing.T) {
	b := cdp.Start(t, cdp.Options{Window: "1000,800"})
	b.Timeout, b.Diag = 2*timeout, "document.getElementById(\"status\") && document.getElementById(\"status\").textContent"
	for _, mutation := range []string{"", "minicodex-replay-duplicates"} {
		t.Run("mutation="+mutation, func(t *testing.T) {
			b.Use(t)
			var mutate []string
			if mutation != "" {
				mutate = []string{mutation}
			}
			tp := startProxy(t, Config{Upstream: uiUpstream(t, mutate...)}) // dialect auto
			// A new proxy is a new origin (its port): its localStorage is empty.
			b.Navigate(tp.http + "/")
			b.WaitFor("the hello", `document.getElementById("status").textContent.startsWith("connected ")`)
			send := func(text string) {
				b.Eval(`document.getElementById("text").value = ` + jsString(text) + `; document.getElementById("send").click(); true`)
			}
			send("/stream 5")
			b.WaitFor("the first turn", `document.getElementById("turns").textContent === "1"`)
			var sid, last string
			_ = json.Unmarshal(b.Eval(`localStorage.getItem("minicodex.session_id")`), &sid)
			_ = json.Unmarshal(b.Eval(`localStorage.getItem("minicodex.last_seen_event_id")`), &last)

			b.Reload()
			b.WaitFor("the resume", `document.getElementById("status").textContent.startsWith("resumed ")`)
			send("/stream 3")
			b.WaitFor("the turn after the reload", `document.getElementById("turns").textContent === "1"`)
			if got := b.Text("status"); got != "resumed "+sid {
				t.Errorf("page status %q, want resumed %s", got, sid)
			}
			var dups string
			_ = json.Unmarshal(b.Eval(`document.body.dataset.duplicates || "0"`), &dups)
			if mutation == "" {
				b.Screenshot("wsproxy-minicodex-ui.png")
			}
			b.Navigate("about:blank")
			r := tp.Stop()

			if len(r.Sessions) != 1 || r.Sessions[0].ID != sid || len(r.Sessions[0].Conns) != 2 {
				t.Fatalf("sessions %+v, want one, %s, of two connections", r.Sessions, sid)
			}
			c1, c2 := r.Sessions[0].Conns[0], r.Sessions[0].Conns[1]
			if c2.Parent != c1.ID {
				t.Errorf("the reloaded page's connection %+v does not reconnect %s", c2, c1.ID)
			}
			if r.Dialects[0] != "minicodex" || len(r.Notes) != 0 {
				t.Errorf("dialects %v, notes %q", r.Dialects, r.Notes)
			}
			fs := findings(r)
			t.Logf("session %s, last seen before the reload %s, duplicates the page skipped %s, findings: %s", sid, last, dups, describeFindings(fs))
			switch mutation {
			case "":
				if len(fs) != 0 || r.Verdict != reports.Passed {
					t.Errorf("a faithful server through a real UI: verdict %s, findings %s", r.Verdict, describeFindings(fs))
				}
			default:
				var errs []reports.Finding
				for _, f := range fs {
					if f.Severity == check.Error {
						errs = append(errs, f)
					}
				}
				if len(errs) != 1 || errs[0].Rule != "minicodex.replay-duplicate" || r.Verdict != reports.Failed {
					t.Errorf("planted fault: verdict %s, errors %s", r.Verdict, describeFindings(errs))
				}
				if dups != "1" {
					t.Errorf("the page skipped %s duplicates, want 1", dups)
				}
			}
		})
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
