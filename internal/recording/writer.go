package recording

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/redact"
	"github.com/wsconform/wsconform/internal/wire"
)

// Writer appends lines to a recording and flushes each one, so that after
// a crash (even SIGKILL) the file holds every line written before it and
// reads back cleanly. It is safe for concurrent use: the proxy records
// connections from several goroutines.
//
// Unless told to keep them (Header.KeepSecrets, or a destination wrapped
// by KeepSecrets), a Writer redacts credentials as it writes (package
// redact): the query values, user-info password and token shapes of open
// lines' URLs; in text frames the values of credential members
// ({"apiKey":…}, in JSON held in a string too) and token shapes (Bearer
// …, sk-…, JWTs, ghp_…, AWS keys); close reasons as text; binary frames,
// pings and pongs as redact.Binary does (as text when they are UTF-8,
// else token shapes masked in place). Only what is written is redacted:
// the frames a Writer is given, which the check engine judges, are never
// changed.
type Writer struct {
	mu   sync.Mutex
	bw   *bufio.Writer
	enc  *json.Encoder
	err  error
	keep bool
	// batch leaves lines in the buffer until Flush (or until it is full).
	batch bool
	// line is the buffer a frame's line is encoded into (appendFrameLine).
	line []byte
}

// Header describes a recording.
type Header struct {
	Dialect string
	Tool    string
	Started time.Time
	// KeepSecrets writes credentials as they are (--no-redact).
	KeepSecrets bool
	// HTTP says the recording may hold http lines: the header names format
	// version 2 (Version), which a version-1 reader refuses with a clear
	// message instead of failing on each http line. Without it the header
	// names version 1 and every reader reads the file.
	HTTP bool
}

// KeepSecrets wraps the destination of a recording so that NewWriter
// keeps its credentials, as Header.KeepSecrets does: for a command that
// hands its file to a recorder it does not configure (wsproxy --no-redact
// and the gate give it to the proxy).
func KeepSecrets(w io.Writer) io.Writer { return keepSecrets{w} }

type keepSecrets struct{ io.Writer }

// NewWriter writes the header line to w and returns a Writer.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	keep := h.KeepSecrets
	if k, ok := w.(keepSecrets); ok {
		w, keep = k.Writer, true
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false) // payloads stay readable: "<" not "\u003c"
	rw := &Writer{bw: bw, enc: enc, keep: keep}
	version := VersionFrames
	if h.HTTP {
		version = Version
	}
	err := rw.write(Line{Kind: KindHeader, Format: Format, Version: version,
		Dialect: h.Dialect, Tool: h.Tool, Time: h.Started.UTC()})
	if err != nil {
		return nil, err
	}
	return rw, nil
}

// Open records a new connection of session, reconnecting parent if set.
func (w *Writer) Open(conn, session, parent, url string, t time.Time) error {
	return w.write(Line{Kind: KindOpen, Conn: conn, Session: session, Parent: parent, URL: w.url(url), Time: t.UTC()})
}

// OpenPending records a new connection whose session is not known yet;
// Session names it later. Its frames until then are recorded with no
// session.
func (w *Writer) OpenPending(conn, url string, t time.Time) error {
	return w.write(Line{Kind: KindOpen, Conn: conn, Pending: true, URL: w.url(url), Time: t.UTC()})
}

// Session binds a pending connection to its session, reconnecting parent
// if set.
func (w *Writer) Session(conn, session, parent string, t time.Time) error {
	return w.write(Line{Kind: KindSession, Conn: conn, Session: session, Parent: parent, Time: t.UTC()})
}

// Unjudged marks a connection the recorder relays and records but does
// not judge (it is not the dialect's traffic), and why. It is a session
// line binding conn to a session of its own, so that readers that do not
// know the mark judge the connection as before (a connection no session
// line names is a session of its own) and the format version stays 1.
func (w *Writer) Unjudged(conn, reason string, t time.Time) error {
	return w.write(Line{Kind: KindSession, Conn: conn, Session: conn, Unjudged: reason, Time: t.UTC()})
}

// Dialect names the dialect of the recording when the header could not
// (it was detected from the traffic), and why.
func (w *Writer) Dialect(name, reason string, t time.Time) error {
	return w.write(Line{Kind: KindDialect, Dialect: name, Reason: reason, Time: t.UTC()})
}

// Frame records one frame of session.
func (w *Writer) Frame(session string, f wire.Frame) error {
	if !w.keep {
		f.Payload = RedactPayload(f.Op, f.Payload)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	var ok bool
	if w.line, ok = appendFrameLine(w.line[:0], session, f); !ok {
		l := FrameLine(session, f)
		l.Time = l.Time.UTC()
		return w.writeLocked(l)
	}
	_, err := w.bw.Write(w.line)
	if cap(w.line) > maxKeptLine {
		w.line = nil // one huge frame does not pin its buffer
	}
	if err != nil {
		w.err = fmt.Errorf("write recording line: %w", err)
		return w.err
	}
	return w.flushLocked()
}

// maxKeptLine is the largest line buffer a Writer keeps for the next frame.
const maxKeptLine = 256 << 10

// HTTP records one HTTP exchange of the protocol in session (see
// KindHTTP). Unless told to keep secrets, both bodies are redacted as text
// frames are (password, access_token, token shapes) and the path as text;
// the Authorization header was never kept, only its scheme.
func (w *Writer) HTTP(session string, x wire.Exchange) error {
	if !w.keep {
		x.Path = redact.Text(x.Path)
		x.Request = RedactPayload(wire.OpText, x.Request)
		x.Response = RedactPayload(wire.OpText, x.Response)
	}
	l := ExchangeLine(session, x)
	l.Time = l.Time.UTC()
	return w.write(l)
}

// Close records how a connection ended. by is one of the By constants.
func (w *Writer) Close(conn, session string, code int, reason, by string, t time.Time) error {
	if !w.keep {
		reason = redact.Text(reason)
	}
	return w.write(Line{Kind: KindClose, Conn: conn, Session: session, Code: code, Reason: reason, By: by, Time: t.UTC()})
}

// maxCloseReason is the longest close reason a close frame carries (RFC
// 6455 §5.5: 125 bytes of payload, two of them the code).
const maxCloseReason = 123

// RedactPayload is a frame's payload as a recording writes it: a text
// frame's redacted by redact.JSON, a close frame's reason as text (cut to
// the 123 bytes a close frame holds when a Marker made it longer, so that
// a replay can still send it), a binary frame's, a ping's or a pong's by
// redact.Binary. A new slice when anything was redacted: p is never
// changed.
func RedactPayload(op wire.Opcode, p []byte) []byte {
	switch {
	case op == wire.OpText:
		p, _ = redact.JSON(p)
	case op == wire.OpClose && utf8.Valid(p):
		r := redact.Text(string(p))
		if r == string(p) {
			return p
		}
		if len(r) > maxCloseReason && len(p) <= maxCloseReason {
			r = r[:maxCloseReason]
			for !utf8.ValidString(r) {
				r = r[:len(r)-1]
			}
		}
		p = []byte(r)
	default:
		p, _, _ = redact.Binary(p)
	}
	return p
}

// url is u as the recording writes it.
func (w *Writer) url(u string) string {
	if w.keep {
		return u
	}
	return redact.URL(u)
}

// Batch makes the Writer leave lines in its 64 KiB buffer until Flush (or
// until the buffer is full) instead of flushing each one: for a writer
// that flushes whenever it has nothing more to write (the proxy's
// recorder), a flush per line is a system call per frame. A crash then
// loses at most the lines not flushed yet.
func (w *Writer) Batch() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.batch = true
}

// Flush writes the buffered lines out (Batch).
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("flush recording: %w", err)
	}
	return w.err
}

// write encodes and flushes one line (unless Batch). After the first error every call
// returns it: a recording with a hole in the middle would mislead.
func (w *Writer) write(l Line) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	return w.writeLocked(l)
}

// writeLocked is write with w.mu held and no error yet.
func (w *Writer) writeLocked(l Line) error {
	if err := w.enc.Encode(l); err != nil {
		w.err = fmt.Errorf("write recording line: %w", err)
		return w.err
	}
	return w.flushLocked()
}

// flushLocked flushes the line just written, unless Batch.
func (w *Writer) flushLocked() error {
	if w.batch {
		return nil
	}
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("flush recording: %w", err)
	}
	return w.err
}
