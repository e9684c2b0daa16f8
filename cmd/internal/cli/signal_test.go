package cli

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary play a command that winds down forever
// after its first signal, as wsconform and wsproxy do while they write
// their reports.
func TestMain(m *testing.M) {
	if os.Getenv("CLI_SIGNAL_CHILD") == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		go WatchSecondSignal(ctx, stop, os.Stderr, "child")
		os.Stdout.WriteString("ready\n")
		<-ctx.Done()
		time.Sleep(time.Minute) // winding down: only a second signal ends it early
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestWatchSecondSignal: the first SIGINT is caught and the command says a
// second one quits at once; the second one ends the process, killed by
// SIGINT, however long the wind-down would take.
func TestWatchSecondSignal(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CLI_SIGNAL_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("child: %q %v", line, err)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	hint := bufio.NewScanner(errPipe)
	for hint.Scan() && hint.Text() != StopHint("child") {
	}
	if hint.Text() != StopHint("child") {
		t.Fatalf("no stop hint after the first SIGINT (%v)", hint.Err())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("child exited %v after a second SIGINT, want killed by it", err)
		}
		if st, ok := ee.Sys().(syscall.WaitStatus); !ok || !st.Signaled() || st.Signal() != syscall.SIGINT {
			t.Errorf("after a second SIGINT: %v, want killed by SIGINT", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the child did not end after a second SIGINT")
	}
	if strings.Contains(hint.Text(), "\x1b") {
		t.Error("the hint carries an escape")
	}
}
