package recording

import (
	"bufio"
	"bytes"
	"errors"
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
// the problems met (malformed lines skipped), and an error when the file
// could not be read at all or fn failed.
func Scan(r io.Reader, fn func(Line) error) (Source, []Problem, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if isHAR(br) {
		lines, problems, err := ReadHAR(br)
		if err != nil {
			return SourceHAR, problems, err
		}
		for _, l := range lines {
			if err := fn(l); err != nil {
				return SourceHAR, problems, err
			}
		}
		return SourceHAR, problems, nil
	}
	rr := NewReader(br)
	for {
		l, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return SourceJSONL, rr.Problems(), nil
		}
		if err != nil {
			return SourceJSONL, rr.Problems(), err
		}
		if err := fn(l); err != nil {
			return SourceJSONL, rr.Problems(), err
		}
	}
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
