package recording

import (
	"bytes"
	"errors"
	"io"
	"runtime"
)

// Parsing a line (encoding/json into a Line) is about as costly as judging
// its frame, so a JSONL recording's lines are parsed on the other cores
// while the caller's goroutine judges: a reader goroutine cuts the file into
// batches of lines, workers parse them, and the caller takes the batches in
// file order. Lines and problems reach the callbacks in exactly the order
// and with exactly the content the sequential reader gives (issue 26:
// `wsconform validate` of a 1M-frame recording on 2 cores).
const (
	scanBatchLines = 256
	scanBatchBytes = 1 << 20
	// scanAhead bounds the batches read but not yet handed to the caller,
	// so memory does not follow the file when the caller is the slower.
	scanAhead = 8
)

// scanItem is one line of a batch: its raw bytes and number, then what a
// worker made of it; or a problem the reader met (a line over the limit).
type scanItem struct {
	raw     []byte
	line    int
	l       Line
	prep    any // what prepare made of l
	err     error
	problem *Problem
}

type scanBatch struct {
	items  []scanItem
	err    error         // the underlying reader's error after the items
	parsed chan struct{} // closed when a worker has parsed the batch
}

// scanLines reads the lines of a JSONL recording from rr and hands each to
// line (or problem), in order; the first error of line ends the scan. A
// file is read ahead in parallel; any other reader (a pipe, which may block
// after the caller stopped) line by line.
func scanLines(rr *Reader, file bool, prepare func(Line) any, line func(Line, any) error, problem func(Problem)) error {
	// As many workers as cores: with prepare they do more per line than
	// the caller, which then waits for them.
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || !file {
		return scanSequential(rr, prepare, line)
	}
	if workers > 4 {
		workers = 4
	}
	done := make(chan struct{})
	ordered := make(chan *scanBatch, scanAhead)
	work := make(chan *scanBatch, scanAhead)
	readerDone := make(chan struct{})
	// On return the reader goroutine has stopped reading: the caller may
	// seek or close the file next.
	defer func() { close(done); <-readerDone }()
	go func() { defer close(readerDone); readBatches(rr, ordered, work, done) }()
	for i := 0; i < workers; i++ {
		go parseBatches(work, rr.parse, prepare)
	}
	for b := range ordered {
		<-b.parsed
		for i := range b.items {
			it := &b.items[i]
			switch {
			case it.problem != nil:
				problem(*it.problem)
			case it.err != nil:
				problem(Problem{Line: it.line, Err: it.err.Error()})
			default:
				if it.l.Kind == KindHeader {
					if rr.header != nil {
						problem(Problem{Line: it.line, Err: "a second header line"})
						continue
					}
					h := it.l
					rr.header = &h
				}
				if err := line(it.l, it.prep); err != nil {
					return err
				}
			}
		}
		if b.err != nil {
			return b.err
		}
	}
	return nil
}

// scanSequential is the scan on one core.
func scanSequential(rr *Reader, prepare func(Line) any, line func(Line, any) error) error {
	for {
		l, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := line(l, prepare(l)); err != nil {
			return err
		}
	}
}

// readBatches cuts rr into batches, sending each to work (to be parsed)
// and to ordered (for the caller, in file order), until the end, an error,
// or done.
func readBatches(rr *Reader, ordered, work chan<- *scanBatch, done <-chan struct{}) {
	defer close(ordered)
	defer close(work)
	b := &scanBatch{parsed: make(chan struct{})}
	size := 0
	rr.OnProblem = func(p Problem) { b.items = append(b.items, scanItem{problem: &p}) }
	send := func() bool {
		select {
		case work <- b:
		case <-done:
			return false
		}
		select {
		case ordered <- b:
		case <-done:
			return false
		}
		b, size = &scanBatch{parsed: make(chan struct{})}, 0
		return true
	}
	for {
		raw, err := rr.readLine()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				b.err = err
			}
			send()
			return
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		b.items = append(b.items, scanItem{raw: raw, line: rr.line})
		size += len(raw)
		if (len(b.items) >= scanBatchLines || size >= scanBatchBytes) && !send() {
			return
		}
	}
}

// parseBatches parses and prepares the lines of each batch it is given.
func parseBatches(work <-chan *scanBatch, parse func([]byte) (Line, error), prepare func(Line) any) {
	for b := range work {
		for i := range b.items {
			it := &b.items[i]
			if it.problem == nil {
				it.l, it.err = parse(it.raw)
				it.raw = nil
				if it.err == nil {
					it.prep = prepare(it.l)
				}
			}
		}
		close(b.parsed)
	}
}
