package runner

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// MaxWireLog bounds the frames a scenario keeps for its report; older
// frames are dropped first (a replay-window scenario streams thousands).
const MaxWireLog = 2000

// World is the state of one scenario: created by the Before hook, carried
// in the scenario's context, dropped by the After hook. Nothing in it is
// shared with another scenario.
type World struct {
	sc      *scenarioRun
	d       *dialect.Dialect
	ep      *endpoints
	to      Timeouts
	vars    map[string]string
	headers http.Header
	clients map[string]*client
	conns   map[string]int    // connections opened per client name
	lastRef map[string]string // the path each client name last connected to
	steps   []reports.Step
	stepIDs []string

	cancel    context.CancelFunc
	started   time.Time
	stepStart time.Time
	stepErrs  []error
	setupErr  error

	// last is the message or HTTP body that "its" refers to.
	last     any
	lastDesc string
	status   int // status of the last HTTP response

	mu       sync.Mutex // guards what the connection readers touch
	checker  *check.Session
	index    int64
	wire     []reports.Frame
	findings []check.Finding
	// about holds the frames the scenario's steps were about (matched,
	// counted, inspected): findings on other frames are background.
	about map[int64]bool
}

type worldKey struct{}

// worldOf returns the scenario's World from its context.
func worldOf(ctx context.Context) *World {
	w, _ := ctx.Value(worldKey{}).(*World)
	return w
}

// record assigns a frame its index, judges it and adds it to the wire log.
// Readers of every connection call it, so it takes the lock.
func (w *World) record(conn, url string, dir wire.Direction, op wire.Opcode, payload []byte, code int) wire.Frame {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.index++
	f := wire.Frame{Conn: conn, URL: url, Index: w.index, Dir: dir, Time: time.Now(), Op: op, Payload: payload, CloseCode: code}
	w.findings = append(w.findings, w.checker.Observe(f)...)
	typ, seq := w.describe(f)
	if len(w.wire) >= 2*MaxWireLog { // drop the oldest half at once: amortised O(1) per frame
		w.wire = append(w.wire[:0], w.wire[MaxWireLog:]...)
	}
	w.wire = append(w.wire, reports.NewFrame(f, typ, seq, 0))
	return f
}

// aboutFrame marks a frame a step matched, counted or inspected: its
// findings decide the scenario's verdict.
func (w *World) aboutFrame(index int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.about == nil {
		w.about = map[int64]bool{}
	}
	w.about[index] = true
}

// closed tells the checker a connection ended without a close frame.
func (w *World) closed(conn string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.checker.Closed(conn)
}

// describe extracts the type and ordering value of a frame for the log.
func (w *World) describe(f wire.Frame) (typ, seq string) {
	if f.Op != wire.OpText {
		return "", ""
	}
	doc, _, err := jsonx.Decode(f.Payload, jsonx.DefaultMaxDepth)
	if err != nil {
		return "", ""
	}
	return w.typeOf(doc), w.seqOf(doc)
}

func (w *World) typeOf(doc any) string {
	v, _ := jsonx.Field(doc, w.d.TypeField)
	s, _ := v.(string)
	return s
}

func (w *World) seqOf(doc any) string {
	if w.d.Ordering.Pointer == "" {
		return ""
	}
	v, ok := jsonx.Get(doc, w.d.Ordering.Pointer)
	if !ok {
		return ""
	}
	if n, ok := jsonx.Int64(v); ok {
		return strconv.FormatInt(n, 10)
	}
	return ""
}

// snapshot copies what the report needs once the scenario ended. A
// server finding on a frame no step was about is background: one
// deviation in a message every scenario receives is a root cause of the
// run, not the failure of each scenario.
func (w *World) snapshot() ([]reports.Finding, []reports.Frame) {
	w.mu.Lock()
	defer w.mu.Unlock()
	wire := w.wire[max(0, len(w.wire)-MaxWireLog):]
	out := make([]reports.Finding, 0, len(w.findings))
	for _, f := range w.findings {
		out = append(out, reports.Finding{Finding: f, Background: !w.owns(f)})
	}
	return out, append([]reports.Frame(nil), wire...)
}

// owns says whether a finding is about what the scenario tested: a frame
// its steps matched, or one the finding relates to (the original of an
// altered replay). The scenario's own frames are never background.
func (w *World) owns(f check.Finding) bool {
	if f.Dir == wire.ClientToServer || w.about[f.Frame] {
		return true
	}
	for _, r := range f.Related {
		if w.about[r] {
			return true
		}
	}
	return false
}
