package runner

import (
	"context"
	"net/http/httptest"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reports"
)

// skipFeature: the client asks the server to stop, grants it 200ms to act
// (a chunk already on the wire is not its fault), then expects silence.
var skipFeature = fstest.MapFS{"minicodex/skip.feature": {Data: []byte(`@minicodex
Feature: skip
  @id:t.skip @must
  Scenario: a stop is honoured after a grace
    Given a client connects
    And the client receives "welcome"
    When the client sends:
      """
      {"type": "stop"}
      """
    And the client skips what it receives within 200ms
    Then the client receives no "welcome" within 300ms
`)}}

// TestSkipGrace: a server that sends one more frame right after the stop
// passes; one that keeps sending fails, and the finding shows the frame.
// Without the skip, the frame in flight would fail the first server too.
func TestSkipGrace(t *testing.T) {
	t.Parallel()
	// streamer sends welcome every 20ms; after "stop" it sends `after` more.
	streamer := func(after int) *httptest.Server {
		return httptest.NewServer(upgrader(func(c *websocket.Conn) {
			stop := make(chan struct{})
			go func() {
				c.ReadMessage() // the stop, or an error when the client goes
				close(stop)
				for {
					if _, _, err := c.ReadMessage(); err != nil {
						return
					}
				}
			}()
			welcome := []byte(`{"type":"welcome","v":"1.0.0"}`)
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for running := true; running; <-tick.C {
				select {
				case <-stop:
					running = false
				default:
					if c.WriteMessage(websocket.TextMessage, welcome) != nil {
						return
					}
				}
			}
			for i := 0; i < after; i++ {
				if c.WriteMessage(websocket.TextMessage, welcome) != nil {
					return
				}
				<-tick.C
			}
			time.Sleep(time.Second)
		}))
	}
	tests := []struct {
		name  string
		after int
		want  reports.Verdict
	}{
		{"one frame in flight", 1, reports.Passed},
		{"keeps streaming", 1000, reports.Failed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := streamer(tt.after)
			defer s.Close()
			res, err := Run(context.Background(), Options{Features: skipFeature, Targets: []Target{{Name: "t", URL: wsURL(s)}}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 1 || res[0].Verdict != tt.want {
				t.Fatalf("verdict %s, want %s: %s", res[0].Verdict, tt.want, describe(res[0]))
			}
		})
	}
}
