package main

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestWebFlag: --web serves the live view, named on the listening line and
// on stderr; without --record it records to a temporary file, says where,
// the page's report download and Save HAR work mid-session, and the file
// is gone on exit (TestWebTempRecordingProcess: the real command).
func TestWebFlag(t *testing.T) {
	ref := startRef(t, "minicodex")
	l, stop := proxying(t, "--upstream", ref.URL, "--web", "127.0.0.1:0", "--dialect", "minicodex", "-q")
	if !strings.HasPrefix(l.Web, "http://127.0.0.1:") || l.Record == "" {
		t.Fatalf("listening line: web %q, record %q", l.Web, l.Record)
	}
	ws := dialWS(t, l.URL+"/ws")
	if err := ws.WriteJSON(map[string]any{"type": "hello", "v": "1.0.0", "client_capabilities": []string{}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ws.ReadMessage(); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"", "report.json", "session.har"} {
		resp, err := http.Get(l.Web + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET /%s: %s %s", path, resp.Status, b)
		}
		if path == "report.json" {
			var r struct{ Kind string }
			if err := json.Unmarshal(b, &r); err != nil || r.Kind != "proxy" {
				t.Errorf("report.json: %v %.200s", err, b)
			}
		}
	}
	_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1000, ""), time.Now().Add(timeout))
	if st, err := os.Stat(l.Record); err != nil || st.Size() == 0 {
		t.Errorf("the temporary recording while running: %v", err)
	}
	code, _, errs := stop()
	if code != exitOK || !strings.Contains(errs, "live view "+l.Web) || !strings.Contains(errs, "recording to "+l.Record) ||
		!strings.Contains(errs, "removed the temporary recording "+l.Record) {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	if _, err := os.Stat(l.Record); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary recording is left behind: %v", err)
		os.Remove(l.Record)
	}
}

// TestWebOffLoopback: --web on an address other machines reach is a usage
// error unless --web-allow-remote.
func TestWebOffLoopback(t *testing.T) {
	code, _, errs := wsproxy("--upstream", "ws://127.0.0.1:1", "--web", "0.0.0.0:8081")
	if code != exitUsage || !strings.Contains(errs, "not on loopback") {
		t.Errorf("exit %d: %s", code, errs)
	}
}
