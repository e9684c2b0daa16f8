package recording

import (
	"encoding/base64"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// Format and Version identify the recording format in the header line.
// Version 2 added http lines (KindHTTP); a writer still writes 1 unless it
// may write one (Header.HTTP), so that a reader of version 1 reads every
// recording without HTTP exchanges as before. Readers read versions 1 to
// Version.
const (
	Format  = "wsconform-recording"
	Version = 2
	// VersionFrames is the version of a recording that holds no http
	// line: what a version-1 reader reads.
	VersionFrames = 1
)

// Kinds of lines.
const (
	KindHeader = "header"
	KindOpen   = "open"
	KindFrame  = "frame"
	KindClose  = "close"
	// KindSession binds a connection whose open line said "pending" to its
	// logical session, once the recorder learned it from the traffic (a
	// minicodex welcome, a mitto connected, a myagent session_id). Frames of
	// the connection before it are judged with that session, in the order
	// the file holds them. A session line with Unjudged set marks a
	// connection that is not the dialect's traffic: readers do not judge
	// any of its frames, those before the line included.
	KindSession = "session"
	// KindDialect names the dialect of the whole recording when the
	// recorder only learned it after writing the header (wsproxy
	// --dialect auto).
	KindDialect = "dialect"
	// KindHTTP is one HTTP exchange of the protocol (a dialect's declared
	// endpoint, such as hostd's POST /runs/:run_id/input): method, path
	// without query, status, the request's Authorization scheme (never
	// its value), and the bodies, credentials redacted. Conn is its own id
	// ("h1"), Session the logical session it belongs to when the recorder
	// knows one (hostd: the shared session), Index its place among the
	// frames. Format version 2.
	KindHTTP = "http"
)

// Who closed a connection, as recorded in close lines.
const (
	ByClient  = "client"
	ByServer  = "server"
	ByProxy   = "proxy"
	ByNetwork = "network" // no close frame: 1006 abnormal closure
)

// Line is one line of a recording. Which members are set depends on Kind.
type Line struct {
	Kind string `json:"kind"`

	// header
	Format  string `json:"format,omitempty"`
	Version int    `json:"version,omitempty"`
	Dialect string `json:"dialect,omitempty"`
	Tool    string `json:"tool,omitempty"`

	// open, frame, close
	Conn string `json:"conn,omitempty"`
	// Session is the logical session the connection belongs to: the
	// connections of one session are reconnections or fellow clients, and
	// are judged together.
	Session string `json:"session,omitempty"`
	// Parent (open, session) is the connection this one reconnects.
	Parent string `json:"parent,omitempty"`
	// Pending (open) says the connection's session is not known yet: a
	// later session line names it.
	Pending bool   `json:"pending,omitempty"`
	URL     string `json:"url,omitempty"`
	// Unjudged (session) says the recorder relayed and recorded the
	// connection without judging it, and why: it is not the dialect's
	// traffic (outside wsproxy --path, or its first frames are not the
	// dialect's messages). The line binds the connection to a session of
	// its own (its id), which is what a reader that does not know this
	// member does with a connection no session line names.
	Unjudged string `json:"unjudged,omitempty"`

	Time time.Time `json:"time"`

	// frame
	Dir    wire.Direction `json:"dir,omitempty"`
	Index  int64          `json:"index,omitempty"`
	Opcode int            `json:"opcode,omitempty"`
	Text   *string        `json:"text,omitempty"`
	Base64 *string        `json:"base64,omitempty"`
	// rawText is the text's JSON string literal when a lazy scan
	// (ScanEachLazy) left it undecoded; Frame decodes it.
	rawText []byte

	// close (and close frames); Reason is also why a dialect line chose its
	// dialect.
	Code   int    `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
	By     string `json:"by,omitempty"`

	// http (KindHTTP): the exchange; Time is when the request arrived,
	// Millis how long the answer took. Bodies are text when UTF-8, else
	// base64; a *Cut body was longer than the recorder keeps.
	Endpoint       string  `json:"endpoint,omitempty"`
	Method         string  `json:"method,omitempty"`
	Path           string  `json:"path,omitempty"`
	Status         int     `json:"status,omitempty"`
	Auth           string  `json:"auth,omitempty"`
	Millis         float64 `json:"ms,omitempty"`
	Request        *string `json:"request,omitempty"`
	RequestBase64  *string `json:"request_base64,omitempty"`
	RequestCut     bool    `json:"request_cut,omitempty"`
	Response       *string `json:"response,omitempty"`
	ResponseBase64 *string `json:"response_base64,omitempty"`
	ResponseCut    bool    `json:"response_cut,omitempty"`
}

// FrameLine renders a frame as a line of session.
func FrameLine(session string, f wire.Frame) Line {
	l := Line{Kind: KindFrame, Conn: f.Conn, Session: session, Dir: f.Dir,
		Index: f.Index, Time: f.Time, Opcode: int(f.Op), Code: f.CloseCode}
	if f.Op != wire.OpBinary && utf8.Valid(f.Payload) {
		s := string(f.Payload)
		l.Text = &s
	} else {
		s := base64.StdEncoding.EncodeToString(f.Payload)
		l.Base64 = &s
	}
	return l
}

// Frame turns a frame line back into a wire.Frame.
func (l Line) Frame() (wire.Frame, error) { return l.frame(true) }

// frame is Frame; without decodeText a lazily read text (which the lazy
// scan checked decodes) is left out of the payload.
func (l Line) frame(decodeText bool) (wire.Frame, error) {
	if l.Kind != KindFrame {
		return wire.Frame{}, fmt.Errorf("line is a %q, not a frame", l.Kind)
	}
	if !l.Dir.Valid() {
		return wire.Frame{}, fmt.Errorf("frame has direction %q, want c2s or s2c", l.Dir)
	}
	f := wire.Frame{Conn: l.Conn, URL: l.URL, Index: l.Index, Dir: l.Dir, Time: l.Time,
		Op: wire.Opcode(l.Opcode), CloseCode: l.Code}
	switch {
	case (l.Text != nil || l.rawText != nil) && l.Base64 != nil:
		return wire.Frame{}, fmt.Errorf("frame has both text and base64")
	case l.Text != nil:
		f.Payload = []byte(*l.Text)
	case l.rawText != nil && decodeText:
		v, _, err := jsonx.Decode(l.rawText, 0)
		s, ok := v.(string)
		if err != nil || !ok {
			return wire.Frame{}, fmt.Errorf("frame text: %q is not a JSON string", l.rawText)
		}
		f.Payload = []byte(s)
	case l.Base64 != nil:
		b, err := base64.StdEncoding.DecodeString(*l.Base64)
		if err != nil {
			return wire.Frame{}, fmt.Errorf("frame base64: %w", err)
		}
		f.Payload = b
	}
	switch f.Op {
	case wire.OpText, wire.OpBinary, wire.OpClose, wire.OpPing, wire.OpPong:
	default:
		return wire.Frame{}, fmt.Errorf("frame has opcode %d, want 1, 2, 8, 9 or 10", l.Opcode)
	}
	return f, nil
}

// ExchangeLine renders an HTTP exchange as a line of session.
func ExchangeLine(session string, x wire.Exchange) Line {
	l := Line{Kind: KindHTTP, Conn: x.ID, Session: session, Index: x.Index, Time: x.Time,
		Endpoint: x.Endpoint, Method: x.Method, Path: x.Path, Status: x.Status, Auth: x.Auth,
		Millis: float64(x.Duration.Microseconds()) / 1000, RequestCut: x.RequestCut, ResponseCut: x.ResponseCut}
	l.Request, l.RequestBase64 = bodyText(x.Request)
	l.Response, l.ResponseBase64 = bodyText(x.Response)
	return l
}

// bodyText is a body as a line holds it: nothing when empty, text when
// UTF-8, else base64.
func bodyText(b []byte) (text, b64 *string) {
	switch {
	case len(b) == 0:
		return nil, nil
	case utf8.Valid(b):
		s := string(b)
		return &s, nil
	}
	s := base64.StdEncoding.EncodeToString(b)
	return nil, &s
}

// Exchange turns an http line back into a wire.Exchange.
func (l Line) Exchange() (wire.Exchange, error) {
	if l.Kind != KindHTTP {
		return wire.Exchange{}, fmt.Errorf("line is a %q, not an http exchange", l.Kind)
	}
	if l.Method == "" || !strings.HasPrefix(l.Path, "/") {
		return wire.Exchange{}, fmt.Errorf("http line needs a method and a path starting with /")
	}
	if l.Status != 0 && (l.Status < 100 || l.Status > 999) {
		return wire.Exchange{}, fmt.Errorf("http line has status %d", l.Status)
	}
	x := wire.Exchange{ID: l.Conn, Index: l.Index, Time: l.Time, Duration: time.Duration(l.Millis * float64(time.Millisecond)),
		Endpoint: l.Endpoint, Method: l.Method, Path: l.Path, Status: l.Status, Auth: l.Auth,
		RequestCut: l.RequestCut, ResponseCut: l.ResponseCut}
	var err error
	if x.Request, err = bodyBytes("request", l.Request, l.RequestBase64); err != nil {
		return wire.Exchange{}, err
	}
	if x.Response, err = bodyBytes("response", l.Response, l.ResponseBase64); err != nil {
		return wire.Exchange{}, err
	}
	return x, nil
}

func bodyBytes(what string, text, b64 *string) ([]byte, error) {
	switch {
	case text != nil && b64 != nil:
		return nil, fmt.Errorf("http %s has both text and base64", what)
	case text != nil:
		return []byte(*text), nil
	case b64 != nil:
		b, err := base64.StdEncoding.DecodeString(*b64)
		if err != nil {
			return nil, fmt.Errorf("http %s base64: %w", what, err)
		}
		return b, nil
	}
	return nil, nil
}
