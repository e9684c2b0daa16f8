package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/recording"
)

// TestValidateHostdDuplicateInput is issue 25's acceptance offline: a
// recording (wsproxy's, of the reference hostd server mutated to forward
// a repeated input again and a host that records whatever it gets) holds
// the same input_id sent twice over HTTP and two run.input events, and
// fails on the idempotency requirement; the same recording with one
// run.input passes (the repeat forwarded again stays a warning). Exported
// as a HAR, the recording fails alike.
func TestValidateHostdDuplicateInput(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/hostd-duplicate-input.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var once []string
	dropped := 0
	for _, l := range strings.SplitAfter(string(raw), "\n") {
		// The second run.input (seq 3) and its run.ack.
		if strings.Contains(l, `\"seq\":3`) || strings.Contains(l, `\"last_seq\":3`) {
			dropped++
			continue
		}
		once = append(once, l)
	}
	single := filepath.Join(t.TempDir(), "single.jsonl")
	if err := os.WriteFile(single, []byte(strings.Join(once, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if dropped != 2 {
		t.Fatalf("the recording no longer has one run.input and one run.ack of seq 3")
	}
	var har bytes.Buffer
	if err := recording.WriteHAR(&har, bytes.NewReader(raw), recording.HAROptions{}); err != nil {
		t.Fatal(err)
	}
	harFile := filepath.Join(t.TempDir(), "dup.har")
	if err := os.WriteFile(harFile, har.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file string
		code int
		want []string
	}{
		{"testdata/hostd-duplicate-input.jsonl", exitFail, []string{"hostd.input-duplicate", `"hostd.ids.input-id-idempotent"`,
			"clients sent it 2 times: HTTP POST /runs/run_t1/input (h3, index 5) → 202; HTTP POST /runs/run_t1/input (h4, index 9) → 200",
			`"http_exchanges": 3`}},
		{single, exitOK, []string{"hostd.input-reforwarded", `"http_exchanges": 3`}},
		// The same recording exported as a HAR (DevTools' format) judges alike.
		{harFile, exitFail, []string{"hostd.input-duplicate", "clients sent it 2 times: HTTP POST /runs/run_t1/input (h", `"http_exchanges": 3`}},
	}
	for _, tt := range tests {
		code, stdout, stderr := wsconform(t, "validate", "--color", "never", "--json", "-", tt.file)
		if code != tt.code {
			t.Errorf("%s: exit %d, want %d:\n%s%s", tt.file, code, tt.code, stdout, stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: output lacks %q:\n%.4000s", tt.file, w, stdout)
			}
		}
		if tt.code == exitOK && strings.Contains(stdout, "hostd.input-duplicate") {
			t.Errorf("one run.input reported as a duplicate:\n%s", stdout)
		}
	}
}
