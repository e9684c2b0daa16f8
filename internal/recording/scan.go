package recording

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// Source says what kind of file a recording was read from.
type Source string

// Sources a recording can come from.
const (
	SourceJSONL Source = "jsonl"
	SourceHAR   Source = "har"
)

// Scan reads a recording, JSONL or HAR (detected from its first bytes), and
// calls fn for every well-formed line in order. It returns the kind of file,
// the problems met (parts that could not be read, skipped), and an error
// when the file could not be read at all or fn failed.
func Scan(r io.Reader, fn func(Line) error) (Source, []Problem, error) {
	var problems []Problem
	src, err := ScanEach(r, fn, func(p Problem) { problems = append(problems, p) })
	return src, problems, err
}

// ScanEach is Scan that hands on every problem as it is met, in its place
// among the lines, instead of collecting them. Memory stays bounded by the
// longest line (JSONL) or the connections open at one time (HAR), whatever
// the size of the file: give it a file (an io.ReaderAt and io.Seeker) for a
// HAR, which is read twice; any other reader's HAR is read into memory, up
// to MaxHARBytes.
func ScanEach(r io.Reader, line func(Line) error, problem func(Problem)) (Source, error) {
	return ScanEachPrepared(r, nil, func(l Line, _ any) error { return line(l) }, problem)
}

// ScanEachPrepared is ScanEach that also runs prepare (when not nil) on
// every line and hands its result to line with it. prepare must be safe
// for concurrent use: on a JSONL file it runs on the cores that parse the
// lines ahead, so work that needs only the line (decoding and checking a
// frame by itself) leaves the caller's goroutine.
func ScanEachPrepared(r io.Reader, prepare func(Line) any, line func(Line, any) error, problem func(Problem)) (Source, error) {
	return scanEach(r, parseLine, prepare, line, problem)
}

// ScanEachLazy is ScanEach for a reader that needs few frames' payloads:
// a frame line's text is checked but not decoded until Line.Frame is
// called (the rest of the line as ScanEach reads it). validate's first
// pass, which looks at the payloads of connections whose session it has
// not learnt yet, spent most of its time copying every frame's text.
func ScanEachLazy(r io.Reader, line func(Line) error, problem func(Problem)) (Source, error) {
	return scanEach(r, lazyText, nil, func(l Line, _ any) error { return line(l) }, problem)
}

func scanEach(r io.Reader, parse func([]byte) (Line, error), prepare func(Line) any, line func(Line, any) error, problem func(Problem)) (Source, error) {
	if prepare == nil {
		prepare = func(Line) any { return nil }
	}
	ra, base, size, seekable := readerAt(r)
	br := bufio.NewReaderSize(r, 64<<10)
	if isHAR(br) {
		if !seekable {
			b, err := io.ReadAll(io.LimitReader(br, MaxHARBytes+1))
			if err != nil {
				return SourceHAR, fmt.Errorf("read HAR: %w", err)
			}
			if len(b) > MaxHARBytes {
				return SourceHAR, fmt.Errorf("read HAR: longer than %d bytes; give it as a file", MaxHARBytes)
			}
			ra, base, size = bytes.NewReader(b), 0, int64(len(b))
		}
		return SourceHAR, scanHAR(ra, base, size, func(l Line) error { return line(l, prepare(l)) }, problem)
	}
	rr := NewReader(br)
	rr.OnProblem, rr.parse = problem, parse
	return SourceJSONL, scanLines(rr, seekable, prepare, line, problem)
}

// readerAt returns r as an io.ReaderAt with its current offset and its
// size, when it is one (a file) and can seek.
func readerAt(r io.Reader) (io.ReaderAt, int64, int64, bool) {
	ra, ok := r.(io.ReaderAt)
	s, ok2 := r.(io.Seeker)
	if !ok || !ok2 {
		return nil, 0, 0, false
	}
	base, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, 0, 0, false
	}
	size, err := s.Seek(0, io.SeekEnd)
	if _, err2 := s.Seek(base, io.SeekStart); err != nil || err2 != nil {
		return nil, 0, 0, false
	}
	return ra, base, size, true
}

// isHAR peeks at the start of the file: a HAR is one JSON object whose
// first member is "log"; a recording starts with {"kind":.
func isHAR(br *bufio.Reader) bool {
	head, _ := br.Peek(4096)
	head = bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if !bytes.HasPrefix(head, []byte("{")) {
		return false
	}
	rest := bytes.TrimLeft(head[1:], " \t\r\n")
	return bytes.HasPrefix(rest, []byte(`"log"`))
}

// Detect says whether r holds a HAR file or a JSONL recording, from its
// first bytes (as Scan decides).
func Detect(r io.Reader) Source {
	if isHAR(bufio.NewReaderSize(r, 4096)) {
		return SourceHAR
	}
	return SourceJSONL
}
