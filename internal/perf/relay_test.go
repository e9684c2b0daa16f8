package perf

import (
	"context"
	"os/exec"
	"testing"
)

// TestRelayQuick checks that Relay returns its figures with a value for
// every subject and round (not what the values are: this is a machine
// shared with other tests). wsproxy runs in this process; mitmproxy is
// measured when mitmdump is installed.
func TestRelayQuick(t *testing.T) {
	cfg := Config{Rounds: 2, Quick: true, TempDir: t.TempDir()}
	if p, err := exec.LookPath("mitmdump"); err == nil {
		cfg.Mitmproxy = p
	}
	figs, err := Relay(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	subjects := []string{Direct, TCPRelay, Wsproxy}
	if cfg.Mitmproxy != "" {
		subjects = append(subjects, Mitmproxy)
	}
	want := map[string][]string{
		"round trips, one at a time, 1 KiB each way": subjects,
		"round trip p50": subjects,
		"round trip p99": subjects,
		"burst, 2000 server→client 1 KiB frames":                   subjects,
		"frames not validated in the burst (proxy.validation-gap)": {Wsproxy},
	}
	checkFigures(t, figs, want, cfg.Rounds)
	for _, f := range figs {
		if f.Unit == "frames" {
			if f.Note != "wsproxy's report (its other findings on this clean traffic: none)" {
				t.Errorf("the relay's clean traffic made findings: %s", f.Note)
			}
		}
	}
}

// TestMemoryQuick checks that Memory returns its figures, wsproxy in this
// process.
func TestMemoryQuick(t *testing.T) {
	cfg := Config{Rounds: 1, Quick: true, TempDir: t.TempDir()}
	figs, err := Memory(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	for _, f := range figs {
		want[f.Name] = []string{Wsproxy}
	}
	if len(want) != 7 {
		t.Errorf("%d figures, want 7", len(want))
	}
	checkFigures(t, figs, want, cfg.Rounds)
}

func checkFigures(t *testing.T, figs []Figure, want map[string][]string, rounds int) {
	t.Helper()
	got := map[string]bool{}
	for _, f := range figs {
		got[f.Name] = true
		subjects, ok := want[f.Name]
		if !ok {
			t.Errorf("unexpected figure %q", f.Name)
			continue
		}
		if f.Unit == "" {
			t.Errorf("%s: no unit", f.Name)
		}
		for _, s := range subjects {
			if n := len(f.Values[s]); n != rounds {
				t.Errorf("%s: %d values for %s, want %d", f.Name, n, s, rounds)
			}
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("figure %q missing", name)
		}
	}
}
