package replay

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/detect"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// MaxPlanFrames bounds the frames a plan holds: a replay keeps its
// recording in memory (it looks ahead for the answers each client frame
// waits for), so a recording larger than this is refused with a clear
// error instead of exhausting memory.
const MaxPlanFrames = 1_000_000

// ErrNoFrames is returned for a recording without a single data frame:
// there is nothing to replay.
var ErrNoFrames = errors.New("no frames to replay")

// Plan is a recording as replay needs it.
type Plan struct {
	// Dialect is the recording's dialect: the header's, a dialect line's,
	// the caller's, or detected from the traffic (a HAR file names none).
	Dialect string
	// DialectReason says where Dialect came from.
	DialectReason string
	// Source is the path the plan was read from ("" for a reader).
	Source string
	// Conns are the connections in the order they opened.
	Conns []*Conn
	// Events are every open, frame and close in the order the recording
	// holds them, across connections.
	Events []Event
	// Problems are the parts of the recording that could not be read;
	// they were skipped.
	Problems []recording.Problem
	// Exchanges are the HTTP exchanges of the protocol the recording holds
	// (hostd's login and input, http lines). Replay does not re-send them
	// (see HTTPNote); the fixture answers them as the spec says.
	Exchanges []wire.Exchange
}

// HTTPNote says what a replay does with the recording's HTTP exchanges:
// it does not re-send them. A re-sent login would carry a password the
// recording redacted (--login logs in instead), and a re-sent input names
// a run id and carries a token of the recorded server's, and would write to
// a PTY of the target's run again; the WebSocket frames are what a replay
// compares. "" when the recording holds none.
func (p *Plan) HTTPNote() string {
	if len(p.Exchanges) == 0 {
		return ""
	}
	seen := map[string]bool{}
	var what []string
	for _, x := range p.Exchanges {
		k := x.Method + " " + x.Path
		if x.Endpoint != "" {
			k = x.Endpoint
		}
		if !seen[k] && len(what) < 4 {
			seen[k] = true
			what = append(what, k)
		}
	}
	return fmt.Sprintf("%d HTTP %s of the recording (%s) not re-sent: replay re-sends WebSocket frames only (--login logs in); "+
		"what the recorded server did after an input sent over HTTP may be missing from the replay", len(p.Exchanges),
		map[bool]string{true: "exchange", false: "exchanges"}[len(p.Exchanges) == 1], strings.Join(what, ", "))
}

// Conn is one recorded WebSocket connection.
type Conn struct {
	ID      string
	Session string
	// Parent is the connection this one reconnects ("" for a first one).
	Parent string
	// URL is the request URL as recorded (path and query matter).
	URL string
	// Unjudged is set when the recorder did not judge the connection (not
	// the dialect's traffic), with its reason.
	Unjudged string
	Opened   time.Time
	// Frames are the connection's frames, both directions, in order.
	Frames []wire.Frame
	// End is how the connection ended; nil when the recording stops with
	// it open.
	End *End
}

// End is how a recorded connection ended: the code of the first close
// frame (1006 when none) and who ended it (recording.ByClient, ByServer,
// ByProxy, ByNetwork).
type End struct {
	Code   int
	Reason string
	By     string
	Time   time.Time
}

// EventKind says what an Event is.
type EventKind int

// The kinds of events of a plan.
const (
	EvOpen EventKind = iota
	EvFrame
	EvClose
)

// Event is one step of the recording's timeline.
type Event struct {
	Kind EventKind
	Conn *Conn
	// Frame indexes Conn.Frames (EvFrame only).
	Frame int
	Time  time.Time
}

// FrameOf returns the frame of an EvFrame event.
func (e Event) FrameOf() wire.Frame { return e.Conn.Frames[e.Frame] }

// ClientFrames counts the connection's data frames sent by the client.
func (c *Conn) ClientFrames() int {
	n := 0
	for _, f := range c.Frames {
		if f.Dir == wire.ClientToServer && (f.Op == wire.OpText || f.Op == wire.OpBinary) {
			n++
		}
	}
	return n
}

// Load reads the recording at path. dialectName overrides the recording's
// dialect ("" or "auto": the recording's, else detected).
func Load(path, dialectName string) (*Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open recording: %w", err)
	}
	defer f.Close()
	p, err := Read(f, dialectName)
	if p != nil {
		p.Source = path
	}
	if err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Read reads a recording (JSONL or HAR) from r; see Load.
func Read(r io.Reader, dialectName string) (*Plan, error) {
	b := planBuilder{p: &Plan{}, conns: map[string]*Conn{}}
	_, err := recording.ScanEach(r, b.line, func(pr recording.Problem) { b.p.Problems = append(b.p.Problems, pr) })
	if err != nil {
		return nil, fmt.Errorf("read recording: %w", err)
	}
	if b.data == 0 {
		return b.p, ErrNoFrames
	}
	if err := b.p.chooseDialect(dialectName, b.dialect); err != nil {
		return b.p, err
	}
	return b.p, nil
}

type planBuilder struct {
	p     *Plan
	conns map[string]*Conn
	// frames counts every frame (the memory bound), data the text and
	// binary ones (a recording of only control frames has nothing to
	// replay).
	frames, data int
	dialect      string
}

func (b *planBuilder) line(l recording.Line) error {
	switch l.Kind {
	case recording.KindHeader, recording.KindDialect:
		if l.Dialect != "" {
			b.dialect = l.Dialect
		}
	case recording.KindOpen:
		b.open(l)
	case recording.KindSession:
		c := b.conn(l)
		c.Session = l.Session
		if l.Parent != "" {
			c.Parent = l.Parent
		}
		c.Unjudged = l.Unjudged
	case recording.KindFrame:
		return b.frame(l)
	case recording.KindHTTP:
		if x, err := l.Exchange(); err == nil && len(b.p.Exchanges) < MaxPlanFrames {
			b.p.Exchanges = append(b.p.Exchanges, x)
		}
	case recording.KindClose:
		c := b.conn(l)
		if c.End == nil {
			c.End = &End{Code: l.Code, Reason: l.Reason, By: l.By, Time: l.Time}
			b.p.Events = append(b.p.Events, Event{Kind: EvClose, Conn: c, Time: l.Time})
		}
	}
	return nil
}

func (b *planBuilder) open(l recording.Line) {
	if _, ok := b.conns[l.Conn]; ok {
		return
	}
	c := &Conn{ID: l.Conn, Session: l.Session, Parent: l.Parent, URL: l.URL, Opened: l.Time}
	b.conns[l.Conn] = c
	b.p.Conns = append(b.p.Conns, c)
	b.p.Events = append(b.p.Events, Event{Kind: EvOpen, Conn: c, Time: l.Time})
}

// conn returns the connection a line names, opening it when the recording
// lacks its open line (a torn file).
func (b *planBuilder) conn(l recording.Line) *Conn {
	if c, ok := b.conns[l.Conn]; ok {
		return c
	}
	b.open(recording.Line{Conn: l.Conn, Session: l.Session, URL: l.URL, Time: l.Time})
	return b.conns[l.Conn]
}

func (b *planBuilder) frame(l recording.Line) error {
	f, err := l.Frame()
	if err != nil {
		b.p.Problems = append(b.p.Problems, recording.Problem{Err: err.Error()})
		return nil
	}
	if b.frames++; b.frames > MaxPlanFrames {
		return fmt.Errorf("more than %d frames; replay holds its recording in memory, cut it first", MaxPlanFrames)
	}
	if f.Op == wire.OpText || f.Op == wire.OpBinary {
		b.data++
	}
	c := b.conn(l)
	if f.URL == "" {
		f.URL = c.URL
	}
	c.Frames = append(c.Frames, f)
	b.p.Events = append(b.p.Events, Event{Kind: EvFrame, Conn: c, Frame: len(c.Frames) - 1, Time: f.Time})
	return nil
}

// chooseDialect settles the plan's dialect: the caller's, the recording's,
// or detected from the first connection's path and frames.
func (p *Plan) chooseDialect(override, recorded string) error {
	switch {
	case override != "" && override != "auto":
		p.Dialect, p.DialectReason = override, "--dialect"
	case recorded != "":
		p.Dialect, p.DialectReason = recorded, "named by the recording"
	default:
		var urls []string
		var frames []wire.Frame
		for _, c := range p.Conns {
			urls = append(urls, c.URL)
			frames = append(frames, c.Frames...)
			if len(frames) >= 16 {
				break
			}
		}
		res, err := detect.Dialect(urls, frames)
		if err != nil {
			return fmt.Errorf("the recording names no dialect and detection failed (give --dialect): %w", err)
		}
		p.Dialect, p.DialectReason = res.Dialect, res.Reason
	}
	if _, err := dialect.Get(p.Dialect); err != nil {
		return fmt.Errorf("dialect %q: %w", p.Dialect, err)
	}
	return nil
}
