package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reports"
)

// TestRunStepCauses: 20 scenarios that each wait for an answer the server
// never sends print one distinct problem with count 20, the message after
// which the server fell silent, and that the scenario which said hello
// first got its answer; the JSON report holds it with all 20 scenarios.
func TestRunStepCauses(t *testing.T) {
	t.Parallel()
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer c.Close()
		greeted := false
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			var m struct{ Type string }
			_ = json.Unmarshal(data, &m)
			reply := ""
			switch {
			case m.Type == "hello":
				greeted, reply = true, `{"type":"accepted","req_id":"h"}`
			case m.Type == "ask" && greeted:
				reply = `{"type":"accepted","req_id":"a"}`
			}
			if reply != "" && c.WriteMessage(websocket.TextMessage, []byte(reply)) != nil {
				return
			}
		}
	}))
	defer srv.Close()
	var b strings.Builder
	b.WriteString("@minicodex\nFeature: causes\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "  @id:c.silent%02d @must\n  Scenario: silent %d\n    Given a client connects\n"+
			"    When the client sends:\n      \"\"\"\n      {\"type\": \"ask\", \"req_id\": \"r-%d\"}\n      \"\"\"\n"+
			"    Then the client receives \"accepted\" within 300ms\n", i, i, i)
	}
	b.WriteString("  @id:c.greeted @must\n  Scenario: greeted\n    Given a client connects\n" +
		"    When the client sends:\n      \"\"\"\n      {\"type\": \"hello\"}\n      \"\"\"\n    Then the client receives \"accepted\"\n" +
		"    When the client sends:\n      \"\"\"\n      {\"type\": \"ask\", \"req_id\": \"r-0\"}\n      \"\"\"\n    Then the client receives \"accepted\"\n")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "minicodex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "minicodex", "causes.feature"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonPath := filepath.Join(dir, "r.json")
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws"
	code, out, errs := wsconform(t, "run", "--features", dir, "--target", url, "--dialect", "minicodex", "--color", "never", "--json", jsonPath)
	if code != exitFail {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitFail, out, errs)
	}
	t.Logf("console:\n%s", out)
	for _, want := range []string{
		"1 distinct problem in the scenarios' steps",
		`✗ failed     Then the client receives "…" within Nms  ×20  awaited accepted`,
		"got:      received no message",
		"likely:   after `ask`, the server sent nothing within 300ms in 20 scenarios; those that first sent `hello` got answers",
		"seen in:  20 scenarios: c.silent01, c.silent02, c.silent03 and 17 more",
		`→ ask {"type": "ask", "req_id": "r-1"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep reports.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	var steps []reports.RootCause
	for _, rc := range rep.RootCauses {
		if rc.Step != nil {
			steps = append(steps, rc)
		}
	}
	if len(steps) != 1 || steps[0].Count != 20 || len(steps[0].Scenarios) != 20 || steps[0].Step.Awaited != "accepted" {
		t.Fatalf("json root causes: %+v", rep.RootCauses)
	}
}
