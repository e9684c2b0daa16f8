package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// myagent rules: seq order and acks, replay after user.reconnect_with_state,
// step_id pairing and the plan → solve → aggregate pipeline.
//
// Scope of seq. The spec numbers events ("Events are numbered for reliable
// delivery with client acknowledgment") but never says whether the numbers
// count per session or per connection; real servers differ (JasonDZS/myagent
// numbers per connection and renumbers a replay). So one connection's own
// stream is the only scope the stated rules judge; a comparison of two
// connections' numbers is made only for the replay a user.reconnect_with_state
// asks for, and is an interpretation (warnings). A plain new connection is
// never compared with another, nor is a connection whose numbering shows it
// counts on its own (a seq the session used on another connection for another
// event, before any replay was asked for).
var (
	maSeqOrder = Rule{ID: "myagent.seq-order", Severity: Error, Evidence: Stated, Dialect: "myagent",
		Requires: []string{"myagent.event.seq", "myagent.seq.numbered", "myagent.seq.order"},
		Spec:     "myagent-events.md §Core Protocol Structure / EventProtocol Base Model (seq); §Reliable Delivery Mechanism / Sequence Numbers (seq/ack)",
		Quote: `seq?: number // Sequence number for reliable delivery; "Events are numbered for reliable delivery with client acknowledgment"; ` +
			`"Unacknowledged events are retried"; "On reconnect, client can request replay from last_seq"`,
		Summary: "The seq of server→client events on a connection increases: the spec calls it a sequence number. Only one connection's own stream is ordered (the spec does not say whether seq counts per session or per connection, and both readings agree there); a retry of an event already delivered on that connection may repeat its seq, and user.reconnect_with_state starts the order afresh (a replay follows)."}
	maRetryMismatch = Rule{ID: "myagent.retry-mismatch", Severity: Error, Evidence: Stated, Dialect: "myagent",
		Requires: []string{"myagent.buffer.retried", "myagent.seq.numbered"},
		Spec:     "myagent-events.md §Reliable Delivery Mechanism / Sequence Numbers (seq/ack); Buffer Management: unacknowledged events are retried",
		Quote:    `"Events are numbered for reliable delivery with client acknowledgment"; "Unacknowledged events are retried"`,
		Summary:  "An event delivered again on the same connection with a seq it already carried there (a retry) equals the original, except connection_id: another event under a seq the connection already used breaks the numbering."}
	maAckUnsent = Rule{ID: "myagent.ack-unsent", Severity: Error, Evidence: Stated, Dialect: "myagent",
		Requires: []string{"myagent.user.ack"},
		Spec:     "myagent-events.md §All Event Types / User Events (user.ack); §Reliable Delivery Mechanism / Sequence Numbers (seq/ack)",
		Quote: "| `user.ack` | Client → Server | Acknowledge received event |; " +
			`// Client acknowledges receipt { event: "user.ack", seq: 1 // Acknowledging event seq=1 }`,
		Summary: "user.ack acknowledges a received event: its seq is not greater than every seq the server delivered in the session (on any of its connections, so that numbering per session or per connection is judged alike)."}
	maReconnectUnseen = Rule{ID: "myagent.reconnect-unseen", Severity: Warning, Evidence: Interpretation, Dialect: "myagent",
		Requires: []string{"myagent.buffer.last-seq"},
		Spec:     "myagent-events.md §Reliable Delivery Mechanism / Buffer Management: on reconnect, client can request replay from last_seq",
		Quote:    `"On reconnect, client can request replay from last_seq" (the spec does not define last_seq; we read it as the last seq the client received)`,
		Summary:  "user.reconnect_with_state names a last_seq the session delivered (on any connection): a last_seq beyond every seq sent makes the server skip events the client never saw (judged once the session has sent an event). A warning: last_seq is named, not defined."}
	maAckRegress = Rule{ID: "myagent.ack-regress", Severity: Warning, Evidence: Interpretation, Dialect: "myagent",
		Requires: []string{"myagent.ack.cumulative"},
		Spec:     "interpretation: myagent-events.md §Reliable Delivery Mechanism / Sequence Numbers (seq/ack)",
		Quote:    `"Client acknowledges receipt" (the spec does not say whether acks are cumulative or in order)`,
		Summary:  "user.ack on a connection does not acknowledge a seq lower than an earlier ack on that connection (until the client rewinds with user.reconnect_with_state)."}
	maReplayMismatch = Rule{ID: "myagent.replay-mismatch", Severity: Warning, Evidence: Interpretation, Dialect: "myagent",
		Requires: []string{"myagent.seq.per-session"},
		Spec:     "myagent-events.md §Reliable Delivery Mechanism / Buffer Management; §Event Flow Architecture / 3. Reconnection & State Recovery",
		Quote:    `"// Server sends buffered events from last_seq" (the spec does not say that a replayed event keeps its seq, nor that seq counts per session)`,
		Summary:  "After user.reconnect_with_state, an event the connection receives under a seq the session delivered before on another connection (top level or an item of a system.notice event list) equals the original, except connection_id. Comparing two connections' numbers rests on reading seq as per session: a warning."}
	maReplayRestamped = Rule{ID: "myagent.replay-restamped", Severity: Warning, Evidence: Interpretation, Dialect: "myagent",
		Requires: []string{"myagent.seq.per-session"},
		Spec:     "myagent-events.md §Reliable Delivery Mechanism / Sequence Numbers (seq/ack), Buffer Management; §Event Flow Architecture / 3. Reconnection & State Recovery",
		Quote: `"Events are numbered for reliable delivery with client acknowledgment"; "On reconnect, client can request replay from last_seq"; ` +
			`"// Server sends buffered events from last_seq" (a replay from a seq the client names, and acks of replayed events, only work if a replayed event keeps its number; the spec does not say so, nor that seq counts per session)`,
		Summary: "An event replayed after user.reconnect_with_state (recognised by its content, or by the seq it names in metadata.orig_seq; content that several originals share is no identity: an original under the replayed seq is the one replayed, and an ambiguous match is not reported) carries the seq the session first delivered it with, not a new number of the new connection: " +
			"a client that acks or resumes by seq cannot place a re-stamped event. Reported once per replay; the replayed event is compared with the original (myagent.replay-mismatch), except seq, event_id, session_id, connection_id and metadata.orig_*. " +
			"A warning: reading seq as per session is an interpretation."}
	maReplayGap = Rule{ID: "myagent.replay-gap", Severity: Warning, Evidence: Interpretation, Dialect: "myagent",
		Requires: []string{"myagent.buffer.last-seq"},
		Spec:     "myagent-events.md §Reliable Delivery Mechanism / Buffer Management: on reconnect, client can request replay from last_seq; §Event Flow Architecture / 3. Reconnection & State Recovery",
		Quote:    `"On reconnect, client can request replay from last_seq"; "// Server sends buffered events from last_seq" (a flow diagram; seq read as per session)`,
		Summary:  "Once the replay after user.reconnect_with_state has begun, it delivers every session event after the cursor without skipping one (top level or in a system.notice event list). A warning: it compares the seqs of two connections."}
	maReplayTruncated = Rule{ID: "myagent.replay-truncated", Severity: Warning, Evidence: Interpretation, Dialect: "myagent",
		Requires: []string{"myagent.buffer.window", "myagent.buffer.last-seq"},
		Spec:     "myagent-events.md §Reliable Delivery Mechanism / Buffer Management: server maintains event buffer (last N events)",
		Quote:    `"Server maintains event buffer (last N events)"; "On reconnect, client can request replay from last_seq"`,
		Summary:  "The replay after user.reconnect_with_state starts with the first event after last_seq; starting later is legitimate only when the server's buffer of the last N events no longer holds the skipped ones."}
	maReplayDuplicate = Rule{ID: "myagent.replay-duplicate", Severity: Warning, Evidence: Interpretation, Dialect: "myagent",
		Requires: []string{"myagent.buffer.last-seq"},
		Spec:     "myagent-events.md §Reliable Delivery Mechanism / Buffer Management: replay from last_seq; ACK tracking prevents duplicate deliveries",
		Quote:    `"On reconnect, client can request replay from last_seq"; "ACK tracking prevents duplicate deliveries" (last_seq compared with the new connection's seqs: seq read as per session)`,
		Summary:  "After user.reconnect_with_state{last_seq: N}, no event with seq < N is delivered again on that connection (seq N itself is tolerated: \"from last_seq\" may be read inclusively). A warning: a server that numbers per connection renumbers its replay."}
	maRedeliveryAfterAck = Rule{ID: "myagent.redelivery-after-ack", Severity: Warning, Evidence: Interpretation, Dialect: "myagent",
		Requires: []string{"myagent.buffer.no-duplicates", "myagent.ack.cumulative"},
		Spec:     "interpretation: myagent-events.md §Reliable Delivery Mechanism / Buffer Management: ACK tracking prevents duplicate deliveries; unacknowledged events are retried",
		Quote:    `"ACK tracking prevents duplicate deliveries"; "Unacknowledged events are retried"`,
		Summary:  "An event with a seq at or below the highest seq the client acknowledged on a connection is not delivered again on that connection (a warning: the ack may still be in flight when the server retries, and whether an ack covers lower seqs is not specified)."}
	maResponseStep = Rule{ID: "myagent.response-step", Severity: Error, Evidence: Stated, Dialect: "myagent",
		Requires: []string{"myagent.step-id.must-match"},
		Spec:     "myagent-events.md §Request/Response Pairing (step_id): step_id must match for request/response correlation",
		Quote:    `**Key**: step_id must match for request/response correlation.`,
		Summary:  "user.response carries the step_id of an agent.user_confirm the server sent in the session."}
	maResponseRepeat = Rule{ID: "myagent.response-repeat", Severity: Warning, Evidence: Shown, Dialect: "myagent",
		Requires: []string{"myagent.step-id.answered-once", "myagent.flow.confirmation"},
		Spec:     "myagent-events.md §Request/Response Pairing (step_id); §Event Flow Architecture / 2. User Confirmation Flow",
		Quote:    `agent.user_confirm (step_id: "confirm_1") ↓ [User decision] ↓ user.response (step_id: "confirm_1") (a flow diagram: one answer per request)`,
		Summary:  "user.response answers an agent.user_confirm that is still open, not one already answered (possibly by another client of the session)."}
	maConnectedFirst = Rule{ID: "myagent.connected-first", Severity: Warning, Evidence: Interpretation, Dialect: "myagent",
		Requires: []string{"myagent.connection.connected-first"},
		Spec:     "myagent-events.md §Session Management / Connection Lifecycle: new connection receives system.connected",
		Quote:    "New connection receives `system.connected` (that it comes first is our reading)",
		Summary:  "The first server event on a connection is system.connected."}
	maSeqGap = Rule{ID: "myagent.seq-gap", Severity: Warning, Evidence: Interpretation, Dialect: "myagent",
		Requires: []string{"myagent.seq.order"},
		Spec:     "myagent-events.md §Reliable Delivery Mechanism / Sequence Numbers (seq/ack); Buffer Management",
		Quote: `"Events are numbered for reliable delivery with client acknowledgment"; "Unacknowledged events are retried" ` +
			`(the spec does not say the numbers are consecutive: that a skipped number is a numbered event the client never got is our reading)`,
		Summary: "On a connection that is its session's only one, outside a replay, a server event's seq is the previous seq + 1: a skipped number is a numbered event that was not delivered (one that arrives late also breaks myagent.seq-order). A warning: the spec does not say the numbers are consecutive, and a server may number across sessions."}
	maHeartbeatInterval = Rule{ID: "myagent.heartbeat-interval", Severity: Warning, Evidence: Shown, Dialect: "myagent",
		Requires: []string{"myagent.connection.heartbeat-interval"},
		Spec:     "myagent-events.md §Session Management / Connection Lifecycle",
		Quote:    "Heartbeat: `system.heartbeat` every 30s (configurable)",
		Summary:  "Two consecutive system.heartbeat on one connection are at most 35 s apart (the spec's 30 s plus 5 s of slack). Judged between two heartbeats, never from the connection's start, so where a server's heartbeat loop stands when a client connects does not matter; `wsconform run` times two in myagent.connect.heartbeat-interval (@timeout:150s), and it shows in recordings of longer connections (wsproxy, validate). A warning: the interval is configurable, so a longer one departs from the default only."}
	maConfirmIgnored = Rule{ID: "myagent.confirm-ignored", Severity: Warning, Evidence: Shown, Dialect: "myagent",
		Requires: []string{"myagent.response.approved", "myagent.flow.confirmation"},
		Spec:     "myagent-events.md §Request/Response Pairing (step_id); §Event Flow Architecture / 2. User Confirmation Flow; §Payload Examples / Plan Confirmation Request",
		Quote: `// Client responds with matching step_id { event: "user.response", step_id: "plan_confirm_1", content: { approved: true } }; ` +
			`"agent.user_confirm ↓ [User decision] ↓ user.response ↓ [Continue or cancel based on response]"`,
		Summary: "After a user.response with content.approved true answers an agent.user_confirm of metadata.scope \"plan\", the run goes on to solving: it does not end with agent.final_answer or plan.cancelled before any solver.start (unless the client cancelled or sent a new request). A warning: {approved: true} is the spec's example answer, not a typed field."}
	maPipelineOrder = Rule{ID: "myagent.pipeline-order", Severity: Warning, Evidence: Shown, Dialect: "myagent",
		Requires: []string{"myagent.flow.pipeline"},
		Spec:     "myagent-events.md §Event Flow Architecture / 1. Plan → Solve → Aggregate Pipeline",
		Quote:    "user.message ↓ plan.start ↓ plan.completed … solver.start … solver.completed ↓ aggregate.start ↓ aggregate.completed ↓ pipeline.completed ↓ agent.final_answer (a flow diagram)",
		Summary:  "On a connection, within a run that began with plan.start and was not ended early (cancel, decline, error), pipeline.completed does not arrive while an aggregation (aggregate.start) is unfinished, and agent.final_answer does not arrive after solver.start but before pipeline.completed."}
)

var _ = registerRuleSet("myagent", func(o Options) ruleSet { return newMyagent(o) })

var _ = register(maSeqOrder, maRetryMismatch, maAckUnsent, maReconnectUnseen, maAckRegress, maReplayMismatch, maReplayGap, maReplayTruncated,
	maReplayDuplicate, maReplayRestamped, maRedeliveryAfterAck, maResponseStep, maResponseRepeat, maConnectedFirst, maPipelineOrder,
	maSeqGap, maHeartbeatInterval, maConfirmIgnored)

// maHeartbeatMax is the longest pause between two heartbeats the spec's
// default of 30 s allows, with slack for a loaded server.
const maHeartbeatMax = 35 * time.Second

// maIgnore lists the members a re-delivered event may change: connection_id
// names the WebSocket connection the event travels on, which is a new one
// after a reconnect and another one for each client of the session.
var maIgnore = []string{"/connection_id"}

// maReplayIgnore lists what a replay on a new connection may change besides
// seq: the new connection's ids (JasonDZS/myagent answers a
// user.reconnect_with_state under a new session_id, and stamps each
// replayed event with a new event_id and the seq it had in
// metadata.orig_seq / orig_event_id).
var maReplayIgnore = []string{"/seq", "/event_id", "/session_id", "/connection_id",
	"/metadata/connection_id", "/metadata/orig_seq", "/metadata/orig_event_id"}

type myagent struct {
	window int
	// log holds the session's events by seq, as delivered on connections
	// that do not number on their own, for the replay comparison.
	log *eventLog[int64]
	// known holds the seqs of the session's buffered events (every type
	// but the connection-level system.*), for replay gaps.
	known *seqWindow
	// sent is the highest seq delivered to the session or claimed by a
	// client in user.reconnect_with_state.
	hasSent bool
	sent    int64
	// ack is the most recent seq acknowledged in the session: the replay
	// cursor of a user.reconnect_with_state without last_seq.
	hasAck bool
	ack    int64
	conns  map[string]*maConn
	// steps maps the step_id of each agent.user_confirm to whether it was
	// answered; once it evicted a step, an unknown step_id may be a
	// forgotten one and is not reported.
	steps *recent[string, bool]
	// plans holds the step_ids of the agent.user_confirm of scope "plan".
	plans *recent[string, bool]
	// approved is the step_id of a plan confirmation the client approved
	// with content.approved true, while the run has not started solving.
	approved string
	// origs holds the session's events as first delivered (on a connection
	// before it asked for a replay), by their content less maReplayIgnore
	// (every original with that content, oldest first: with a fixed clock
	// two events can be identical), and bySeq the same by the seq they were
	// delivered with, so that a replay is matched with its originals
	// whatever seq it carries.
	origs *recent[uint64, []maOrig]
	bySeq *recent[int64, maOrig]
}

// maOrig is an event as the session first delivered it: where its view
// less maReplayIgnore is (as an event log keeps one), and that view's
// jsonx.Hash, which finds it by content. Equal hashes are taken for equal
// content (64 bits: a collision, about 2^-64 a pair, would match a replay
// with the wrong original).
type maOrig struct {
	seq  int64
	hash uint64
	logged
}

type maConn struct {
	sawServer bool
	hasLast   bool
	last      int64 // highest seq delivered on this connection
	// lastFrame is the frame that carried last (0 when none did): an
	// order finding names it as related, so that a report (and the
	// runner, for a periodic message) knows what the seq was compared with.
	lastFrame int64
	delivered *seqWindow       // seqs delivered on this connection
	log       *eventLog[int64] // events delivered on this connection, for retries
	// own: the connection numbers its events on its own (before any replay
	// request it carried a seq the session used on another connection for
	// another event), so its seqs are never compared with the session's.
	own    bool
	hasAck bool
	maxAck int64 // highest seq the client acknowledged on this connection
	// replay state after user.reconnect_with_state
	resumed   bool
	hasFrom   bool
	from      int64 // last_seq of the request
	judge     bool  // replay gaps are judged
	explicit  bool  // cursor is last_seq (else the session's last ack)
	restamped bool  // myagent.replay-restamped was reported for this replay
	cursor    int64 // the replay has covered every event <= cursor
	head      bool  // no event replayed yet
	// replayed holds the seqs of the originals this replay delivered again:
	// a replay delivers each event once, so a later event with the same
	// content is a new one, not a replay of it.
	replayed map[int64]bool
	// undo restores what the last user.reconnect_with_state changed on
	// trust, should the server answer error.recovery_failed: a refused
	// claim of last_seq must not make later, correct seqs look repeated.
	undo maUndo
	run  maRun
	// the last system.heartbeat on this connection
	hasBeat bool
	beat    time.Time
}

type maUndo struct {
	hasLast, hasSent bool
	last, sent       int64
	lastFrame        int64
}

// maRun follows the pipeline of one run as one connection sees it.
type maRun struct {
	judged      bool // began with plan.start
	ended       bool // cancelled, declined or failed: not judged any more
	solving     bool
	aggregating bool
	piped       bool // pipeline.completed seen
}

func newMyagent(opts Options) *myagent {
	return &myagent{
		window: opts.ReplayWindow,
		log:    newEventLog[int64](opts.ReplayWindow, maView),
		known:  newSeqWindow(opts.ReplayWindow),
		conns:  map[string]*maConn{},
		steps:  newRecent[string, bool](opts.ReplayWindow),
		plans:  newRecent[string, bool](opts.ReplayWindow),
		origs:  newRecent[uint64, []maOrig](opts.ReplayWindow),
		bySeq:  newRecent[int64, maOrig](opts.ReplayWindow),
	}
}

func (r *myagent) opened(conn, _ string) { r.conns[conn] = r.newConn() }
func (r *myagent) closed(conn string)    { delete(r.conns, conn) }

func (r *myagent) newConn() *maConn {
	return &maConn{delivered: newSeqWindow(r.window), log: newEventLog[int64](r.window, maView)}
}

func (r *myagent) conn(id string) *maConn {
	c, ok := r.conns[id]
	if !ok {
		c = r.newConn()
		r.conns[id] = c
	}
	return c
}

func (r *myagent) observe(m *message) []Finding {
	c := r.conn(m.Frame.Conn)
	if m.Frame.Dir == wire.ClientToServer {
		return r.client(c, m)
	}
	return r.server(c, m)
}

func (r *myagent) client(c *maConn, m *message) []Finding {
	switch m.Type {
	case "user.ack":
		return r.acked(c, m)
	case "user.reconnect_with_state":
		return r.reconnect(c, m)
	case "user.response":
		v, _ := jsonx.Get(m.Doc, "/content/approved")
		if v == false {
			r.endRuns() // a declined confirmation ends the run without a pipeline
		}
		if id, ok := jsonx.String(m.Doc["step_id"]); ok && v == true {
			if _, plan := r.plans.get(id); plan {
				r.approved = id
			}
		}
		return r.response(m)
	case "user.message", "user.solve_tasks":
		r.approved = ""
		for _, cc := range r.conns {
			cc.run = maRun{}
		}
	case "user.cancel":
		r.approved = ""
		r.endRuns()
	}
	return nil
}

func (r *myagent) endRuns() {
	for _, cc := range r.conns {
		cc.run.ended = true
	}
}

func (r *myagent) acked(c *maConn, m *message) []Finding {
	e, ok := jsonx.Int64(m.Doc["seq"])
	if !ok {
		return nil
	}
	var out []Finding
	if c.hasAck && e < c.maxAck {
		fd := maAckRegress.fire(m, "user.ack of seq %d after an ack of seq %d on this connection", e, c.maxAck)
		fd.Pointer, fd.Expected, fd.Actual = "/seq", fmt.Sprintf(">= %d", c.maxAck), strconv.FormatInt(e, 10)
		out = append(out, fd)
	}
	if !r.hasSent || e > r.sent {
		fd := maAckUnsent.fire(m, "user.ack of seq %d, which the server has not sent to the session", e)
		fd.Pointer, fd.Actual = "/seq", strconv.FormatInt(e, 10)
		fd.Expected = "no ack: no event with a seq was sent yet"
		if r.hasSent {
			fd.Expected = fmt.Sprintf("<= %d (the highest seq sent)", r.sent)
		}
		return append(out, fd)
	}
	if !c.hasAck || e > c.maxAck {
		c.hasAck, c.maxAck = true, e
	}
	r.hasAck, r.ack = true, e
	return out
}

// reconnect starts a replay on the connection: from last_seq when the
// request names one, else from the session's last ack, else without a
// cursor (gaps are then not judged).
func (r *myagent) reconnect(c *maConn, m *message) []Finding {
	last, ok := maLastSeq(m.Doc)
	var out []Finding
	if ok && r.hasSent && last > r.sent {
		fd := maReconnectUnseen.fire(m, "user.reconnect_with_state from seq %d, which the session never sent (the last was %d)", last, r.sent)
		fd.Expected, fd.Actual = fmt.Sprintf("<= %d", r.sent), strconv.FormatInt(last, 10)
		out = append(out, fd)
	}
	c.undo = maUndo{hasLast: c.hasLast, last: c.last, lastFrame: c.lastFrame, hasSent: r.hasSent, sent: r.sent}
	c.resumed, c.head = true, true
	c.hasFrom, c.from = ok, last
	// the replay starts the connection's order afresh; the client rewinds
	// explicitly
	c.hasLast, c.last, c.lastFrame = false, 0, 0
	c.hasAck = false
	c.judge, c.explicit, c.cursor = false, false, 0
	c.restamped = false
	c.replayed = map[int64]bool{}
	switch {
	case ok:
		c.judge, c.explicit, c.cursor = true, true, last
		if !r.hasSent || last > r.sent {
			r.hasSent, r.sent = true, last // the client had it, even if we did not see it
		}
	case r.hasAck:
		c.judge, c.cursor = true, r.ack
	}
	return out
}

// maLastSeq reads last_seq where user.reconnect_with_state may carry it:
// top level, content or metadata.
func maLastSeq(doc map[string]any) (int64, bool) {
	for _, p := range []string{"/last_seq", "/content/last_seq", "/metadata/last_seq"} {
		if v, ok := jsonx.Get(doc, p); ok {
			if n, ok := jsonx.Int64(v); ok {
				return n, true
			}
		}
	}
	return 0, false
}

func (r *myagent) response(m *message) []Finding {
	id, ok := jsonx.String(m.Doc["step_id"])
	if !ok {
		return nil
	}
	answered, announced := r.steps.get(id)
	switch {
	case announced && !answered:
		r.steps.put(id, true)
		return nil
	case announced:
		fd := maResponseRepeat.fire(m, "user.response for step_id %q, which is already answered", id)
		fd.Pointer, fd.Expected, fd.Actual = "/step_id", "the step_id of an open agent.user_confirm", strconv.Quote(id)
		return []Finding{fd}
	case r.steps.evicted:
		return nil
	}
	fd := maResponseStep.fire(m, "user.response for step_id %q, which no agent.user_confirm announced", id)
	fd.Pointer, fd.Actual = "/step_id", strconv.Quote(id)
	fd.Expected = "one of " + orNone(quoteAll(r.openSteps()))
	return []Finding{fd}
}

// openSteps lists the step_ids still waiting for a user.response.
func (r *myagent) openSteps() []string {
	var out []string
	for id, answered := range r.steps.m {
		if !answered {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strconv.Quote(x)
	}
	return out
}

func (r *myagent) server(c *maConn, m *message) []Finding {
	var out []Finding
	if !c.sawServer {
		c.sawServer = true
		if m.Type != "system.connected" {
			fd := maConnectedFirst.fire(m, "first server event on the connection is %q", m.Type)
			fd.Pointer, fd.Expected, fd.Actual = "/event", "system.connected", m.Type
			out = append(out, fd)
		}
	}
	if c.resumed {
		switch m.Type {
		case "agent.state_exported", "agent.state_restored":
			// a state snapshot covers every event the session had so far
			if hi, ok := r.known.max(); ok && hi > c.cursor {
				c.cursor = hi
			}
			c.head = false
		case "error.recovery_failed":
			r.refused(c)
		case "system.error", "agent.error":
			// an error before anything was replayed refuses the reconnect
			// (JasonDZS/myagent: system.error "Missing signed_state in
			// reconnect request"): nothing that follows is a replay
			if c.head {
				r.refused(c)
			}
		}
	}
	if m.Type == "system.notice" {
		out = append(out, r.noticeList(c, m)...)
	}
	if m.Type == "system.heartbeat" {
		out = append(out, r.heartbeat(c, m)...)
	}
	e, ok := jsonx.Int64(m.Doc["seq"])
	if !ok {
		r.state(m.Type, m.Doc)
		out = append(out, r.confirmOutcome(m)...)
		return append(out, r.pipeline(c, m, m.Type, "")...)
	}
	fs, fresh, before := r.deliver(c, m, m.Doc, m.Type, e, "", true)
	out = append(out, fs...)
	if fresh {
		r.state(m.Type, m.Doc)
		out = append(out, r.confirmOutcome(m)...)
	}
	if !before {
		out = append(out, r.pipeline(c, m, m.Type, "")...)
	}
	return out
}

// refused undoes a user.reconnect_with_state the server said it cannot
// resume: no silent gap, and what follows is no replay from last_seq.
func (r *myagent) refused(c *maConn) {
	c.resumed, c.judge, c.hasFrom = false, false, false
	c.hasLast, c.last, c.lastFrame = c.undo.hasLast, c.undo.last, c.undo.lastFrame
	r.hasSent, r.sent = c.undo.hasSent, c.undo.sent
}

// noticeList judges the events a system.notice lists in content.events as
// deliveries on the connection, in seq order, before the notice's own seq.
func (r *myagent) noticeList(c *maConn, m *message) []Finding {
	list, ok := jsonx.FieldOr(m.Doc["content"], "events").([]any)
	if !ok {
		return nil
	}
	type item struct {
		i   int
		e   int64
		doc map[string]any
		typ string
	}
	var items []item
	for i, v := range list {
		doc, ok := v.(map[string]any)
		if !ok {
			continue
		}
		e, ok := jsonx.Int64(doc["seq"])
		if !ok {
			continue
		}
		typ, _ := jsonx.String(doc["event"])
		items = append(items, item{i, e, doc, typ})
	}
	sort.SliceStable(items, func(a, b int) bool { return items[a].e < items[b].e })
	var out []Finding
	for _, it := range items {
		base := "/content/events/" + strconv.Itoa(it.i)
		fs, fresh, before := r.deliver(c, m, it.doc, it.typ, it.e, base, false)
		out = append(out, fs...)
		if fresh {
			r.state(it.typ, it.doc)
		}
		if !before {
			out = append(out, r.pipeline(c, m, it.typ, base)...)
		}
	}
	return out
}

// deliver judges one event with seq e delivered on c: at the top level of
// m, or as the item of m's event list at base. It reports whether the seq
// is new to the session (fresh) and whether it was delivered on this
// connection before (a retry or a replay on the same connection).
//
// The connection's own stream is judged for order and retries (stated);
// only a connection that asked for a replay, and does not number on its
// own, is compared with the seqs of the session's other connections
// (interpretation: the spec does not say seq counts per session).
func (r *myagent) deliver(c *maConn, m *message, doc map[string]any, typ string, e int64, base string, top bool) (out []Finding, fresh, before bool) {
	key := e
	view := viewAt(m, base, -1, doc, "")
	if !c.resumed && !c.own && r.numbersOwn(m, key, view) {
		c.own = true
	}
	matched := false
	if c.resumed && !strings.HasPrefix(typ, "system.") && typ != "agent.state_restored" {
		var fs []Finding
		fs, matched = r.replayed(c, m, doc, e, base)
		out = append(out, fs...)
	} else if !c.resumed && !strings.HasPrefix(typ, "system.") {
		r.original(m, doc, e, base)
	}
	replay := c.resumed && !c.own
	seen := replay && r.log.has(key)
	before = c.delivered.has(e)
	ptr := base + "/seq"
	se := func() string { return strconv.FormatInt(e, 10) } // for findings only
	switch {
	case replay && c.hasFrom && e < c.from:
		fd := maReplayDuplicate.fire(m, "seq %d delivered again after user.reconnect_with_state{last_seq: %d}", e, c.from)
		fd.Pointer, fd.Expected, fd.Actual = ptr, fmt.Sprintf(">= %d", c.from), se()
		out = append(out, fd)
	case replay && c.hasFrom && e == c.from:
		// "replay from last_seq" read inclusively
	case c.hasAck && e <= c.maxAck && (seen || before):
		fd := maRedeliveryAfterAck.fire(m, "seq %d delivered again after the client acknowledged seq %d on this connection", e, c.maxAck)
		fd.Pointer, fd.Expected, fd.Actual = ptr, fmt.Sprintf("> %d", c.maxAck), se()
		out = append(out, fd)
	case top && c.hasLast && e <= c.last && !before && !c.delivered.forgot(e):
		fd := maSeqOrder.fire(m, "seq %d after %d on this connection", e, c.last)
		fd.Pointer, fd.Expected, fd.Actual = ptr, fmt.Sprintf("> %d", c.last), se()
		fd.Related = related(c.lastFrame)
		out = append(out, fd)
	case top && !c.resumed && c.hasLast && e > c.last+1 && len(r.conns) == 1:
		fd := maSeqGap.fire(m, "seq %d after %d on this connection: %s never delivered before it", e, c.last, maSpan(c.last+1, e-1))
		fd.Pointer, fd.Expected, fd.Actual = ptr, strconv.FormatInt(c.last+1, 10), se()
		fd.Related = related(c.lastFrame)
		out = append(out, fd)
	}
	if !c.hasLast || e > c.last {
		c.hasLast, c.last, c.lastFrame = true, e, m.Frame.Index
	}
	c.delivered.add(e)
	orig, differs := c.log.compare(key, m, view)
	switch {
	case orig != nil: // a retry on this connection
		if differs {
			out = append(out, replayMismatch(maRetryMismatch, m, orig, base, "seq "+se()+" on the same connection"))
		}
	case replay:
		orig, differs = r.log.compare(key, m, view)
		if differs {
			out = append(out, replayMismatch(maReplayMismatch, m, orig, base, "seq "+se()))
		}
	case !c.own:
		orig, _ = r.log.compare(key, m, view) // recorded for later replays, never judged
	}
	system := strings.HasPrefix(typ, "system.")
	if replay && c.judge && !system {
		out = append(out, r.gap(c, m, e, ptr)...)
	}
	if !system && !c.own {
		r.known.add(e)
	}
	if !r.hasSent || e > r.sent {
		r.hasSent, r.sent = true, e
	}
	return out, orig == nil && !matched, before
}

// original remembers an event as the session first delivered it.
func (r *myagent) original(m *message, doc map[string]any, e int64, base string) {
	v := viewAt(m, base, -1, doc, "")
	k := jsonx.Hash(maReplayView(doc, ""))
	if rebuildCheck != nil {
		rebuildCheck(v.src, v.part, maReplayView, remake(maReplayView))
	}
	o := maOrig{seq: e, hash: k, logged: logged{src: v.src, frame: m.Frame.Index, conn: m.Frame.Conn}}
	r.bySeq.put(e, o)
	list, _ := r.origs.get(k)
	// drop the originals the session forgot (bySeq evicted their seq, or
	// holds another event under it): oldest first, so the list stays
	// within the window
	for len(list) > 0 && !r.remembers(list[0]) {
		list = list[1:]
	}
	r.origs.put(k, append(list, o))
}

// remembers reports whether o is still the session's event under its seq.
func (r *myagent) remembers(o maOrig) bool {
	b, ok := r.bySeq.get(o.seq)
	return ok && b.frame == o.frame && b.conn == o.conn
}

// candidates lists the originals with content hash h that the replay on c
// may deliver now: still remembered, not yet replayed on c, and not before
// the request's last_seq (a replay delivers what follows it; last_seq
// itself is tolerated, as in deliver).
func (r *myagent) candidates(c *maConn, h uint64) []maOrig {
	list, _ := r.origs.get(h)
	var out []maOrig
	for _, o := range list {
		if o.hash == h && r.remembers(o) && !c.replayed[o.seq] && (!c.hasFrom || o.seq >= c.from) {
			out = append(out, o)
		}
	}
	return out
}

// replayed matches an event delivered after user.reconnect_with_state with
// the original it replays: by content (less maReplayIgnore), else by the
// seq it names in metadata.orig_seq. Content alone is no identity (with a
// fixed clock two events can be identical): an original with the same
// content under the replayed seq is the one replayed, and when no
// original carries that seq, content settles the match only if a single
// original has it (else metadata.orig_seq must name one of them; failing
// that the match is ambiguous and nothing is reported). A match under
// another seq is a replay re-stamped with new numbers: reported once per
// replay, and the connection then counts on its own, so that the
// seq-based replay rules (replay-duplicate, replay-mismatch and replay-gap
// under the new numbers) do not judge numbers that are not the session's.
// A match found by orig_seq alone is compared with its original.
func (r *myagent) replayed(c *maConn, m *message, doc map[string]any, e int64, base string) ([]Finding, bool) {
	v := maReplayView(doc, "")
	h := jsonx.Hash(v)
	n, named := jsonx.Int64(jsonx.FieldOr(doc["metadata"], "orig_seq"))
	cands := r.candidates(c, h)
	var o maOrig
	var out []Finding
	found := false
	for _, k := range cands {
		if k.seq == e { // a faithful replay, whatever else shares its content
			o, found = k, true
			break
		}
	}
	if !found && len(cands) == 1 {
		o, found = cands[0], true
	}
	if !found && len(cands) > 1 {
		for _, k := range cands {
			if named && k.seq == n {
				o, found = k, true
				break
			}
		}
		if !found {
			return nil, true // a replay of one of several identical events: which one is unknown
		}
	}
	if !found {
		if !named {
			return nil, false
		}
		var ok bool
		if o, ok = r.bySeq.get(n); !ok {
			return nil, false
		}
		if o.hash != h {
			orig := &sighting{frame: o.frame, conn: o.conn, was: remake(maReplayView)(o.src), now: v}
			out = append(out, replayMismatch(maReplayMismatch, m, orig, base, fmt.Sprintf("seq %d (metadata.orig_seq)", n)))
		}
	}
	if c.replayed != nil {
		c.replayed[o.seq] = true
	}
	if o.seq == e {
		return out, true
	}
	c.own = true
	if c.restamped {
		return out, true
	}
	c.restamped = true
	typ, _ := jsonx.String(doc["event"])
	fd := maReplayRestamped.fire(m, "replayed %s carries seq %d, but the session delivered it as seq %d (frame %d on %s): the replay re-stamps old events with the new connection's numbers (reported once per replay)",
		typ, e, o.seq, o.frame, o.conn)
	fd.Pointer = base + "/seq"
	fd.Expected = fmt.Sprintf("%d (its seq when first delivered)", o.seq)
	fd.Actual = strconv.FormatInt(e, 10)
	fd.Related = []int64{o.frame}
	return append(out, fd), true
}

// maView and maReplayView are the recipes of myagent's compared views: an
// event less maIgnore (a retry, a replay's copy by seq) and less
// maReplayIgnore (a replay recognised by content).
func maView(part any, _ string) any       { return without(part, maIgnore) }
func maReplayView(part any, _ string) any { return without(part, maReplayIgnore) }

// numbersOwn reports whether an event delivered on a connection that has
// asked for no replay shows that the connection numbers on its own: the
// session delivered another event under the same seq on another connection.
func (r *myagent) numbersOwn(m *message, key int64, v view) bool {
	o, ok := r.log.byKey.get(key)
	return ok && o.conn != m.Frame.Conn && r.log.differs(o, v)
}

// gap moves the replay cursor of a resumed connection to e and reports
// the session events between the cursor and e that the replay skipped.
func (r *myagent) gap(c *maConn, m *message, e int64, ptr string) []Finding {
	head := c.head
	c.head = false
	if e <= c.cursor {
		return nil
	}
	var missing []int64
	for _, s := range r.known.between(c.cursor, e) {
		if c.explicit || !c.delivered.has(s) {
			missing = append(missing, s)
		}
	}
	from := c.cursor
	c.cursor = e
	if len(missing) == 0 {
		return nil
	}
	rule, what := maReplayGap, "replay skipped"
	if head {
		rule, what = maReplayTruncated, "replay starts after"
	}
	fd := rule.fire(m, "%s seq %s (cursor %d)", what, joinIDs(missing), from)
	fd.Pointer = ptr
	fd.Expected = fmt.Sprintf("seq %d next", missing[0])
	fd.Actual = strconv.FormatInt(e, 10)
	return []Finding{fd}
}

// state follows agent.user_confirm steps from new events.
func (r *myagent) state(typ string, doc map[string]any) {
	if typ != "agent.user_confirm" {
		return
	}
	if id, ok := jsonx.String(doc["step_id"]); ok {
		r.steps.put(id, false)
		if scope, _ := jsonx.Get(doc, "/metadata/scope"); scope == "plan" {
			r.plans.put(id, true)
		}
	}
}

// maSpan names the seqs from a to b.
func maSpan(a, b int64) string {
	if a == b {
		return "seq " + strconv.FormatInt(a, 10) + " was"
	}
	return fmt.Sprintf("seqs %d–%d were", a, b)
}

// heartbeat judges the pause since the connection's previous heartbeat.
func (r *myagent) heartbeat(c *maConn, m *message) []Finding {
	t := m.Frame.Time
	if t.IsZero() {
		return nil
	}
	prev, had := c.beat, c.hasBeat
	c.hasBeat, c.beat = true, t
	if !had || t.Sub(prev) <= maHeartbeatMax {
		return nil
	}
	gap := t.Sub(prev).Round(100 * time.Millisecond)
	fd := maHeartbeatInterval.fire(m, "system.heartbeat %s after the previous one on this connection", gap)
	fd.Expected, fd.Actual = "at most "+maHeartbeatMax.String()+" (every 30s by default)", gap.String()
	return []Finding{fd}
}

// confirmOutcome follows a run whose plan the client approved: solving
// must come next, not the end of the run.
func (r *myagent) confirmOutcome(m *message) []Finding {
	if r.approved == "" {
		return nil
	}
	switch m.Type {
	case "solver.start", "plan.start", "aggregate.start", "agent.user_confirm":
		r.approved = "" // the run went on (or asks again)
	case "agent.final_answer", "plan.cancelled":
		id := r.approved
		r.approved = ""
		fd := maConfirmIgnored.fire(m, "%s without any solver.start after the client approved the plan (user.response step_id %q, content {approved: true})", m.Type, id)
		fd.Pointer, fd.Expected, fd.Actual = "/event", "solver.start (the run continues on approval)", m.Type
		if s, ok := jsonx.String(m.Doc["content"]); ok {
			fd.Actual = fmt.Sprintf("%s %q", m.Type, s)
		}
		return []Finding{fd}
	}
	return nil
}

// pipeline follows the run a connection sees, from its new deliveries.
func (r *myagent) pipeline(c *maConn, m *message, typ, base string) []Finding {
	run := &c.run
	judging := run.judged && !run.ended
	switch {
	case typ == "plan.start":
		*run = maRun{judged: true}
	case typ == "solver.start":
		run.solving = true
	case typ == "aggregate.start":
		run.solving, run.aggregating = true, true
	case typ == "aggregate.completed":
		run.aggregating = false
	case typ == "pipeline.completed":
		agg := run.aggregating
		run.piped = true
		if judging && agg {
			fd := maPipelineOrder.fire(m, "pipeline.completed while the run's aggregation is unfinished")
			fd.Pointer, fd.Expected, fd.Actual = base+"/event", "aggregate.completed before pipeline.completed", typ
			return []Finding{fd}
		}
	case typ == "agent.final_answer":
		bad := judging && run.solving && !run.piped
		*run = maRun{} // the run is over
		if bad {
			fd := maPipelineOrder.fire(m, "agent.final_answer before pipeline.completed in a run that started solving")
			fd.Pointer, fd.Expected, fd.Actual = base+"/event", "pipeline.completed before agent.final_answer", typ
			return []Finding{fd}
		}
	case maEndsRun(typ):
		run.ended = true
	}
	return nil
}

// maEndsRun lists the events after which a run may end without the rest
// of the pipeline.
func maEndsRun(typ string) bool {
	switch typ {
	case "plan.cancelled", "plan.coercion_error", "solver.cancelled", "agent.error", "agent.timeout",
		"agent.interrupted", "agent.session_end", "system.error":
		return true
	}
	return strings.HasPrefix(typ, "error.")
}
