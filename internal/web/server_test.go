package web

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/reports"
)

func TestCheckListen(t *testing.T) {
	for addr, ok := range map[string]bool{"127.0.0.1:8081": true, "[::1]:0": true, "localhost:8081": true,
		"0.0.0.0:8081": false, ":8081": false, "192.168.1.2:80": false, "example.com:80": false, "nonsense": false} {
		if err := CheckListen(addr, false); (err == nil) != ok {
			t.Errorf("CheckListen(%q) = %v", addr, err)
		}
	}
	if err := CheckListen("0.0.0.0:8081", true); err != nil {
		t.Errorf("remote allowed: %v", err)
	}
}

// TestRefuse: the page is answered to loopback peers only, and only under
// a Host that is the listener's (or an IP literal, localhost, a name
// allowed): a rebinding DNS name gets 403, as on the proxy's listener.
func TestRefuse(t *testing.T) {
	s, err := New(Config{Listen: "127.0.0.1:8081", AllowHosts: []string{"dev.test"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		host, remote string
		code         int
	}{
		{"127.0.0.1:8081", "127.0.0.1:5000", 200},
		{"localhost:8081", "[::1]:5000", 200},
		{"dev.test:8081", "127.0.0.1:5000", 200},
		{"evil.example:8081", "127.0.0.1:5000", 403},
		{"127.0.0.1:8081", "10.1.2.3:5000", 403},
	} {
		req := httptest.NewRequest("GET", "/", nil)
		req.Host, req.RemoteAddr = tc.host, tc.remote
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != tc.code {
			t.Errorf("Host %s from %s: %d, want %d (%s)", tc.host, tc.remote, rec.Code, tc.code, rec.Body.String())
		}
	}
	if _, err := New(Config{Listen: "0.0.0.0:8081"}); err == nil {
		t.Error("New accepted a listener off loopback")
	}
}

// TestPageSelfContained: the page inlines its style sheet and script and
// loads nothing from elsewhere (its CSP says so too).
func TestPageSelfContained(t *testing.T) {
	s := startStack(t, Config{})
	resp, err := http.Get(s.webURL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := string(body)
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("%s, CSP %q", resp.Status, resp.Header.Get("Content-Security-Policy"))
	}
	for _, bad := range []string{"src=\"http", "href=\"http", "<link ", "@import", "url(http"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page loads something from elsewhere: %q", bad)
		}
	}
	for _, want := range []string{"wscJSON", "EventSource", ".finding", "lv-pill"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestDownloads: "Download report" mid-session gives the report so far,
// with the writers used on exit, each parseable; "Save HAR" exports the
// recording so far, and `wsconform validate` judges the HAR to the same
// findings as the recording itself.
func TestDownloads(t *testing.T) {
	s := startStack(t, Config{}, "minicodex-run-status-without-state")
	c := dialClient(t, s.proxyURL)
	c.turn("/stream 4")
	// The report so far holds the session once the validator judged the
	// turn; the stream says when it has.
	sse := openSSE(t, s.webURL, "")
	sse.until(kind("x"))

	var rep reports.Report
	get(t, s.webURL+"report.json", "application/json", func(b []byte) error { return json.Unmarshal(b, &rep) })
	if len(rep.Sessions) != 1 || rep.Verdict != reports.Failed || rep.Kind != reports.KindProxy {
		t.Fatalf("report.json: verdict %s, %d sessions", rep.Verdict, len(rep.Sessions))
	}
	get(t, s.webURL+"report.xml", "application/xml", func(b []byte) error {
		var v struct {
			XMLName xml.Name
		}
		return xml.Unmarshal(b, &v)
	})
	get(t, s.webURL+"report.html?download", "text/html", func(b []byte) error {
		if !strings.Contains(string(b), "schema.violation") {
			t.Error("report.html lacks the finding")
		}
		return nil
	})

	// Save HAR once the connection closed (the stream says so), while the
	// proxy still runs.
	c.close()
	sse.until(kind("c"))
	har := filepath.Join(t.TempDir(), "session.har")
	get(t, s.webURL+"session.har", "application/json", func(b []byte) error { return os.WriteFile(har, b, 0o644) })
	s.stop()
	rules := func(path string) []string {
		res, err := validate.File(context.Background(), path, validate.Options{Dialect: "minicodex"})
		if err != nil {
			t.Fatalf("validate %s: %v", path, err)
		}
		var out []string
		for _, f := range res.Findings {
			out = append(out, f.Rule+" "+string(f.Dir)+" "+f.Type)
		}
		slices.Sort(out)
		return out
	}
	fromHAR, fromRec := rules(har), rules(s.rec)
	if len(fromHAR) == 0 || !slices.Equal(fromHAR, fromRec) {
		t.Errorf("HAR findings %v\nrecording findings %v", fromHAR, fromRec)
	}
}

func get(t *testing.T, url, ctype string, check func([]byte) error) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), ctype) {
		t.Fatalf("GET %s: %s %s: %.300s", url, resp.Status, resp.Header.Get("Content-Type"), b)
	}
	if err := check(b); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// TestNoFraming: no answer of the live view may be framed by another page
// (clickjacking): the page, the downloads, the event stream and a refusal
// all say frame-ancestors 'none' and X-Frame-Options DENY, over real HTTP.
func TestNoFraming(t *testing.T) {
	s := startStack(t, Config{})
	for _, tc := range []struct {
		path, host string
		code       int
	}{
		{"", "", 200},
		{"report.html", "", 200},
		{"report.json", "", 200},
		{"events", "", 200},
		{"", "evil.example", 403},
	} {
		req, err := http.NewRequest("GET", s.webURL+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close() // the event stream: its headers are enough
		csp := resp.Header.Get("Content-Security-Policy")
		if resp.StatusCode != tc.code || !strings.Contains(csp, "frame-ancestors 'none'") || resp.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("GET /%s (Host %q): %s, CSP %q, X-Frame-Options %q", tc.path, tc.host, resp.Status, csp, resp.Header.Get("X-Frame-Options"))
		}
	}
}
