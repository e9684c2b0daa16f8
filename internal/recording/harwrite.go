package recording

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/wire"
)

// HAROptions say how WriteHAR exports a recording.
type HAROptions struct {
	// Creator is the tool that writes the HAR, "name version"
	// ("wsconform 0.3.0"): log.creator.name and log.creator.version.
	Creator string
	// Session, when set, exports only the connections of that logical
	// session (the web view's "Save HAR" of one session): those whose open
	// or session line names it.
	Session string
	// OmitUnjudged leaves out the connections the recorder relayed but did
	// not judge (not the dialect's traffic: a notifications socket beside
	// the agent's). A HAR cannot say a connection was not judged, so
	// `wsconform validate` judges every connection of one; without them
	// the HAR validates to exactly the recording's findings. By default
	// they are exported (DevTools should show all the traffic), marked in
	// _wsconform.unjudged.
	OmitUnjudged bool
	// MemoryBytes bounds the encoded messages held in memory before they
	// are spooled to a temporary file (DefaultHARMemory when 0).
	MemoryBytes int
	// TempDir is where the spool file goes (os.TempDir() when "").
	TempDir string
	// OnProblem, when set, is told of every part of the recording that
	// could not be read; it is skipped either way.
	OnProblem func(Problem)
}

// DefaultHARMemory is how many bytes of encoded messages WriteHAR holds
// before it spools them: a recording of any size is exported in about this
// much memory plus a few hundred bytes per connection.
const DefaultHARMemory = 8 << 20

// ErrNothingToExport: the recording held no connection to export (it is
// empty, unreadable, or the session asked for is not in it).
var ErrNothingToExport = errors.New("nothing to export")

// WriteHAR converts the recording read from r (JSONL, or a HAR file, as
// ScanEach reads them) into a HAR 1.2 document as Chrome DevTools exports
// it ("Save all as HAR with content"): one entry per WebSocket connection,
// with its messages in _webSocketMessages, so that DevTools, HAR viewers
// and `wsconform validate` read it.
//
// A HAR groups messages per connection while a recording interleaves
// them, so r is read once and each connection's messages are encoded as
// they come, held up to opts.MemoryBytes and spooled to a temporary file
// beyond that; the document is written at the end, entry by entry. Nothing
// is written to w when the recording cannot be exported.
//
// What HAR has no place for is kept in private members (a leading
// underscore, which HAR readers ignore): the recording's dialect in
// log._wsconform; a connection's id, session, reconnect parent, unjudged
// reason, how it ended and its close frames, pings and pongs in the
// entry's _wsconform. Chrome does not list control frames as messages and
// neither does the export; a connection that ended without a close frame
// gets DevTools' "error" message at that time, which is how DevTools shows
// a failed connection and how the HAR reader learns it ended there.
//
// Messages are timed in epoch seconds, made non-decreasing in the
// recording's order (and strictly increasing where a reader that merges
// by time would otherwise put two connections' messages the other way
// round), so that the HAR reader, which merges connections by time, hands
// the validator the frames in the order the recording holds them: a frame
// recorded out of time order moves forward by at most that skew.
//
// Payloads are written as recorded: a recording is redacted when written,
// and the export neither redacts again nor restores anything.
func WriteHAR(w io.Writer, r io.Reader, opts HAROptions) error {
	_, err := ExportHAR(w, r, opts)
	return err
}

// HARStats says what an export wrote and what of the recording a HAR
// could not carry, for a caller to tell its user.
type HARStats struct {
	Entries  int // connections written
	Messages int // _webSocketMessages written, DevTools' error messages included
	// Control is the close, ping and pong frames of the written entries:
	// not HAR messages, counted in their entry's _wsconform.
	Control int
	// Unjudged is the connections the recorder did not judge that were
	// written (validate judges them in a HAR; see OmitUnjudged).
	Unjudged int
	// Omitted is the connections left out: of another session than
	// HAROptions.Session, or unjudged with OmitUnjudged.
	Omitted  int
	Problems int // parts of the recording that could not be read
}

// ExportHAR is WriteHAR that also says what it wrote.
func ExportHAR(w io.Writer, r io.Reader, opts HAROptions) (HARStats, error) {
	ex := newHARExport(opts)
	defer ex.cleanup()
	src, err := ScanEach(r, ex.line, ex.problem)
	if err != nil {
		return HARStats{}, fmt.Errorf("read recording: %w", err)
	}
	if ex.err != nil {
		return HARStats{}, ex.err
	}
	if err := ex.nothing(src); err != nil {
		return HARStats{Problems: ex.problems}, err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := ex.write(bw); err != nil {
		return HARStats{}, fmt.Errorf("write HAR: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return HARStats{}, fmt.Errorf("write HAR: %w", err)
	}
	return ex.stats(), nil
}

func (ex *harExport) stats() HARStats {
	st := HARStats{Problems: ex.problems}
	for _, c := range ex.order {
		if !ex.exported(c) {
			st.Omitted++
			continue
		}
		st.Entries++
		st.Messages += c.msgs
		st.Control += c.control + c.pings + c.pongs
		if c.unjudged != "" {
			st.Unjudged++
		}
	}
	return st
}

// harExport is the state of one export: what is known of every
// connection, and the spool their messages overflow to.
type harExport struct {
	opts     HAROptions
	dialect  string
	tool     string
	conns    map[string]*harOut
	order    []*harOut
	held     int // bytes of encoded messages held in memory
	spool    *os.File
	spoolEnd int64
	lines    int
	problems int
	first    Problem
	clock    harClock
	enc      *json.Encoder // encodes messages into encBuf, reused
	encBuf   bytes.Buffer
	err      error
	// origin is the http origin of the first socket, for the URLs of HTTP
	// exchanges (an http line has only a path).
	origin string
}

// harOut is one connection being exported.
type harOut struct {
	id, url, session, parent, unjudged string
	entry                              int // 1-based place in log.entries
	opened, last                       time.Time
	end                                *harEnd
	closeFrames                        []harCloseFrame
	control, pings, pongs              int // close frames, pings, pongs
	msgs                               int
	chunks                             []harChunk // spooled messages, in order
	buf                                []byte     // messages not spooled yet
	// http is set when the entry is an HTTP exchange, not a socket.
	http *harHTTPOut
}

// harHTTPOut is an http line and its place among the messages.
type harHTTPOut struct {
	line Line
	at   float64
}

type harChunk struct{ off, n int64 }

// harEnd is a close line: how the connection ended.
type harEnd struct {
	Code   int    `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
	By     string `json:"by,omitempty"`
	Time   string `json:"time,omitempty"`
}

// harCloseFrame is a close frame, which Chrome does not list as a message.
type harCloseFrame struct {
	Dir    wire.Direction `json:"dir"`
	Time   string         `json:"time"`
	Code   int            `json:"code,omitempty"`
	Reason string         `json:"reason,omitempty"`
}

// maxCloseFrames bounds the close frames kept per connection (a hand-made
// file could repeat them endlessly); a connection has at most two.
const maxCloseFrames = 4

func newHARExport(opts HAROptions) *harExport {
	if opts.MemoryBytes <= 0 {
		opts.MemoryBytes = DefaultHARMemory
	}
	ex := &harExport{opts: opts, conns: map[string]*harOut{}}
	ex.enc = json.NewEncoder(&ex.encBuf)
	ex.enc.SetEscapeHTML(false) // payloads stay readable: "<" not "\u003c"
	return ex
}

func (ex *harExport) cleanup() {
	if ex.spool != nil {
		name := ex.spool.Name()
		ex.spool.Close()
		os.Remove(name)
	}
}

func (ex *harExport) problem(p Problem) {
	if ex.problems++; ex.problems == 1 {
		ex.first = p
	}
	if ex.opts.OnProblem != nil {
		ex.opts.OnProblem(p)
	}
}

// nothing says why there is nothing to export, if so.
func (ex *harExport) nothing(src Source) error {
	n := 0
	for _, c := range ex.order {
		if ex.exported(c) {
			n++
		}
	}
	switch {
	case n > 0:
		return nil
	case src == SourceHAR && ex.lines == 0:
		return fmt.Errorf("%w: the HAR file has no WebSocket messages", ErrNothingToExport)
	case ex.lines == 0 && ex.problems > 0:
		return fmt.Errorf("%w: not a recording: no line could be read (%d unreadable; the first, %s)", ErrNothingToExport, ex.problems, ex.first)
	case ex.lines == 0:
		return fmt.Errorf("%w: the recording is empty", ErrNothingToExport)
	case ex.opts.Session != "" && len(ex.order) > 0:
		return fmt.Errorf("%w: no connection of session %q in the recording", ErrNothingToExport, ex.opts.Session)
	case len(ex.order) > 0:
		return fmt.Errorf("%w: every connection of the recording is unjudged and OmitUnjudged leaves them out", ErrNothingToExport)
	}
	return fmt.Errorf("%w: the recording holds no connection (%d lines)", ErrNothingToExport, ex.lines)
}

// exported says whether a connection belongs in the export.
func (ex *harExport) exported(c *harOut) bool {
	if ex.opts.OmitUnjudged && c.unjudged != "" {
		return false
	}
	return ex.opts.Session == "" || c.sessionName() == ex.opts.Session
}

// sessionName is the connection's logical session as the validator sees
// it: the one its lines name, or a session of its own.
func (c *harOut) sessionName() string {
	if c.session != "" {
		return c.session
	}
	return c.id
}

// line takes in one line of the recording.
func (ex *harExport) line(l Line) error {
	ex.lines++
	switch l.Kind {
	case KindHeader:
		ex.dialect, ex.tool = l.Dialect, l.Tool
	case KindDialect:
		ex.dialect = l.Dialect
	case KindOpen:
		c := ex.conn(l)
		c.url, c.parent = l.URL, l.Parent
		if ex.origin == "" {
			ex.origin = httpOrigin(l.URL)
		}
	case KindHTTP:
		c := ex.conn(l)
		at := l.Time.Add(time.Duration(l.Millis * float64(time.Millisecond)))
		c.http = &harHTTPOut{line: l, at: ex.clock.at(at, c.entry)}
	case KindSession:
		c := ex.conn(l)
		c.session, c.unjudged = l.Session, l.Unjudged
		if l.Parent != "" {
			c.parent = l.Parent
		}
	case KindClose:
		ex.closed(ex.conn(l), l)
	case KindFrame:
		ex.frame(ex.conn(l), l)
	}
	return ex.err
}

// conn returns the connection a line is about, starting it at its first
// line (an open line, or whatever line names it first).
func (ex *harExport) conn(l Line) *harOut {
	c, ok := ex.conns[l.Conn]
	if !ok {
		c = &harOut{id: l.Conn, entry: len(ex.order) + 1, opened: l.Time, url: l.URL}
		ex.conns[l.Conn] = c
		ex.order = append(ex.order, c)
	}
	if l.Session != "" && c.session == "" {
		c.session = l.Session
	}
	if c.url == "" {
		c.url = l.URL
	}
	if l.Time.After(c.last) {
		c.last = l.Time
	}
	return c
}

// closed keeps how a connection ended; one that ended without a close
// frame gets DevTools' error message, at the time it ended.
func (ex *harExport) closed(c *harOut, l Line) {
	c.end = &harEnd{Code: l.Code, Reason: l.Reason, By: l.By, Time: harISOTime(l.Time)}
	if l.By != ByNetwork {
		return
	}
	reason := l.Reason
	if reason == "" {
		reason = "the connection ended without a close frame"
	}
	ex.message(c, harOutMsg{Type: "error", Time: harSecs(ex.clock.at(l.Time, c.entry)), Opcode: -1, Data: reason})
}

// frame adds a frame: data frames as messages, control frames counted in
// the connection's private member.
func (ex *harExport) frame(c *harOut, l Line) {
	f, err := l.Frame()
	if err != nil {
		return // ScanEach only hands on readable frames
	}
	switch f.Op {
	case wire.OpText, wire.OpBinary:
		ex.message(c, dataMessage(f, ex.clock.at(f.Time, c.entry)))
	case wire.OpClose:
		c.control++
		if len(c.closeFrames) < maxCloseFrames {
			c.closeFrames = append(c.closeFrames, closeFrame(f))
		}
	case wire.OpPing:
		c.pings++
	case wire.OpPong:
		c.pongs++
	}
}

// harOutMsg is one of _webSocketMessages, as Chrome writes it. Base64 keeps
// the bytes of a text frame that is not valid UTF-8, which a JSON string
// cannot hold (Data has U+FFFD in their place, as DevTools would show).
type harOutMsg struct {
	Type   string  `json:"type"`
	Time   harSecs `json:"time"`
	Opcode int     `json:"opcode"`
	Data   string  `json:"data"`
	Base64 string  `json:"_wsconformBase64,omitempty"`
}

// dataMessage renders a text or binary frame as Chrome does: binary data
// in base64 with opcode 2.
func dataMessage(f wire.Frame, t float64) harOutMsg {
	m := harOutMsg{Type: "receive", Time: harSecs(t), Opcode: int(f.Op)}
	if f.Dir == wire.ClientToServer {
		m.Type = "send"
	}
	switch {
	case f.Op == wire.OpBinary:
		m.Data = base64Std(f.Payload)
	case utf8.Valid(f.Payload):
		m.Data = string(f.Payload)
	default:
		m.Data = strings.ToValidUTF8(string(f.Payload), "\uFFFD")
		m.Base64 = base64Std(f.Payload)
	}
	return m
}

func closeFrame(f wire.Frame) harCloseFrame {
	cf := harCloseFrame{Dir: f.Dir, Time: harISOTime(f.Time), Code: f.CloseCode}
	if len(f.Payload) > 2 {
		cf.Reason = strings.ToValidUTF8(string(f.Payload[2:]), "\uFFFD")
	}
	if cf.Code == 0 && len(f.Payload) >= 2 {
		cf.Code = int(f.Payload[0])<<8 | int(f.Payload[1])
	}
	return cf
}

// message encodes a message into the connection's buffer, spooling every
// buffer when the memory bound is reached.
func (ex *harExport) message(c *harOut, m harOutMsg) {
	sep := ",\n"
	if c.msgs == 0 {
		sep = "\n"
	}
	c.msgs++
	before := len(c.buf)
	c.buf = append(c.buf, sep...)
	c.buf = ex.appendJSON(c.buf, m)
	ex.held += len(c.buf) - before
	if ex.held >= ex.opts.MemoryBytes {
		ex.err = ex.spoolAll()
	}
}

// spoolAll moves every connection's buffered messages to the spool file.
func (ex *harExport) spoolAll() error {
	if ex.spool == nil {
		f, err := os.CreateTemp(ex.opts.TempDir, "wsconform-har-*")
		if err != nil {
			return fmt.Errorf("spool HAR messages: %w", err)
		}
		ex.spool = f
	}
	for _, c := range ex.order {
		if len(c.buf) == 0 {
			continue
		}
		n, err := ex.spool.WriteAt(c.buf, ex.spoolEnd)
		if err != nil {
			return fmt.Errorf("spool HAR messages: %w", err)
		}
		c.chunks = append(c.chunks, harChunk{off: ex.spoolEnd, n: int64(n)})
		ex.spoolEnd += int64(n)
		c.buf = c.buf[:0]
	}
	ex.held = 0
	return nil
}

// harClock turns recording times into the epoch seconds of messages, in
// the recording's order (see WriteHAR).
type harClock struct {
	prev  float64
	entry int
}

// at is the time of the next message, of the connection at entry.
func (k *harClock) at(t time.Time, entry int) float64 {
	s := epochSeconds(t)
	if s < k.prev {
		s = k.prev
	}
	if s == k.prev && entry < k.entry {
		s = math.Nextafter(s, math.Inf(1))
	}
	k.prev, k.entry = s, entry
	return s
}

// maxEpochSeconds is the latest time a HAR reader accepts (year 5138).
const maxEpochSeconds = 1e11

// epochSeconds is t in epoch seconds, within what HAR readers accept: a
// zero or pre-1970 time is 0.
func epochSeconds(t time.Time) float64 {
	if t.IsZero() || t.Unix() < 0 {
		return 0
	}
	s := float64(t.Unix()) + float64(t.Nanosecond())/1e9
	return math.Min(s, maxEpochSeconds)
}

// harSecs marshals as the shortest decimal that reads back as the same
// float64, so a reader sees exactly the order the export made.
type harSecs float64

func (s harSecs) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, float64(s), 'f', -1, 64), nil
}

// harISOTime is a time as Chrome writes startedDateTime: UTC, milliseconds.
func harISOTime(t time.Time) string {
	if t.IsZero() {
		t = time.Unix(0, 0)
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// wsURL is a connection's URL as Chrome writes a WebSocket's request URL:
// ws:// or wss://, even when the recorder saw the HTTP upgrade request.
func wsURL(u string) string {
	switch {
	case strings.HasPrefix(u, "http://"):
		return "ws://" + u[len("http://"):]
	case strings.HasPrefix(u, "https://"):
		return "wss://" + u[len("https://"):]
	}
	return u
}

// queryString lists the URL's query as HAR does, in the URL's order.
func queryString(u string) []harNameValue {
	out := []harNameValue{}
	_, q, ok := strings.Cut(u, "?")
	if !ok {
		return out
	}
	q, _, _ = strings.Cut(q, "#")
	for _, kv := range strings.Split(q, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		out = append(out, harNameValue{Name: k, Value: v})
	}
	return out
}

// appendJSON appends v as JSON without HTML escaping.
func (ex *harExport) appendJSON(b []byte, v any) []byte {
	ex.encBuf.Reset()
	if err := ex.enc.Encode(v); err != nil {
		// Only a harSecs could fail, and it never does: keep the document
		// well formed all the same.
		return append(b, "null"...)
	}
	return append(b, bytes.TrimSuffix(ex.encBuf.Bytes(), []byte("\n"))...)
}

func base64Std(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
