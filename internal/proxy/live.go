package proxy

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// LiveObserver watches what the validator learns, as it learns it: the
// live web view (internal/web, wsproxy --web) is one. The validator
// goroutine calls Observe for every event in the order it handles them, so
// an observer must return at once: copy what it keeps into a bounded
// buffer and never wait for a reader. The relay does not wait for the
// validator, and the validator must not wait for an observer.
type LiveObserver interface {
	Observe(ev *LiveEvent)
}

// LiveKind says what a LiveEvent tells.
type LiveKind uint8

// The kinds of LiveEvent.
const (
	// LiveOpen: connection Conn opened to URL (Session set when known).
	LiveOpen LiveKind = iota + 1
	// LiveFrame: a frame passed (Dir, Index, Op, Size, Type, Seq,
	// Payload, CloseCode); Session is "" while the connection's session is
	// not known yet.
	LiveFrame
	// LiveSession: connection Conn belongs to Session (Parent: the
	// connection it reconnects), as the report will group it.
	LiveSession
	// LiveClose: connection Conn ended (CloseCode, Reason, By, Frames).
	LiveClose
	// LiveFinding: Finding was made, on frame Finding.Frame (0: none).
	LiveFinding
	// LiveDialect: the dialect is Dialect (Reason says how it was
	// chosen; Dialect "" when detection gave up).
	LiveDialect
	// LiveNote: a line of the console (Reason); IsErr for failures.
	LiveNote
)

// LivePayload is how much of a frame's payload a LiveEvent carries.
const LivePayload = 4 << 10

// LiveEvent is one thing the validator learnt. It is only valid during
// Observe: Payload and Finding point into the validator's memory.
type LiveEvent struct {
	Kind    LiveKind
	Time    time.Time
	Conn    string
	Session string
	Parent  string
	URL     string

	Dir   wire.Direction
	Index int64
	Op    wire.Opcode
	// Size is the payload's size; Payload its first LivePayload bytes.
	Size    int
	Payload []byte
	// Type and Seq are the message type and ordering value, as the
	// console shows them.
	Type, Seq string

	CloseCode int
	Reason    string
	By        string
	Frames    int64
	IsErr     bool

	Dialect string
	Finding *reports.Finding
}

// live tells the observer about an event the validator handles.
func (v *validator) live(ev event, cl *connLog) {
	obs := v.p.cfg.Live
	if obs == nil {
		return
	}
	le := LiveEvent{Time: ev.time}
	if ev.c != nil {
		le.Conn = ev.c.id
	}
	if cl != nil {
		le.Session = cl.session
	}
	switch ev.kind {
	case evOpen:
		le.Kind, le.URL = LiveOpen, redact(ev.c.url)
		if le.Session == "" {
			le.Session = ev.session
		}
	case evFrame:
		f := ev.frame
		le.Kind, le.Time, le.Dir, le.Index, le.Op = LiveFrame, f.Time, f.Dir, f.Index, f.Op
		le.Size, le.Payload, le.CloseCode = len(f.Payload), f.Payload[:min(len(f.Payload), LivePayload)], f.CloseCode
		le.Type, le.Seq = v.cur.typ, v.cur.seq
	case evClose:
		le.Kind, le.CloseCode, le.Reason, le.By, le.Frames = LiveClose, ev.end.code, ev.end.reason, ev.end.by, ev.count
	case evDialect:
		le.Kind, le.Dialect, le.Reason = LiveDialect, ev.dialect, ev.reason
	case evNote:
		le.Kind, le.Reason, le.IsErr = LiveNote, ev.text, ev.isErr
	default:
		return // bindings and findings are told where they are filed
	}
	obs.Observe(&le)
}

// liveSession tells the observer that a connection joined a session.
func (v *validator) liveSession(cl *connLog) {
	if obs := v.p.cfg.Live; obs != nil {
		obs.Observe(&LiveEvent{Kind: LiveSession, Time: time.Now(), Conn: cl.id, Session: cl.session, Parent: cl.parent})
	}
}

// liveFinding tells the observer about a finding kept or counted.
func (v *validator) liveFinding(f *reports.Finding) {
	if obs := v.p.cfg.Live; obs != nil {
		obs.Observe(&LiveEvent{Kind: LiveFinding, Time: time.Now(), Conn: f.Conn, Session: f.Session, Index: f.Frame, Finding: f})
	}
}

// liveDialect tells the observer the dialect given with --dialect, which
// no detection event announces.
func (v *validator) liveDialect() {
	if obs := v.p.cfg.Live; obs != nil && v.dialectName != "" {
		obs.Observe(&LiveEvent{Kind: LiveDialect, Time: time.Now(), Dialect: v.dialectName, Reason: v.dialectReason})
	}
}

// Snapshot is the report of what the proxy has seen so far, safe to call
// while it runs (the live view's "Download report"): the validator
// goroutine builds it between two batches, from the same state the report
// on exit is built from. Connections whose session is not known yet are
// not in it. After Shutdown it is Report.
func (p *Proxy) Snapshot(ctx context.Context) (*reports.Report, error) {
	if p.finished() {
		return p.Report(), nil
	}
	reply := make(chan *reports.Report, 1)
	select {
	case p.val.snap <- reply:
	case <-p.val.done:
		return p.Report(), nil
	case <-ctx.Done():
		return nil, fmt.Errorf("failed to take a report snapshot: %w", ctx.Err())
	}
	select {
	case r := <-reply:
		return r, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("failed to take a report snapshot: %w", ctx.Err())
	}
}

// snapshot builds the report so far on the validator goroutine. The
// findings are copied: the validator keeps appending to its own slices.
func (v *validator) snapshot() *reports.Report {
	r := v.report()
	for i := range r.Sessions {
		r.Sessions[i].Findings = slices.Clone(r.Sessions[i].Findings)
	}
	return r
}
