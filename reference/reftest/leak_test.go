package reftest

import (
	"context"
	"runtime/pprof"
	"strings"
	"testing"
)

// TestLeaked: a labelled goroutine still running is reported with its
// stack; once it ended, and for another label, nothing is.
func TestLeaked(t *testing.T) {
	stop, done := make(chan struct{}), make(chan struct{})
	pprof.Do(context.Background(), pprof.Labels("wsconform-test", "leaky"), func(context.Context) {
		go func() {
			defer close(done)
			<-stop
		}()
	})
	if got := Leaked("wsconform-test", "other"); got != "" {
		t.Errorf("another label reported:\n%s", got)
	}
	old := Timeout
	Timeout = 0 // the goroutine runs on: no need to wait for it
	got := Leaked("wsconform-test", "leaky")
	Timeout = old
	if !strings.Contains(got, "TestLeaked") {
		t.Errorf("the running goroutine is not reported; got %q", got)
	}
	close(stop)
	<-done
	if got := Leaked("wsconform-test", "leaky"); got != "" {
		t.Errorf("an ended goroutine reported:\n%s", got)
	}
}
