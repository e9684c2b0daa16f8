package check

import (
	"testing"

	"github.com/wsconform/wsconform/internal/check/checkstream"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/perf/cputime"
)

// TestStreamFramesAreClean keeps the benchmark honest: it measures the
// path of conforming traffic, so its frames must raise no finding.
func TestStreamFramesAreClean(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		s := NewSession(dialect.MustGet(name), Options{})
		for _, f := range checkstream.Frames(name, 64) {
			for _, x := range s.Observe(f) {
				t.Errorf("%s frame %d: %s", name, f.Index, x)
			}
		}
	}
}

// BenchmarkObserve measures Session.Observe per dialect on one core:
// decode, schema, ambiguity and stateful rules, per frame. frames/s is
// wall time; frames/cpu-s divides by the CPU time the process used (the
// garbage collector's included), which a machine shared with other work
// changes far less.
func BenchmarkObserve(b *testing.B) {
	for _, name := range dialect.Names() {
		b.Run(name, func(b *testing.B) {
			d := dialect.MustGet(name)
			frames := checkstream.Frames(name, 4096)
			var bytes int
			for _, f := range frames {
				bytes += len(f.Payload)
			}
			b.SetBytes(int64(bytes / len(frames)))
			b.ReportAllocs()
			s := NewSession(d, Options{})
			b.ResetTimer()
			cpu := cputime.Process()
			for i := 0; i < b.N; i++ {
				if i%len(frames) == 0 && i > 0 {
					b.StopTimer()
					s = NewSession(d, Options{})
					b.StartTimer()
				}
				s.Observe(frames[i%len(frames)])
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
			if used := cputime.Process() - cpu; used > 0 {
				b.ReportMetric(float64(b.N)/used.Seconds(), "frames/cpu-s")
			}
		})
	}
}
