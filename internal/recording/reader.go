package recording

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxLineBytes bounds one line of a recording: a 16 MiB frame in base64
// plus its envelope. Longer lines are reported and skipped, not buffered.
const MaxLineBytes = 24 << 20

// Problem is a line that could not be read; it is reported and skipped.
type Problem struct {
	Line int    `json:"line"`
	Err  string `json:"error"`
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Err) }

// Reader streams the lines of a JSONL recording.
type Reader struct {
	br       *bufio.Reader
	line     int
	header   *Line
	problems []Problem
}

// NewReader reads a recording from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10)}
}

// Header returns the header line once it has been read (nil before, or
// when the recording has none).
func (r *Reader) Header() *Line { return r.header }

// Problems lists the malformed lines met so far.
func (r *Reader) Problems() []Problem { return r.problems }

// Next returns the next well-formed line, skipping (and recording as
// problems) malformed ones. It returns io.EOF at the end, or the error of
// the underlying reader.
func (r *Reader) Next() (Line, error) {
	for {
		raw, err := r.readLine()
		if err != nil {
			return Line{}, err
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		l, perr := parseLine(raw)
		if perr != nil {
			r.problems = append(r.problems, Problem{Line: r.line, Err: perr.Error()})
			continue
		}
		if l.Kind == KindHeader {
			if r.header != nil {
				r.problems = append(r.problems, Problem{Line: r.line, Err: "second header line ignored"})
				continue
			}
			r.header = &l
		}
		return l, nil
	}
}

// errTooLong marks a line beyond MaxLineBytes; the rest of it is drained.
var errTooLong = errors.New("line longer than the limit")

func (r *Reader) readLine() ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLineBytes {
			r.line++
			r.problems = append(r.problems, Problem{Line: r.line,
				Err: fmt.Sprintf("%v (%d bytes); skipped", errTooLong, MaxLineBytes)})
			if derr := r.drain(err); derr != nil {
				return nil, derr
			}
			buf = buf[:0]
			continue
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			r.line++
			return buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(buf) > 0:
			r.line++
			return buf, nil // last line without a newline: a crash mid-write ends here
		default:
			return nil, err
		}
	}
}

// drain discards the rest of an over-long line.
func (r *Reader) drain(err error) error {
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = r.br.ReadSlice('\n')
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

func parseLine(raw []byte) (Line, error) {
	var l Line
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&l); err != nil {
		return Line{}, fmt.Errorf("not a recording line: %w", err)
	}
	if dec.More() {
		return Line{}, errors.New("not a recording line: more than one JSON value")
	}
	switch l.Kind {
	case KindHeader:
		if l.Format != Format {
			return Line{}, fmt.Errorf("header names format %q, want %q", l.Format, Format)
		}
		if l.Version != Version {
			return Line{}, fmt.Errorf("recording format version %d, this build reads %d", l.Version, Version)
		}
	case KindOpen, KindClose:
		if l.Conn == "" {
			return Line{}, fmt.Errorf("%s line without conn", l.Kind)
		}
	case KindSession:
		if l.Conn == "" || l.Session == "" {
			return Line{}, errors.New("session line without conn or session")
		}
	case KindDialect:
		if l.Dialect == "" {
			return Line{}, errors.New("dialect line without dialect")
		}
	case KindFrame:
		if l.Conn == "" {
			return Line{}, errors.New("frame line without conn")
		}
		if _, err := l.Frame(); err != nil {
			return Line{}, err
		}
	default:
		return Line{}, fmt.Errorf("unknown line kind %q", l.Kind)
	}
	return l, nil
}
