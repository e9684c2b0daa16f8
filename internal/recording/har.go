package recording

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// MaxHARBytes bounds a HAR file that is not a file (a pipe): it is read
// into memory first, since the streaming reader reads a file twice.
const MaxHARBytes = 1 << 30

// A HAR file (HAR 1.2 as Chrome DevTools exports it, "Save all as HAR with
// content") is one JSON document; its WebSocket traffic is in the
// _webSocketMessages of log.entries[]. It is streamed, never decoded whole,
// so that memory follows the connections open at one time and not the size
// of the file:
//
//  1. The index pass walks the document with encoding/json's token API and
//     keeps, per entry with messages, its URL, start, the time of its first
//     message, where its messages begin in the file and how many can be
//     read. Everything else (bodies, headers, timings) is skipped token by
//     token.
//  2. The frame pass reads the connections' messages from where the index
//     says, each connection on its own cursor, and merges them by time: a
//     connection's cursor opens when the merge reaches its first message and
//     closes after its last one. Entries need not be ordered by time in the
//     file; messages of one connection keep the order of the file.
//
// Each connection gives an open line, its frames, and a close line after
// its last message (HAR files say nothing else of how a connection ended;
// a DevTools "error" message is a close by the network). A message that
// cannot be read is a problem with its entry and message number; the break
// of a torn file is a problem, and what came before it is still read.

// harConn is what the index pass keeps of one entry with messages.
type harConn struct {
	entry   int // 1-based index in log.entries
	url     string
	started time.Time
	first   float64 // time of its first message with a readable time
	msgs    int64   // file offset just past the "_webSocketMessages" key
	count   int     // messages that are whole JSON values
	// unjudged is the reason WriteHAR kept in the entry's _wsconform when
	// the recorder relayed the connection without judging it.
	unjudged string
	// end and closeFrames are how the connection ended, as WriteHAR kept
	// them in the entry's _wsconform (Chrome lists no close frames): a
	// replay closes as the recorded client did instead of cutting.
	end         *harEnd
	closeFrames []harCloseFrame
}

type harMessage struct {
	Type   string          `json:"type"` // "send" (client→server), "receive", or DevTools' "error"
	Time   json.RawMessage `json:"time"` // epoch seconds, fractional
	Opcode int             `json:"opcode"`
	Data   json.RawMessage `json:"data"`
	// Base64 holds the exact bytes of a text message that is not valid
	// UTF-8 (a JSON string cannot), as WriteHAR exports it.
	Base64 string `json:"_wsconformBase64,omitempty"`
}

// scanHAR reads the HAR file in r[base:size] and calls line for every line
// and problem for every part it cannot read, in time order.
func scanHAR(r io.ReaderAt, base, size int64, line func(Line) error, problem func(Problem)) error {
	conns, https := indexHAR(r, base, size, problem)
	return mergeHAR(r, size, conns, https, line, problem)
}

// indexHAR is the index pass.
func indexHAR(r io.ReaderAt, base, size int64, problem func(Problem)) ([]harConn, []harHTTP) {
	ix := harIndex{dec: json.NewDecoder(bufio.NewReaderSize(io.NewSectionReader(r, base, size-base), 64<<10)), base: base}
	ix.dec.UseNumber()
	if err := ix.document(); err != nil {
		where := Problem{Entry: ix.entry}
		off := base + ix.dec.InputOffset()
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = base + se.Offset
		}
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		where.Err = fmt.Sprintf("the HAR file breaks at byte %d (%v); nothing after it can be read", off, err)
		problem(where)
		if ix.cur.count > 0 {
			ix.conns = append(ix.conns, ix.cur)
		}
	}
	return ix.conns, ix.https
}

type harIndex struct {
	dec   *json.Decoder
	base  int64
	entry int     // the entry being read (0 outside entries)
	cur   harConn // the entry being read
	conns []harConn
	// http and priv are what the entry being read says of an HTTP
	// exchange; https the exchanges found (harhttp.go).
	http  harEntryHTTP
	priv  *harEntryPrivate
	https []harHTTP
}

// document walks {"log": {"entries": [...]}}, skipping everything else.
func (ix *harIndex) document() error {
	return ix.object(func(k string) error {
		if k != "log" {
			return ix.skip()
		}
		return ix.object(func(k string) error {
			if k != "entries" {
				return ix.skip()
			}
			if err := ix.delim('['); err != nil {
				return err
			}
			for ix.dec.More() {
				ix.entry++
				ix.cur = harConn{entry: ix.entry, first: math.Inf(1)}
				if err := ix.entryObject(); err != nil {
					return err
				}
				if ix.cur.msgs > 0 {
					ix.conns = append(ix.conns, ix.cur)
				} else {
					ix.exchange(ix.cur.started, ix.priv)
				}
				ix.cur, ix.http, ix.priv = harConn{}, harEntryHTTP{}, nil
			}
			ix.entry = 0
			return ix.delim(']')
		})
	})
}

func (ix *harIndex) entryObject() error {
	return ix.object(func(k string) error {
		switch k {
		case "startedDateTime":
			var s string
			if err := ix.value(&s); err != nil {
				return err
			}
			ix.cur.started, _ = time.Parse(time.RFC3339Nano, s)
		case "request":
			var req harReqIn
			if err := ix.value(&req); err != nil {
				return err
			}
			ix.cur.url = req.URL
			ix.http.takeRequest(req)
		case "response":
			if !carriesBody(ix.http.method) {
				return ix.skip() // a page's scripts and images: never held
			}
			var resp harRespIn
			if err := ix.value(&resp); err != nil {
				return err
			}
			ix.http.takeResponse(resp)
		case "time":
			var ms float64
			if err := ix.value(&ms); err != nil {
				return err
			}
			if ms > 0 && ms < 1e12 {
				ix.http.dur = ms
			}
		case "_webSocketMessages":
			return ix.messages()
		case "_wsconform":
			var priv harEntryPrivate // as WriteHAR wrote it
			if err := ix.value(&priv); err != nil {
				return err
			}
			ix.cur.unjudged, ix.cur.end = priv.Unjudged, priv.Close
			ix.priv = &priv
			ix.cur.closeFrames = priv.CloseFrames[:min(len(priv.CloseFrames), maxCloseFrames)]
		default:
			return ix.skip()
		}
		return nil
	})
}

func (ix *harIndex) messages() error {
	ix.cur.msgs = ix.base + ix.dec.InputOffset()
	if err := ix.delim('['); err != nil {
		return err
	}
	for ix.dec.More() {
		var m struct {
			Time json.RawMessage `json:"time"`
		}
		if err := ix.value(&m); err != nil {
			return err
		}
		ix.cur.count++
		if t, err := harTime(m.Time); err == nil && math.IsInf(ix.cur.first, 1) {
			ix.cur.first = t
		}
	}
	return ix.delim(']')
}

// object walks the members of an object, calling member with each name;
// member reads the value.
func (ix *harIndex) object(member func(string) error) error {
	if err := ix.delim('{'); err != nil {
		return err
	}
	for ix.dec.More() {
		t, err := ix.dec.Token()
		if err != nil {
			return err
		}
		k, _ := t.(string)
		if err := member(k); err != nil {
			return err
		}
	}
	return ix.delim('}')
}

func (ix *harIndex) delim(want json.Delim) error {
	t, err := ix.dec.Token()
	if err != nil {
		return err
	}
	if t != want {
		return fmt.Errorf("found %v where %v was expected", t, want)
	}
	return nil
}

// value decodes one small value (a URL, a time); a value of another type
// is left as zero, since the decoder has consumed it all the same.
func (ix *harIndex) value(v any) error {
	err := ix.dec.Decode(v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return nil
	}
	return err
}

// skip consumes one value token by token, so a large body is never held.
func (ix *harIndex) skip() error {
	depth := 0
	for {
		t, err := ix.dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

func harTime(raw json.RawMessage) (float64, error) {
	secs, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || math.IsInf(secs, 0) || math.IsNaN(secs) || secs < 0 || secs > 1e11 {
		return 0, fmt.Errorf("time %s is not epoch seconds", raw)
	}
	return secs, nil
}

func harFrame(conn, url string, m harMessage, secs float64) (Line, error) {
	var dir wire.Direction
	switch m.Type {
	case "send":
		dir = wire.ClientToServer
	case "receive":
		dir = wire.ServerToClient
	default:
		return Line{}, fmt.Errorf("type %q, want send or receive", m.Type)
	}
	var data string
	if err := json.Unmarshal(m.Data, &data); err != nil {
		return Line{}, fmt.Errorf("data is not a string: %w", err)
	}
	l := Line{Kind: KindFrame, Conn: conn, URL: url, Dir: dir, Opcode: m.Opcode, Time: unixTime(secs)}
	switch wire.Opcode(m.Opcode) {
	case wire.OpText:
		if m.Base64 != "" {
			if _, err := base64.StdEncoding.DecodeString(m.Base64); err != nil {
				return Line{}, fmt.Errorf("_wsconformBase64 is not base64: %w", err)
			}
			l.Base64 = &m.Base64
			break
		}
		l.Text = &data
	case wire.OpBinary:
		if _, err := base64.StdEncoding.DecodeString(data); err != nil {
			return Line{}, fmt.Errorf("binary data is not base64: %w", err)
		}
		l.Base64 = &data
	default:
		return Line{}, fmt.Errorf("opcode %d, want 1 (text) or 2 (binary)", m.Opcode)
	}
	return l, nil
}

func unixTime(secs float64) time.Time {
	whole, frac := math.Modf(secs)
	return time.Unix(int64(whole), int64(frac*1e9)).UTC()
}

func harConnID(entry int) string { return "h" + strconv.Itoa(entry) }
