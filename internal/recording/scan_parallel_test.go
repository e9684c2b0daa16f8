package recording

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// scanned is what ScanEach hands its callbacks, in order.
type scanned struct {
	lines    []Line
	problems []Problem
	order    []string
}

func scanAll(t *testing.T, r io.Reader, stopAfter int) (scanned, Source, error) {
	t.Helper()
	var s scanned
	errStop := errors.New("stop")
	src, err := ScanEach(r, func(l Line) error {
		if stopAfter > 0 && len(s.lines) == stopAfter {
			return errStop
		}
		s.lines = append(s.lines, l)
		s.order = append(s.order, "line "+l.Kind)
		return nil
	}, func(p Problem) {
		s.problems = append(s.problems, p)
		s.order = append(s.order, "problem "+p.String())
	})
	return s, src, err
}

// plainReader hides the file's ReaderAt and Seeker: ScanEach reads it line
// by line on the caller's goroutine, as before the parallel scan.
type plainReader struct{ io.Reader }

// TestParallelScanIsSequential: a file read ahead in parallel hands over
// the same lines and problems, in the same order, as a reader read line by
// line: batches of every size, bad lines, a second header, blank lines, a
// last line without a newline, and a callback that stops early (after
// which the file is the caller's again: -race sees no read behind it).
func TestParallelScanIsSequential(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex"}` + "\n")
	b.WriteString(`{"kind":"open","conn":"c1","url":"ws://x/ws","time":"2026-11-21T10:00:00Z"}` + "\n")
	for i := 0; i < 3*scanBatchLines+17; i++ {
		switch {
		case i%97 == 5:
			b.WriteString("not json\n")
		case i%101 == 7:
			b.WriteString("   \n")
		case i == 300:
			b.WriteString(`{"kind":"header","format":"wsconform-recording","version":1}` + "\n")
		case i%89 == 3:
			b.WriteString(`{"kind":"frame","index":1}` + "\n") // no conn
		default:
			fmt.Fprintf(&b, `{"kind":"frame","conn":"c1","dir":"s2c","index":%d,"opcode":1,"text":"{\"type\":\"x\",\"n\":%d}"}`+"\n", i, i)
		}
	}
	b.WriteString(`{"kind":"close","conn":"c1","code":1000}`) // no newline
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, stop := range []int{0, 1, scanBatchLines - 3, 2*scanBatchLines + 1} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		par, src1, err1 := scanAll(t, f, stop)
		// the file is ours again: read it from the start
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		seq, src2, err2 := scanAll(t, plainReader{f}, stop)
		f.Close()
		if src1 != src2 || fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("stop %d: parallel %s %v, sequential %s %v", stop, src1, err1, src2, err2)
		}
		if !reflect.DeepEqual(par, seq) {
			t.Fatalf("stop %d: parallel scan differs: %d lines %d problems, sequential %d lines %d problems",
				stop, len(par.lines), len(par.problems), len(seq.lines), len(seq.problems))
		}
		if stop == 0 && (len(seq.problems) < 10 || len(seq.lines) < 2*scanBatchLines) {
			t.Fatalf("the file should hold many lines and problems: %d, %d", len(seq.lines), len(seq.problems))
		}
	}
}

// failingReader fails after its content; it seeks, so it is read ahead in
// parallel. The scan ends with its error after the lines before it, as a
// scan line by line does.
type failingReader struct {
	*strings.Reader
}

var errDisk = errors.New("disk gone")

func (r failingReader) Read(p []byte) (int, error) {
	n, err := r.Reader.Read(p)
	if err == io.EOF {
		return n, errDisk
	}
	return n, err
}

func TestScanKeepsReaderError(t *testing.T) {
	t.Parallel()
	content := `{"kind":"open","conn":"c1","url":"ws://x/ws"}` + "\n" + `{"kind":"close","conn":"c1"}` + "\n"
	for _, r := range []io.Reader{failingReader{strings.NewReader(content)}, plainReader{failingReader{strings.NewReader(content)}}} {
		s, _, err := scanAll(t, r, 0)
		if !errors.Is(err, errDisk) || len(s.lines) != 2 {
			t.Fatalf("%T: got %d lines, %v", r, len(s.lines), err)
		}
	}
}
