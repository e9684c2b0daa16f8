package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reports"
)

// silentAskServer answers "hello" with "hello_ok" and "ask" with "answer"
// only on a connection that said hello first (as a server that sends no
// live events before the first load_events does); "boom" gets an error
// naming its request id, so that every scenario sees another id.
func silentAskServer() *httptest.Server {
	return httptest.NewServer(upgrader(func(c *websocket.Conn) {
		greeted := false
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			var m struct {
				Type  string `json:"type"`
				ReqID string `json:"req_id"`
			}
			if json.Unmarshal(data, &m) != nil {
				continue
			}
			var reply string
			switch {
			case m.Type == "hello":
				greeted, reply = true, `{"type":"hello_ok"}`
			case m.Type == "ask" && greeted:
				reply = `{"type":"answer"}`
			case m.Type == "boom":
				reply = fmt.Sprintf(`{"type":"error","message":"unknown request %s at 2026-11-27T10:00:00Z"}`, m.ReqID)
			}
			if reply != "" && c.WriteMessage(websocket.TextMessage, []byte(reply)) != nil {
				return
			}
		}
	}))
}

// stepCauseFeatures is `silent` scenarios that ask without saying hello
// and wait for the answer, `passing` ones that say hello first, and
// `boom` ones that get an error (each naming its own request id) where
// they wait for the answer.
func stepCauseFeatures(silent, passing, boom int) fstest.MapFS {
	var b strings.Builder
	b.WriteString("@minicodex\nFeature: causes\n")
	for i := 1; i <= silent; i++ {
		fmt.Fprintf(&b, `  @id:t.silent%02d @must
  Scenario: silent %d
    Given a client connects
    When the client sends:
      """
      {"type": "ask", "req_id": "r-%d"}
      """
    Then the client receives "answer" within 300ms
`, i, i, i)
	}
	for i := 1; i <= passing; i++ {
		fmt.Fprintf(&b, `  @id:t.greeted%02d @must
  Scenario: greeted %d
    Given a client connects
    When the client sends:
      """
      {"type": "hello"}
      """
    Then the client receives "hello_ok"
    When the client sends:
      """
      {"type": "ask", "req_id": "r-%d"}
      """
    Then the client receives "answer"
`, i, i, i)
	}
	for i := 1; i <= boom; i++ {
		fmt.Fprintf(&b, `  @id:t.boom%02d @must
  Scenario: boom %d
    Given a client connects
    When the client sends:
      """
      {"type": "boom", "req_id": "req-%d"}
      """
    Then the client receives "answer" within 300ms
`, i, i, 100+i*7)
	}
	return fstest.MapFS{"minicodex/causes.feature": {Data: []byte(b.String())}}
}

// runCauses runs features against the silent-ask server and tallies a
// report of them, as `wsconform run` does.
func runCauses(t *testing.T, fs fstest.MapFS) *reports.Report {
	t.Helper()
	s := silentAskServer()
	defer s.Close()
	res, err := Run(context.Background(), Options{Features: fs, Targets: []Target{{Name: "t", URL: wsURL(s)}}})
	if err != nil {
		t.Fatal(err)
	}
	rep := reports.New(reports.KindRun, "test", time.Now())
	rep.Scenarios = res
	rep.Targets = []reports.Target{{Name: "t", URL: wsURL(s)}}
	rep.Tally()
	return rep
}

func stepCauses(rep *reports.Report) []reports.RootCause {
	var out []reports.RootCause
	for _, rc := range rep.RootCauses {
		if rc.Step != nil {
			out = append(out, rc)
		}
	}
	return out
}

// TestStepFailureRepeatedIsOneCause: a server that never answers one
// message fails 20 scenarios that wait for the answer; the report shows
// one distinct problem with count 20 naming all 20, says after which
// message the server fell silent, and that the scenarios which said hello
// first got answers.
func TestStepFailureRepeatedIsOneCause(t *testing.T) {
	t.Parallel()
	rep := runCauses(t, stepCauseFeatures(20, 3, 0))
	for _, s := range rep.Scenarios {
		want := reports.Failed
		if strings.HasPrefix(s.ID, "t.greeted") {
			want = reports.Passed
		}
		if s.Verdict != want {
			t.Fatalf("%s: verdict %s, want %s: %s", s.ID, s.Verdict, want, describe(s))
		}
	}
	causes := stepCauses(rep)
	if len(causes) != 1 {
		t.Fatalf("%d step causes, want 1: %+v", len(causes), causes)
	}
	rc := causes[0]
	if rc.Count != 20 || len(rc.Scenarios) != 20 {
		t.Errorf("count %d, %d scenarios; want 20 and 20", rc.Count, len(rc.Scenarios))
	}
	for i := 1; i <= 20; i++ {
		if id := fmt.Sprintf("t.silent%02d", i); !slices.Contains(rc.Scenarios, id) {
			t.Errorf("scenarios do not name %s: %v", id, rc.Scenarios)
		}
	}
	st := rc.Step
	if st.Awaited != "answer" || st.Got != "received no message" || st.Verdict != reports.Failed {
		t.Errorf("step cause %+v", st)
	}
	if want := "after `ask`, the server sent nothing within 300ms in 20 scenarios; those that first sent `hello` got answers"; st.Hypothesis != want {
		t.Errorf("hypothesis %q,\nwant %q", st.Hypothesis, want)
	}
	if !slices.ContainsFunc(st.Wire, func(f reports.Frame) bool { return f.Type == "ask" }) {
		t.Errorf("wire excerpt does not show the unanswered ask: %+v", st.Wire)
	}
}

// TestStepFailuresDifferentStayApart: scenarios that got nothing and
// scenarios that got an error are two problems; the error's request ids
// and timestamps, different in each scenario, do not split its group.
func TestStepFailuresDifferentStayApart(t *testing.T) {
	t.Parallel()
	rep := runCauses(t, stepCauseFeatures(3, 0, 4))
	causes := stepCauses(rep)
	if len(causes) != 2 {
		t.Fatalf("%d step causes, want 2: %+v", len(causes), causes)
	}
	byGot := map[string]int{}
	for _, rc := range causes {
		byGot[rc.Step.Got] = rc.Count
	}
	if byGot["received no message"] != 3 {
		t.Errorf("silent group: %v", byGot)
	}
	if n := byGot[`received error("unknown request req-<id> at <time>")`]; n != 4 {
		t.Errorf("error group not 4 scenarios: %v", byGot)
	}
}
