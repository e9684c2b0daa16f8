package replay

import (
	"time"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// stepKind is what the client does at one step of a replay.
type stepKind int

const (
	stepOpen   stepKind = iota // dial the connection
	stepSend                   // send a client data frame
	stepClose                  // close with a close frame (the client closed)
	stepCut                    // drop the TCP connection (a network or proxy end: 1006)
	stepAwait                  // the server closed: wait for it to close
	stepFinish                 // the recording stops with the connection open: close 1000
)

// step is one client action of a replay, in the recording's order.
type step struct {
	kind stepKind
	conn *Conn
	// frame indexes conn.Frames (stepSend, stepClose with a frame).
	frame int
	// pos is the step's place in the plan's timeline: the answers a
	// connection got before pos are awaited before the step is taken.
	pos int
	// at is the recorded time of the step (--pace original).
	at time.Time
}

// answer is one server data frame of a recorded connection that a replay
// waits for and compares: its type, its correlation key (see correlator)
// and its place in the timeline.
type answer struct {
	frame int
	typ   string
	key   string
	pos   int
}

// script is a plan as a replay plays it: the client's steps in order and,
// per connection, the answers it waits for.
type script struct {
	steps   []step
	answers map[*Conn][]answer
	// byKey indexes each connection's answers by correlation key (frame
	// indexes).
	byKey map[*Conn]map[string][]int
	// skipped are the connections not replayed (the recorder did not
	// judge them: not the dialect's traffic), with why.
	skipped map[*Conn]string
}

// newScript orders a plan's client actions. A connection the recording
// ends by network or proxy (1006) is cut where its client let go of it:
// right after its last data frame, before the client's next action on any
// connection, not where the recorder noticed the loss (often after the
// reconnection had opened).
func newScript(p *Plan, corr *correlator, timed map[string]bool) *script {
	s := &script{answers: map[*Conn][]answer{}, byKey: map[*Conn]map[string][]int{}, skipped: map[*Conn]string{}}
	lastData := map[*Conn]int{}
	closed := map[*Conn]bool{}
	var cuts []step
	for pos, ev := range p.Events {
		c := ev.Conn
		if c.Unjudged != "" {
			s.skipped[c] = c.Unjudged
			continue
		}
		switch ev.Kind {
		case EvOpen:
			s.steps = append(s.steps, step{kind: stepOpen, conn: c, pos: pos, at: ev.Time})
		case EvFrame:
			f := ev.FrameOf()
			data := f.Op == wire.OpText || f.Op == wire.OpBinary
			if data {
				lastData[c] = pos
			}
			switch {
			case f.Dir == wire.ServerToClient && data:
				typ, key := corr.classify(f)
				if !timed[typ] {
					s.answers[c] = append(s.answers[c], answer{frame: ev.Frame, typ: typ, key: key, pos: pos})
					if s.byKey[c] == nil {
						s.byKey[c] = map[string][]int{}
					}
					s.byKey[c][key] = append(s.byKey[c][key], ev.Frame)
				}
			case f.Dir == wire.ClientToServer && data:
				if !closed[c] {
					s.steps = append(s.steps, step{kind: stepSend, conn: c, frame: ev.Frame, pos: pos, at: f.Time})
				}
			case f.Dir == wire.ClientToServer && f.Op == wire.OpClose && c.End != nil && c.End.By == recording.ByClient && !closed[c]:
				closed[c] = true
				s.steps = append(s.steps, step{kind: stepClose, conn: c, frame: ev.Frame, pos: pos, at: f.Time})
			}
		case EvClose:
			if closed[c] {
				continue
			}
			closed[c] = true
			st := step{conn: c, pos: pos, at: ev.Time, frame: -1}
			switch c.End.By {
			case recording.ByClient:
				st.kind = stepClose
			case recording.ByServer:
				st.kind = stepAwait
			case "":
				// The file does not say (a HAR from a browser's DevTools,
				// which lists no close frames): end it as a client that is
				// done, not as a network failure.
				st.kind = stepFinish
			default:
				st.kind = stepCut
				cuts = append(cuts, st)
				continue
			}
			s.steps = append(s.steps, st)
		}
	}
	for _, c := range p.Conns {
		if !closed[c] && c.Unjudged == "" {
			s.steps = append(s.steps, step{kind: stepFinish, conn: c, pos: len(p.Events), frame: -1, at: lastTime(p)})
		}
	}
	for _, cut := range cuts {
		if last, ok := lastData[cut.conn]; ok {
			cut.pos, cut.at = last+1, p.Events[last].Time
		} else {
			cut.pos = openPos(s.steps, cut.conn) + 1
		}
		s.insert(cut)
	}
	return s
}

// insert puts a cut before the first client action after its position.
func (s *script) insert(cut step) {
	i := 0
	for i < len(s.steps) && s.steps[i].pos < cut.pos {
		i++
	}
	s.steps = append(s.steps, step{})
	copy(s.steps[i+1:], s.steps[i:])
	s.steps[i] = cut
}

func openPos(steps []step, c *Conn) int {
	for _, st := range steps {
		if st.conn == c && st.kind == stepOpen {
			return st.pos
		}
	}
	return 0
}

func lastTime(p *Plan) time.Time {
	if len(p.Events) == 0 {
		return time.Time{}
	}
	return p.Events[len(p.Events)-1].Time
}

// frameType is a data frame's message type ("" when it is not a JSON
// object naming one, binary frames included).
func frameType(d *dialect.Dialect, f wire.Frame) string {
	if f.Op != wire.OpText || d == nil {
		return ""
	}
	doc, _, err := jsonx.Decode(f.Payload, jsonx.DefaultMaxDepth)
	if err != nil {
		return ""
	}
	v, _ := jsonx.Field(doc, d.TypeField)
	s, _ := v.(string)
	return s
}
