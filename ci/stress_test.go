package ci

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStressSh runs ci/stress.sh on a package whose test fails on chosen
// runs: a test that fails once in three runs is named with its count and
// the script fails; when no run fails it says so and passes.
func TestStressSh(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, failOn string
		wantRC       int
		want         []string
	}{
		{"fires", "2", 1, []string{"run 2/3: FAILED", "   1 TestFlaky", "2 passed, 1 failed"}},
		{"quiet", "", 0, []string{"run 3/3: ok", "3 passed, 0 failed"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command("bash", "stress.sh", "-n", "3", "-l", "0", "./ci/testdata/flaky")
			cmd.Env = append(cmd.Environ(), "STRESS_COUNTER="+filepath.Join(t.TempDir(), "n"), "STRESS_FAIL_ON="+tc.failOn)
			out, err := cmd.CombinedOutput()
			rc := 0
			if ee, ok := err.(*exec.ExitError); ok {
				rc = ee.ExitCode()
			} else if err != nil {
				t.Fatalf("stress.sh: %v", err)
			}
			if rc != tc.wantRC {
				t.Errorf("exit status %d, want %d\n%s", rc, tc.wantRC, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if tc.wantRC == 0 && strings.Contains(string(out), "TestSteady") {
				t.Errorf("a passing test is listed:\n%s", out)
			}
		})
	}
}
