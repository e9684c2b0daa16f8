package runner

import (
	"context"
	"net/http"
	"strconv"
	"strings"
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
	// answerPolicy and spec say how the scenario's clients answer the
	// server's prompts; envReason is set once a message said the target's
	// environment cannot run the scenario.
	answerPolicy string
	spec         *clientSpec
	envReason    string
	// unobserved says which effects the scenario is about that the
	// protocol gives no way to observe: a pass then shows less than its
	// title, and the report says so.
	unobserved []string
	// sessionURL is the session --session-cmd made for the scenario, for
	// --session-cleanup-cmd; "" without one.
	sessionURL string
	// about holds the frames the scenario's steps were about (matched,
	// counted, inspected), with the members they inspected: findings on
	// other frames are background.
	about map[int64][]string
	// lastIndex is the frame "its" refers to (0 for an HTTP body).
	lastIndex int64
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
	if dir == wire.ServerToClient && w.envReason == "" && typ != "" {
		if doc, _, err := jsonx.Decode(payload, jsonx.DefaultMaxDepth); err == nil {
			w.envReason = w.environment(doc)
		}
	}
	if len(w.wire) >= 2*MaxWireLog { // drop the oldest half at once: amortised O(1) per frame
		w.wire = append(w.wire[:0], w.wire[MaxWireLog:]...)
	}
	w.wire = append(w.wire, reports.NewFrame(f, typ, seq, 0))
	return f
}

// aboutFrame marks a frame a step matched, counted or inspected, with the
// members (JSON pointers) the step looked into: the frame's order and
// pairing findings decide the scenario's verdict, and so do its content
// findings on those members. A step that only matched the type ("receives
// "system.connected"") is not about the message's content: a bad member
// there is a root cause of the run, not a failure of every scenario that
// connects.
func (w *World) aboutFrame(index int64, members ...string) {
	if index == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.about == nil {
		w.about = map[int64][]string{}
	}
	w.about[index] = append(w.about[index][:len(w.about[index]):len(w.about[index])], members...)
	if w.about[index] == nil {
		w.about[index] = []string{}
	}
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

// owns says whether a finding is about what the scenario tested. Order,
// replay and pairing findings are about the flow the scenario drove in its
// own session, so they are its own; a content finding (frame and schema
// rules) is its own only on a member one of its steps inspected. The
// scenario's own frames are never background.
func (w *World) owns(f check.Finding) bool {
	if f.Dir == wire.ClientToServer || !check.Stateless(f.Rule) {
		return true
	}
	for _, idx := range append([]int64{f.Frame}, f.Related...) {
		for _, m := range w.about[idx] {
			if overlaps(m, f.Pointer) {
				return true
			}
		}
	}
	return false
}

// overlaps says whether two members are one inside the other.
func overlaps(a, b string) bool {
	return a == b || b == "" || a == "" || strings.HasPrefix(b, a+"/") || strings.HasPrefix(a, b+"/")
}
