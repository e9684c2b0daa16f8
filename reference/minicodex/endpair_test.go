package minicodex_test

import (
	"fmt"
	"testing"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// TestEndPairBeforePing: a client that resumes mid-run and answers the
// run's finished status with a ping gets the run's turn_done before the
// ping's answer. The two used to be queued one by one, and the ping's
// answer (sent by the connection's reader) could come between them: 1 of
// about 30 rounds under -race lost the turn_done behind the barrier.
func TestEndPairBeforePing(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{Slow: 5e6})
	for i := 0; i < 60; i++ {
		g := reftest.Group(fmt.Sprint("round-", i)) // one judged session a round
		a, sid, _ := hello(t, srv, "", g)
		send(t, a, "/slow 6")
		a.Expect("assistant_text")
		a.Drop()
		b := srv.Dial(t, "/ws", g)
		b.Send(resume(sid, 1))
		b.Expect("welcome")
		for {
			m := b.Next()
			if m.Type == "run_status" && m.Str("/run_state/status") == "finished" {
				break
			}
		}
		if rest := barrier(t, b, "after-finished"); len(rest) != 1 || rest[0].Type != "turn_done" {
			t.Fatalf("round %d: between finished and the ping's answer came %v, want turn_done", i, types(rest))
		}
		b.Close()
	}
}
