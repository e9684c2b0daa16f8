package perf

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/check/checkstream"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/perf/cputime"
	"github.com/wsconform/wsconform/internal/wire"
)

// engineStream is the length of one session's stream: a session is
// renewed after it (outside the timing), as BenchmarkObserve does, so that
// the replay windows are as full as in a long session but never grow past
// what a realistic one holds.
const engineStream = 4096

// Engine measures check.Session.Observe on each dialect's realistic stream
// (internal/check/checkstream, the frames BenchmarkObserve uses), on one
// goroutine: frames per second of wall time, frames per CPU-second of the
// process (the garbage collector's work included, which a machine shared
// with other work changes far less than wall time), and allocations per
// frame. Every round runs every dialect once, in an order rotated by
// round, so that load on the machine falls on each dialect alike.
//
// A fixed number of frames per dialect and round, rather than
// testing.Benchmark's adaptive count, keeps rounds comparable and --quick
// bounded.
func Engine(ctx context.Context, cfg Config) ([]Figure, error) {
	perRound := 100_000
	if cfg.Quick {
		perRound = 2_000
	}
	names := dialect.Names()
	streams := make(map[string][]wire.Frame, len(names))
	for _, name := range names {
		streams[name] = checkstream.Frames(name, engineStream)
		if len(streams[name]) == 0 {
			return nil, fmt.Errorf("engine: no stream for dialect %s", name)
		}
	}
	wall := Figure{Name: "check engine, Session.Observe, one goroutine", Unit: "frames/s", Goal: "≥ 300k"}
	cpu := Figure{Name: "check engine per CPU-second (GC included)", Unit: "frames/cpu-s", Goal: "≥ 300k"}
	allocs := Figure{Name: "check engine allocations", Unit: "allocs/frame"}
	bytes := Figure{Name: "check engine allocated", Unit: "B/frame"}
	for r := 0; r < rounds(cfg); r++ {
		for i := range names {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("engine: %w", err)
			}
			name := names[(i+r)%len(names)]
			s := observeRun(dialect.MustGet(name), streams[name], perRound)
			wall.Add(name, float64(perRound)/s.wall.Seconds())
			if s.cpu > 0 {
				cpu.Add(name, float64(perRound)/s.cpu.Seconds())
			}
			allocs.Add(name, float64(s.mallocs)/float64(perRound))
			bytes.Add(name, float64(s.bytes)/float64(perRound))
		}
	}
	if len(cpu.Values) == 0 {
		cpu.Note = "the process's CPU time is not measured on this system"
	}
	return []Figure{wall, cpu, allocs, bytes}, nil
}

// observeStats is one dialect's run of n frames.
type observeStats struct {
	wall, cpu      time.Duration
	mallocs, bytes uint64
}

// observeRun feeds n frames of a stream to sessions of d, a new session
// for each pass over the stream, and times only Observe.
func observeRun(d *dialect.Dialect, frames []wire.Frame, n int) observeStats {
	var st observeStats
	runtime.GC() // the previous dialect's garbage is not this one's
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for done := 0; done < n; {
		s := check.NewSession(d, check.Options{})
		chunk := min(len(frames), n-done)
		c0, t0 := cputime.Process(), time.Now()
		for _, f := range frames[:chunk] {
			s.Observe(f)
		}
		st.wall += time.Since(t0)
		st.cpu += cputime.Process() - c0
		done += chunk
	}
	runtime.ReadMemStats(&m1)
	// The sessions' own construction is counted too; it is a few
	// allocations per 4096 frames.
	st.mallocs = m1.Mallocs - m0.Mallocs
	st.bytes = m1.TotalAlloc - m0.TotalAlloc
	return st
}

// rounds is cfg.Rounds, at least one.
func rounds(cfg Config) int {
	return max(cfg.Rounds, 1)
}
