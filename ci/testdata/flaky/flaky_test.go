// Package flaky is ci/stress.sh's own test subject: TestFlaky fails on the
// run numbers listed in $STRESS_FAIL_ON, counting runs in $STRESS_COUNTER.
// It lives under testdata so that ./... never runs it.
package flaky

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestFlaky(t *testing.T) {
	counter := os.Getenv("STRESS_COUNTER")
	if counter == "" {
		t.Skip("run by ci/stress.sh's test only")
	}
	b, _ := os.ReadFile(counter)
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	n++
	if err := os.WriteFile(counter, []byte(strconv.Itoa(n)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Split(os.Getenv("STRESS_FAIL_ON"), ",") {
		if f == strconv.Itoa(n) {
			t.Fatalf("failing on purpose on run %d", n)
		}
	}
}

func TestSteady(t *testing.T) {}
