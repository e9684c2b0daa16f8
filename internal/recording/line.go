package recording

import (
	"encoding/base64"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/wire"
)

// Format and Version identify the recording format in the header line.
const (
	Format  = "wsconform-recording"
	Version = 1
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

	// close (and close frames); Reason is also why a dialect line chose its
	// dialect.
	Code   int    `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
	By     string `json:"by,omitempty"`
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
func (l Line) Frame() (wire.Frame, error) {
	if l.Kind != KindFrame {
		return wire.Frame{}, fmt.Errorf("line is a %q, not a frame", l.Kind)
	}
	if !l.Dir.Valid() {
		return wire.Frame{}, fmt.Errorf("frame has direction %q, want c2s or s2c", l.Dir)
	}
	f := wire.Frame{Conn: l.Conn, URL: l.URL, Index: l.Index, Dir: l.Dir, Time: l.Time,
		Op: wire.Opcode(l.Opcode), CloseCode: l.Code}
	switch {
	case l.Text != nil && l.Base64 != nil:
		return wire.Frame{}, fmt.Errorf("frame has both text and base64")
	case l.Text != nil:
		f.Payload = []byte(*l.Text)
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
