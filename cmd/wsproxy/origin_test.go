package main

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reports"
)

// dialOrigin dials url as a browser page of origin would, and returns the
// handshake's status.
func dialOrigin(t *testing.T, url, origin string) (*websocket.Conn, int) {
	t.Helper()
	ws, resp, err := (&websocket.Dialer{HandshakeTimeout: timeout}).Dial(url, http.Header{"Origin": {origin}})
	if resp == nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	if ws != nil {
		t.Cleanup(func() { ws.Close() })
		_ = ws.SetReadDeadline(time.Now().Add(timeout))
	}
	return ws, resp.StatusCode
}

// TestAllowOriginFlag: by default wsproxy refuses a page of another site
// (403) and says on the console which origin and which flag allows it;
// --allow-origin (a comma list here) lets it through.
func TestAllowOriginFlag(t *testing.T) {
	t.Parallel()
	up := startRef(t, "minicodex").URL // checks no Origin itself
	l, stop := proxying(t, "--upstream", up, "--color", "never")
	if _, code := dialOrigin(t, l.URL+"/ws", "https://evil.example"); code != http.StatusForbidden {
		t.Errorf("another site's page: %d, want 403", code)
	}
	if _, code := dialOrigin(t, l.URL+"/ws", "http://localhost:5173"); code != http.StatusSwitchingProtocols {
		t.Errorf("a dev server's page: %d, want 101", code)
	}
	_, _, stderr := stop()
	for _, want := range []string{"proxy.origin-refused", `Origin "https://evil.example"`, "--allow-origin https://evil.example allows it"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	l, stop = proxying(t, "--upstream", up, "--color", "never", "--allow-origin", "https://app.example, https://evil.example")
	if _, code := dialOrigin(t, l.URL+"/ws", "https://evil.example"); code != http.StatusSwitchingProtocols {
		t.Errorf("--allow-origin: %d, want 101", code)
	}
	stop()
}

// TestStrayRefusalVerdict: a page of another site refused next to a judged
// clean session does not make the run an error: --strict exits 0, the
// verdict is the judged session's with a warning (non-strict), and the
// refusal is a warning line of its own on the console and in the JSON,
// JUnit and HTML reports alike. Alone, the same refusal is an error (exit 3
// with --strict): TestStrictRefusedAndNothingSeen.
func TestStrayRefusalVerdict(t *testing.T) {
	t.Parallel()
	ref := startRef(t, "minicodex")
	dir := t.TempDir()
	js, junit, html := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.html")
	l, stop := proxying(t, "--upstream", ref.URL, "--dialect", "minicodex", "--strict", "--color", "never",
		"--json", js, "--junit", junit, "--html", html)
	ws := dialWS(t, l.URL+"/ws")
	sendJSON(t, ws, map[string]any{"type": "hello", "v": "1.0.0", "client_capabilities": []string{}})
	readUntil(t, ws, "welcome")
	_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1000, ""), time.Now().Add(timeout))
	closeCode(ws)
	if _, code := dialOrigin(t, l.URL+"/ws", "https://old-tab.example"); code != http.StatusForbidden {
		t.Fatalf("another site's page: %d, want 403", code)
	}
	code, out, stderr := stop()
	if f := finishedLine(t, out); code != exitOK || f.Verdict != reports.NonStrict {
		t.Errorf("exit %d, finished %+v, stderr:\n%s", code, f, stderr)
	}
	for _, want := range []string{"! non-strict refused /ws 403 origin https://old-tab.example", "PASS (non-strict)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "ERROR") {
		t.Errorf("stderr says ERROR:\n%s", stderr)
	}

	var r reports.Report
	b, err := os.ReadFile(js)
	if err != nil || json.Unmarshal(b, &r) != nil {
		t.Fatalf("JSON report: %v", err)
	}
	verdicts := map[string]reports.Verdict{}
	for _, s := range r.Sessions {
		verdicts[s.ID] = s.Verdict
	}
	if r.Verdict != reports.NonStrict || len(r.Errors) > 0 || verdicts["refused /ws 403 origin https://old-tab.example"] != reports.NonStrict || len(verdicts) != 2 {
		t.Errorf("JSON: verdict %s, errors %v, sessions %v", r.Verdict, r.Errors, verdicts)
	}
	var suites struct {
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Tests    int `xml:"tests,attr"`
	}
	if b, err = os.ReadFile(junit); err != nil || xml.Unmarshal(b, &suites) != nil || suites.Failures != 0 || suites.Errors != 0 || suites.Tests < 2 {
		t.Errorf("JUnit: %+v %v", suites, err)
	}
	if b, err = os.ReadFile(html); err != nil || strings.Contains(string(b), "harness error") || !strings.Contains(string(b), "non-strict") {
		t.Errorf("HTML report: %v, harness error named: %v", err, strings.Contains(string(b), "harness error"))
	}
}
