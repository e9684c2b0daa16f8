package runner

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/wsconform/wsconform/reports"
)

// TestLateServerFramesAfterOurClose: a scenario that ends while the server
// is still streaming closes its client; the frames the server sends before
// its own close frame belong to the same connection. They were once judged
// as the first frames of a new connection (coworker.hello-first errors at
// random).
func TestLateServerFramesAfterOurClose(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"coworker/late.feature": {Data: []byte(`@coworker
Feature: late frames
  @id:t.late @must
  Scenario: ends while streaming
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"
    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/stream 300"}
      """
    Then the client receives "user_message"
`)}}
	ctx := context.Background()
	srv, target, err := StartReference(ctx, []string{"coworker"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(ctx)
	for i := 0; i < 10; i++ {
		res, err := Run(ctx, Options{Features: fsys, Targets: []Target{target}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || res[0].Verdict != reports.Passed {
			t.Fatalf("run %d: %s", i, describe(res[0]))
		}
	}
}
