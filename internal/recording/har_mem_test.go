package recording

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// writeBigHAR writes a HAR of about size bytes: a minicodex page refreshed
// again and again, each connection resuming the session and receiving
// 2,000 events of 400 bytes, with a large response body in every entry the
// reader has to skip.
func writeBigHAR(t testing.TB, path string, size int) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprint(w, `{"log":{"version":"1.2","creator":{"name":"WebInspector"},"entries":[`)
	pad := strings.Repeat("x", 400)
	secs, ev, written := 1795255200.0, 0, 0
	for c := 0; written < size; c++ {
		if c > 0 {
			fmt.Fprint(w, ",")
		}
		n, _ := fmt.Fprintf(w, `{"startedDateTime":"2026-11-21T10:00:00Z","request":{"url":"ws://127.0.0.1:7337/ws"},`+
			`"response":{"content":{"text":%q}},"_webSocketMessages":[`, strings.Repeat("b", 64<<10))
		written += n
		first := fmt.Sprintf(`{"type":"resume","session_id":"s1","last_seen_event_id":%d}`, ev)
		msgs := []string{first, `{"type":"welcome","v":"1.0.0","session_state":{"session_id":"s1","version":"1.0.0","capabilities":[],"run_counter":0}}`}
		for range 2000 {
			ev++
			msgs = append(msgs, fmt.Sprintf(`{"type":"assistant_text","text":"%s","event_id":%d}`, pad, ev))
		}
		for k, m := range msgs {
			if k > 0 {
				fmt.Fprint(w, ",")
			}
			typ := "receive"
			if k == 0 {
				typ = "send"
			}
			d, _ := json.Marshal(m)
			secs += 0.001
			n, _ := fmt.Fprintf(w, `{"type":"%s","time":%.3f,"opcode":1,"data":%s}`, typ, secs, d)
			written += n
		}
		fmt.Fprint(w, `]}`)
	}
	fmt.Fprint(w, `]}}`)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// maxHARHeap bounds the heap in use while a 50 MB HAR is read: the reader
// holds an index entry per connection and a decoder per connection open at
// one time, never the file (reading it whole took about eight times its
// size).
const maxHARHeap = 24 << 20

// TestHARMemoryBounded reads a generated 50 MB HAR and samples the heap in
// use every 1,000 lines: its peak above what was in use before stays under
// maxHARHeap. A bound on retained memory, not on time.
func TestHARMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a 50 MB file")
	}
	path := filepath.Join(t.TempDir(), "big.har")
	writeBigHAR(t, path, 50<<20)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	sample := func() {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	frames := 0
	_, problems, err := Scan(f, func(l Line) error {
		if l.Kind == KindFrame {
			frames++
			if frames%1000 == 0 {
				sample()
			}
		}
		return nil
	})
	sample()
	if err != nil || len(problems) > 0 || frames < 90_000 {
		t.Fatalf("%d frames, problems %v, %v", frames, problems, err)
	}
	t.Logf("%d frames; peak heap in use %.1f MiB above the %.1f MiB before", frames, float64(peak-base)/(1<<20), float64(base)/(1<<20))
	if peak-base > maxHARHeap {
		t.Errorf("peak heap in use %d MiB above the start, want at most %d MiB", (peak-base)>>20, maxHARHeap>>20)
	}
}
