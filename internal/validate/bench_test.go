package validate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wsconform/wsconform/internal/validate/synth"
)

// BenchmarkFile measures File on a synthetic, clean myagent recording of
// 200,000 frames over 8 sessions (about 57 MB): reading, grouping and
// judging. README's Performance section times the 1M-frame file through
// `wsconform validate`.
func BenchmarkFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "synth.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	const frames = 200000
	if err := synth.Write(f, synth.Options{Frames: frames}); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := File(context.Background(), path, Options{})
		if err != nil || res.Frames != frames || len(res.Findings) != 0 {
			b.Fatalf("%d frames, %d findings, %v", res.Frames, len(res.Findings), err)
		}
	}
	b.ReportMetric(float64(frames)*float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}
