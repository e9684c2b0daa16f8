package runner

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reports"
)

// countFeature counts turn_done after a ping barrier, with and without
// first waiting for it: the two ways the minicodex scenarios were and are
// written.
func countFeature(wait string) fstest.MapFS {
	return fstest.MapFS{"minicodex/count.feature": {Data: []byte(`@minicodex
Feature: count
  @id:t.count @must
  Scenario: exactly one turn_done
    Given a client connects
    When the client sends:
      """
      {"type": "send", "text": "go"}
      """
    Then the client receives "run_status"
` + wait + `    And the client sends:
      """
      {"type": "ping", "req_id": "r-barrier"}
      """
    And the client receives "accepted" with:
      """
      {"req_id": "r-barrier"}
      """
    And the client has received 1 "turn_done"
`)}}
}

// TestHasReceivedWithin: a server may answer a ping before it queues a
// turn_done it emits right after the finished status (the reference server
// did, under load: the ping is answered on the connection's reader while
// the run's goroutine is between the two). Counting after a ping barrier
// alone fails such a correct server; waiting for the message first passes
// it, and still fails a server that never sends it or sends it twice.
func TestHasReceivedWithin(t *testing.T) {
	t.Parallel()
	// server answers the send with run_status, and `after` turn_dones
	// `delay` later from the run's own goroutine, while its reader answers
	// a ping at once: a correct server whose ping answer may overtake the
	// turn_done.
	server := func(after int, delay time.Duration) *httptest.Server {
		return httptest.NewServer(upgrader(func(c *websocket.Conn) {
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
			var mu sync.Mutex
			write := func(s string) {
				mu.Lock()
				defer mu.Unlock()
				_ = c.WriteMessage(websocket.TextMessage, []byte(s))
			}
			write(`{"type":"run_status","run_state":{"status":"finished"}}`)
			done := make(chan struct{})
			defer func() { <-done }()
			go func() {
				defer close(done)
				time.Sleep(delay) // the run's goroutine is slow to queue turn_done
				mu.Lock()         // all of them before any later answer
				defer mu.Unlock()
				for i := 0; i < after; i++ {
					_ = c.WriteMessage(websocket.TextMessage, []byte(`{"type":"turn_done"}`))
				}
			}()
			for {
				if _, _, err := c.ReadMessage(); err != nil {
					return
				}
				write(`{"type":"accepted","req_id":"r-barrier"}`)
			}
		}))
	}
	const wait = "    And the client has received at least 1 \"turn_done\" within 2s\n"
	tests := []struct {
		name        string
		turnDones   int
		delay       time.Duration
		wait        string
		want        reports.Verdict
		wantMessage string
	}{
		{"barrier only, turn_done after the ping's answer", 1, 2 * time.Second, "", reports.Failed, "received a wrong number"},
		{"waits for it", 1, 300 * time.Millisecond, wait, reports.Passed, ""},
		{"never sent", 0, 0, "    And the client has received at least 1 \"turn_done\" within 200ms\n", reports.Failed, "at least 1 \"turn_done\" within 200ms"},
		{"sent twice", 2, 0, wait, reports.Failed, "received a wrong number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := server(tt.turnDones, tt.delay)
			defer s.Close()
			res, err := Run(context.Background(), Options{Features: countFeature(tt.wait), Targets: []Target{{Name: "t", URL: wsURL(s)}}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 1 || res[0].Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %s", res[0].Verdict, tt.want, describe(res[0]))
			}
			if got := describe(res[0]); tt.wantMessage != "" && !strings.Contains(got, tt.wantMessage) {
				t.Errorf("failure does not say %q: %s", tt.wantMessage, got)
			}
		})
	}
}
