package recording

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxFrameBytes is the largest frame payload a recording holds such that
// every reader reads it back: wsproxy relays frames up to this size by
// default (proxy.DefaultMaxFrame is this constant) and refuses a larger
// --max-frame while it records.
const MaxFrameBytes = 16 << 20

// MaxLineBytes bounds one line of a recording: the longest line a Writer
// writes for a frame of MaxFrameBytes (LineBytes). Longer lines are
// reported and skipped, not buffered.
const MaxLineBytes = MaxFrameBytes*maxEscape + lineEnvelope

// What a frame line can cost. A text frame is written as a JSON string,
// escaped by encoding/json with HTML escaping off: a control character
// other than \b \f \n \r \t becomes \u00XX, 6 bytes for 1, the most any
// byte costs (" and \ take 2; U+2028 and U+2029 take 6 for 3; other UTF-8
// is copied; a payload that is not UTF-8 is written in base64). A binary
// frame costs 4 bytes per 3 in base64. Redaction never makes a payload
// longer (redact.JSON). The rest of a frame line (kind, conn, session of
// at most 80 characters, index, time, direction, opcode, code) stays far
// below lineEnvelope; so do open, close and session lines, whose URL is
// percent-encoded and whose texts are bounded.
const (
	maxEscape    = 6
	lineEnvelope = 64 << 10
)

// LineBytes is the longest line a Writer writes for a frame of n payload
// bytes.
func LineBytes(n int64) int64 { return n*maxEscape + lineEnvelope }

// Problem is a part of a recording that could not be read: a line of a
// JSONL recording, a message (or a whole entry) of a HAR file, or the rest
// of a torn HAR file. It is reported and skipped.
type Problem struct {
	Line    int    `json:"line,omitempty"`
	Entry   int    `json:"entry,omitempty"`
	Message int    `json:"message,omitempty"`
	Err     string `json:"error"`
}

// Where names the place of the problem: "line 12", "HAR entry 3, message
// 5", "HAR entry 3" or "the HAR file".
func (p Problem) Where() string {
	switch {
	case p.Line > 0:
		return fmt.Sprintf("line %d", p.Line)
	case p.Message > 0:
		return fmt.Sprintf("HAR entry %d, message %d", p.Entry, p.Message)
	case p.Entry > 0:
		return fmt.Sprintf("HAR entry %d", p.Entry)
	}
	return "the HAR file"
}

func (p Problem) String() string { return p.Where() + ": " + p.Err }

// Reader streams the lines of a JSONL recording.
type Reader struct {
	// OnProblem, when set, is told of every malformed line as it is met,
	// and Problems stays empty (a file of millions of bad lines is not
	// held in memory).
	OnProblem func(Problem)

	br       *bufio.Reader
	parse    func([]byte) (Line, error) // parseLine, or lazyText for ScanEachLazy
	line     int
	header   *Line
	problems []Problem
}

// NewReader reads a recording from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), parse: parseLine}
}

// Header returns the header line once it has been read (nil before, or
// when the recording has none).
func (r *Reader) Header() *Line { return r.header }

// Problems lists the malformed lines met so far (none when OnProblem is
// set).
func (r *Reader) Problems() []Problem { return r.problems }

func (r *Reader) problem(p Problem) {
	if r.OnProblem != nil {
		r.OnProblem(p)
		return
	}
	r.problems = append(r.problems, p)
}

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
		l, perr := r.parse(raw)
		if perr != nil {
			r.problem(Problem{Line: r.line, Err: perr.Error()})
			continue
		}
		if l.Kind == KindHeader {
			if r.header != nil {
				r.problem(Problem{Line: r.line, Err: "a second header line"})
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
			r.problem(Problem{Line: r.line, Err: fmt.Sprintf("%v (%d bytes)", errTooLong, MaxLineBytes)})
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
	l, err := decodeLine(raw)
	if err != nil {
		return Line{}, fmt.Errorf("not a recording line: %w", err)
	}
	return l, checkLine(l)
}

// checkLine refuses a line that parsed but lacks what its kind needs.
func checkLine(l Line) error {
	switch l.Kind {
	case KindHeader:
		if l.Format != Format {
			return fmt.Errorf("header names format %q, want %q", l.Format, Format)
		}
		if l.Version < VersionFrames || l.Version > Version {
			return fmt.Errorf("recording format version %d, this build reads %d to %d", l.Version, VersionFrames, Version)
		}
	case KindOpen, KindClose:
		if l.Conn == "" {
			return fmt.Errorf("%s line without conn", l.Kind)
		}
	case KindSession:
		if l.Conn == "" || l.Session == "" {
			return errors.New("session line without conn or session")
		}
	case KindDialect:
		if l.Dialect == "" {
			return errors.New("dialect line without dialect")
		}
	case KindHTTP:
		if l.Conn == "" {
			return errors.New("http line without conn")
		}
		if _, err := l.Exchange(); err != nil {
			return err
		}
	case KindFrame:
		if l.Conn == "" {
			return errors.New("frame line without conn")
		}
		if _, err := l.frame(false); err != nil { // a lazy text is decoded when used
			return err
		}
	default:
		return fmt.Errorf("unknown line kind %q", l.Kind)
	}
	return nil
}
