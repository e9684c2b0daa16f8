package perf

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wsconform/wsconform/internal/validate/synth"
)

// Validate measures `wsconform validate -q` of a large clean myagent
// recording written by internal/validate/synth (1M frames, 20k with
// Quick), run as a user runs it (cfg.Wsconform): wall time, frames per
// second of wall time, CPU time and peak RSS (wait4's maxrss, taken by
// cfg.MaxRSS so that it is the command's own). The
// recording is written once, before the rounds, and removed after.
func Validate(ctx context.Context, cfg Config) ([]Figure, error) {
	if cfg.Wsconform == "" {
		return nil, errors.New("validate: no wsconform binary to run")
	}
	frames := 1_000_000
	if cfg.Quick {
		frames = 20_000
	}
	path, size, err := writeSynth(cfg.TempDir, frames)
	if err != nil {
		return nil, err
	}
	defer os.Remove(path)

	what := fmt.Sprintf("validate -q, %s-frame recording (%.0f MB)", count(frames), float64(size)/1e6)
	const subject = "wsconform"
	rate := Figure{Name: what, Unit: "frames/s", Goal: "≥ 300k"}
	wall := Figure{Name: what + ": wall", Unit: "s"}
	cpu := Figure{Name: what + ": CPU, user + system", Unit: "s"}
	rss := Figure{Name: what + ": peak RSS", Unit: "MB"}
	for r := 0; r < rounds(cfg); r++ {
		run, err := runChild(ctx, cfg, cfg.Wsconform, "validate", "-q", path)
		if err != nil {
			return nil, fmt.Errorf("validate: %w", err)
		}
		rate.Add(subject, float64(frames)/run.wall.Seconds())
		wall.Add(subject, run.wall.Seconds())
		cpu.Add(subject, run.cpu.Seconds())
		if run.peakRSS > 0 {
			rss.Add(subject, float64(run.peakRSS)/1e6)
		}
	}
	if len(rss.Values) == 0 {
		rss.Note = rssNote
	}
	return []Figure{rate, wall, cpu, rss}, nil
}

// writeSynth writes a clean recording of n frames into dir and returns its
// path and size.
func writeSynth(dir string, n int) (string, int64, error) {
	f, err := os.CreateTemp(dir, "validate-*.jsonl")
	if err != nil {
		return "", 0, fmt.Errorf("validate: recording: %w", err)
	}
	path := f.Name()
	werr := synth.Write(f, synth.Options{Frames: n})
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(path)
		return "", 0, fmt.Errorf("validate: write %s: %w", filepath.Base(path), err)
	}
	st, err := os.Stat(path)
	if err != nil {
		os.Remove(path)
		return "", 0, fmt.Errorf("validate: %w", err)
	}
	return path, st.Size(), nil
}

// count writes a frame count as the issue does: 1M, 20k, 512.
func count(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1_000 && n%1_000 == 0:
		return fmt.Sprintf("%dk", n/1_000)
	}
	return fmt.Sprint(n)
}
