package check

import (
	"fmt"
	"math"
	"strconv"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// minicodex rules: event_id order, replay after resume, approvals and runs.
// The spec's order is per session ("Event log: total ordering (event_id) of
// server→client events per session"); the order rule compares the events of
// one connection, a part of that session, so it stays within the stated scope.
var (
	mcEventIDOrder = Rule{ID: "minicodex.event-id-order", Severity: Error, Evidence: Stated, Dialect: "minicodex",
		Requires: []string{"minicodex.ordering.event-id-monotonic", "minicodex.event-log.total-order", "minicodex.envelope.event-id"},
		Spec:     "minicodex-v1.md §Semantics: Ordering; §Core concepts: Event log",
		Quote: `"Ordering: server emits a strictly monotonic event_id"; "Event log: total ordering (event_id) of server→client events per session"; ` +
			`Envelope: "event_id?: integer (monotonic, server→client only)"`,
		Summary: "Every server→client event_id on a connection is greater than the one before (strictly monotonic; the session's order seen on one of its connections)."}
	mcReplayMismatch = Rule{ID: "minicodex.replay-mismatch", Severity: Error, Evidence: Stated, Dialect: "minicodex",
		Requires: []string{"minicodex.event-log.total-order", "minicodex.multi-client.fanout"},
		Spec:     "minicodex-v1.md §Core concepts: Event log; §Handshake & resume; §Semantics: Multi-client",
		Quote: `"Event log: total ordering (event_id) of server→client events per session, used for resume and replay"; ` +
			`"server fans out events to all connected clients for a session"`,
		Summary: "An event delivered again (replay after resume, fan-out copy) equals the original with that event_id."}
	mcReplayGap = Rule{ID: "minicodex.replay-gap", Severity: Error, Evidence: Stated, Dialect: "minicodex",
		Requires: []string{"minicodex.handshake.reply", "minicodex.handshake.window-exceeded"},
		Spec:     "minicodex-v1.md §Handshake & resume: replay delta from last_seen_event_id",
		Quote: `"Server replies welcome + snapshot (optional) + replay delta from last_seen_event_id (bounded)"; ` +
			`"If the gap exceeds server window, server instructs client to fetch full snapshot via get_snapshot"`,
		Summary: "After resume, the replay delivers every event after last_seen_event_id that the session had, without skipping one (or sends a snapshot covering them); after an error answering the resume (the server instructing a get_snapshot) the gap is not judged until a snapshot."}
	mcReplayDuplicate = Rule{ID: "minicodex.replay-duplicate", Severity: Error, Evidence: Stated, Dialect: "minicodex",
		Requires: []string{"minicodex.handshake.reply", "minicodex.ordering.event-id-monotonic"},
		Spec:     "minicodex-v1.md §Handshake & resume: replay delta from last_seen_event_id",
		Quote:    `"Server replies welcome + snapshot (optional) + replay delta from last_seen_event_id (bounded)"; "Ordering: server emits a strictly monotonic event_id"`,
		Summary:  "After resume{last_seen_event_id: N}, no event with event_id <= N is delivered again as new."}
	mcHandshakeFirst = Rule{ID: "minicodex.handshake-first", Severity: Warning, Evidence: Shown, Dialect: "minicodex",
		Requires: []string{"minicodex.handshake.hello-first"},
		Spec:     "minicodex-v1.md §Handshake & resume: client connects → sends hello (or resume); the flow only shows it",
		Quote:    `"Client connects → sends hello {v} (or resume with last_seen_event_id)"`,
		Summary:  "A client's first message on a connection is hello or resume (the handshake flow shows it; no MUST)."}
	mcApproveUnknown = Rule{ID: "minicodex.approve-unknown-call", Severity: Warning, Evidence: Shown, Dialect: "minicodex",
		Requires: []string{"minicodex.error-codes.list", "minicodex.error-codes.unknown-call-id"},
		Spec: "minicodex-v1.md §Client → Server messages: Approve/Deny; §Error codes: UNKNOWN_CALL_ID; §Test matrix: approval path " +
			"(shown: no words require the client's call_id to be an announced one; the server answers an unknown one with an error)",
		Quote: `Approve/Deny: {type: "approve" | "deny", call_id: str}; "Tool approval path: approval_pending → approve → function_call_output → finished"; ` +
			`"Error codes (non‑exhaustive) ... UNKNOWN_CALL_ID / APPROVAL_CONFLICT"`,
		Summary: "approve/deny names a call_id the server announced in approval_pending (the spec shows the pairing and an error code for the case, a warning)."}
	mcApproveDecided = Rule{ID: "minicodex.approve-not-pending", Severity: Warning, Evidence: Shown, Dialect: "minicodex",
		Requires: []string{"minicodex.multi-client.approvals-serialized", "minicodex.error-codes.approval-conflict"},
		Spec:     "minicodex-v1.md §Semantics: approvals are serialized server-side; error code APPROVAL_CONFLICT",
		Quote:    `"Multi‑client: server fans out events to all connected clients for a session; approvals are serialized server‑side."; "UNKNOWN_CALL_ID / APPROVAL_CONFLICT"`,
		Summary:  "approve/deny names a call_id that is still pending (not already decided, possibly by another client)."}
	mcAbortIdle = Rule{ID: "minicodex.abort-not-running", Severity: Warning, Evidence: Shown, Dialect: "minicodex",
		Requires: []string{"minicodex.error-codes.list", "minicodex.error-codes.not-running"},
		Spec:     "minicodex-v1.md §Error codes: NOT_RUNNING; §UI state machine",
		Quote:    `"STALE_RUN_ID / NOT_RUNNING / BUSY"; "Abort: abort mid‑run → aborted terminal"`,
		Summary:  "abort is sent only while a run is active (it may race with the run finishing, hence a warning)."}
	mcResumeUnseen = Rule{ID: "minicodex.resume-unseen", Severity: Error, Evidence: Stated, Dialect: "minicodex",
		Requires: []string{"minicodex.resume.last-seen-is-seen"},
		Spec:     "minicodex-v1.md §Handshake & resume: resume{last_seen_event_id}, the last event the client saw",
		Quote: `Resume: {type: "resume", last_seen_event_id: int | null}; "clients may request replay from last_seen_event_id"; ` +
			`"Event log: total ordering (event_id) of server→client events per session, used for resume and replay"`,
		Summary: "A client resumes from an event_id the session delivered: a last_seen_event_id beyond every event delivered so far makes the server skip events the client never saw (judged once the session has delivered an event)."}
	mcDecisionUnknown = Rule{ID: "minicodex.decision-unknown-call", Severity: Warning, Evidence: Shown, Dialect: "minicodex",
		Requires: []string{"minicodex.approval.decision-announced"},
		Spec: "minicodex-v1.md §Server → Client messages: Approvals; §Test matrix: approval path " +
			"(shown: no words say a decision follows an approval_pending; a server may decide a call it never held, e.g. one auto-approved)",
		Quote:   `ApprovalPending {type: "approval_pending", call_id, tool_key, args_json, event_id}; ApprovalDecision {type: "approval_decision", call_id, decision: "approve" | "deny_continue" | "deny_abort", event_id}; "Tool approval path: approval_pending → approve → function_call_output → finished"`,
		Summary: "approval_decision names a call_id that an approval_pending announced (the spec shows the pairing, a warning)."}
)

var _ = registerRuleSet("minicodex", func(o Options) ruleSet { return newMinicodex(o) })

var _ = register(mcEventIDOrder, mcReplayMismatch, mcReplayGap, mcReplayDuplicate, mcHandshakeFirst,
	mcApproveUnknown, mcApproveDecided, mcAbortIdle, mcDecisionUnknown, mcResumeUnseen)

type minicodex struct {
	log     *eventLog[int64]
	known   *seqWindow // event ids of the session
	conns   map[string]*mcConn
	pending map[string]bool // call_id → still pending
	// announced holds the call_ids ever announced; once it has evicted one,
	// "never announced" cannot be told from "forgotten", and those rules
	// stay quiet rather than guess.
	announced *recent[string, bool]
	running   bool
	// delivered is the highest event_id delivered to any connection of
	// the session, for judging the client's resume.
	hasDelivered bool
	delivered    int64
}

type mcConn struct {
	sawClient bool
	hasLast   bool
	last      int64 // last event_id delivered on this connection
	lastFrame int64 // the server frame that carried last (0: none did)
	resumed   bool
	from      int64 // last_seen_event_id of the resume
	cursor    int64 // replay has covered every event <= cursor
	// replayed: an event with an event_id arrived since the resume.
	// instructed: the server answered the resume with an error before any
	// such event ("If the gap exceeds server window, server instructs
	// client to fetch full snapshot via get_snapshot"): the gap is not
	// judged until a snapshot restarts the replay from its event_id.
	replayed, instructed bool
}

func newMinicodex(opts Options) *minicodex {
	return &minicodex{
		known:     newSeqWindow(opts.ReplayWindow),
		log:       newEventLog[int64](opts.ReplayWindow, whole),
		conns:     map[string]*mcConn{},
		pending:   map[string]bool{},
		announced: newRecent[string, bool](opts.ReplayWindow),
	}
}

func (r *minicodex) opened(conn, _ string) { r.conns[conn] = &mcConn{} }
func (r *minicodex) closed(conn string)    { delete(r.conns, conn) }

func (r *minicodex) conn(id string) *mcConn {
	c, ok := r.conns[id]
	if !ok {
		c = &mcConn{}
		r.conns[id] = c
	}
	return c
}

func (r *minicodex) observe(m *message) []Finding {
	c := r.conn(m.Frame.Conn)
	if m.Frame.Dir == wire.ClientToServer {
		return r.client(c, m)
	}
	return r.server(c, m)
}

func (r *minicodex) client(c *mcConn, m *message) []Finding {
	var out []Finding
	if !c.sawClient {
		c.sawClient = true
		if m.Type != "hello" && m.Type != "resume" {
			fd := mcHandshakeFirst.fire(m, "first client message on the connection is %q", m.Type)
			fd.Expected, fd.Actual = "hello or resume", m.Type
			out = append(out, fd)
		}
	}
	switch m.Type {
	case "resume":
		c.resumed, c.from, c.cursor = true, math.MinInt64, math.MinInt64
		c.replayed, c.instructed = false, false
		if n, ok := jsonx.Int64(m.Doc["last_seen_event_id"]); ok {
			c.from, c.cursor = n, n
			c.hasLast, c.last, c.lastFrame = true, n, 0
			if r.hasDelivered && n > r.delivered {
				fd := mcResumeUnseen.fire(m, "resume from event_id %d, which the session never delivered (the last was %d)", n, r.delivered)
				fd.Pointer, fd.Expected, fd.Actual = "/last_seen_event_id", fmt.Sprintf("<= %d", r.delivered), strconv.FormatInt(n, 10)
				out = append(out, fd)
			}
		}
	case "approve", "deny":
		out = append(out, r.approval(m)...)
	case "abort":
		if !r.running {
			fd := mcAbortIdle.fire(m, "abort while no run is active")
			fd.Expected, fd.Actual = "an active run (starting, running, awaiting_approval)", "no active run"
			out = append(out, fd)
		}
	}
	return out
}

func (r *minicodex) approval(m *message) []Finding {
	id, ok := jsonx.String(m.Doc["call_id"])
	if !ok || r.pending[id] {
		return nil
	}
	_, announced := r.announced.get(id)
	if !announced && r.announced.evicted {
		return nil
	}
	if announced {
		fd := mcApproveDecided.fire(m, "%s of call_id %q, which is already decided", m.Type, id)
		fd.Pointer, fd.Expected, fd.Actual = "/call_id", "a pending call_id", strconv.Quote(id)
		return []Finding{fd}
	}
	fd := mcApproveUnknown.fire(m, "%s of call_id %q, which no approval_pending announced", m.Type, id)
	fd.Pointer, fd.Actual = "/call_id", strconv.Quote(id)
	fd.Expected = "one of " + orNone(sortedKeys(r.pending))
	return []Finding{fd}
}

func (r *minicodex) server(c *mcConn, m *message) []Finding {
	switch m.Type {
	case "snapshot":
		// A snapshot is state, not a log event: it does not take part in
		// the order, and after a resume it covers every event up to its id.
		c.instructed = false
		if e, ok := jsonx.Int64(m.Doc["event_id"]); ok {
			if c.resumed && e > c.cursor {
				c.cursor = e
			}
			if !r.hasDelivered || e > r.delivered {
				r.hasDelivered, r.delivered = true, e // a client may resume from a snapshot's event_id
			}
		}
		r.runState(m.Doc["run_state"])
		return nil
	case "error":
		if c.resumed && !c.replayed {
			c.instructed = true
		}
	case "welcome":
		if st, ok := m.Doc["session_state"].(map[string]any); ok {
			_, active := st["active_run_id"].(string)
			r.running = active
		}
	}
	e, ok := jsonx.Int64(m.Doc["event_id"])
	if !ok {
		return nil
	}
	if !r.hasDelivered || e > r.delivered {
		r.hasDelivered, r.delivered = true, e
	}
	var out []Finding
	if !(c.resumed && e <= c.from) { // a re-sent old event is a replay-duplicate, reported once
		out = r.order(c, m, e)
	}
	v := viewAt(m, "", -1, m.Doc, "")
	orig, differs := r.log.compare(e, m, v)
	if differs {
		out = append(out, replayMismatch(mcReplayMismatch, m, orig, "", fmt.Sprintf("event_id %d", e)))
	}
	if c.resumed {
		c.replayed = true
		out = append(out, r.replay(c, m, e)...)
	}
	if orig == nil {
		r.known.add(e)
		out = append(out, r.state(m)...)
	}
	return out
}

func (r *minicodex) order(c *mcConn, m *message, e int64) []Finding {
	var out []Finding
	if c.hasLast && e <= c.last {
		fd := mcEventIDOrder.fire(m, "event_id %d after %d on this connection", e, c.last)
		fd.Pointer, fd.Expected, fd.Actual = "/event_id", fmt.Sprintf("> %d", c.last), strconv.FormatInt(e, 10)
		fd.Related = related(c.lastFrame)
		out = append(out, fd)
	}
	if !c.hasLast || e > c.last {
		c.hasLast, c.last, c.lastFrame = true, e, m.Frame.Index
	}
	return out
}

func (r *minicodex) replay(c *mcConn, m *message, e int64) []Finding {
	if e <= c.from {
		fd := mcReplayDuplicate.fire(m, "event_id %d re-sent after resume{last_seen_event_id: %d}", e, c.from)
		fd.Pointer, fd.Expected, fd.Actual = "/event_id", fmt.Sprintf("> %d", c.from), strconv.FormatInt(e, 10)
		return []Finding{fd}
	}
	if e <= c.cursor {
		return nil
	}
	if c.instructed {
		c.cursor = e // told to fetch a snapshot: live events are not a replay
		return nil
	}
	missing := r.known.between(c.cursor, e)
	c.cursor = e
	if len(missing) == 0 {
		return nil
	}
	fd := mcReplayGap.fire(m, "replay after resume skipped event_id %s", joinIDs(missing))
	fd.Pointer = "/event_id"
	fd.Expected = fmt.Sprintf("event_id %d next", missing[0])
	fd.Actual = strconv.FormatInt(e, 10)
	return []Finding{fd}
}

// state follows approvals and runs from new (not replayed) events.
func (r *minicodex) state(m *message) []Finding {
	switch m.Type {
	case "approval_pending":
		if id, ok := jsonx.String(m.Doc["call_id"]); ok {
			r.pending[id] = true
			r.announced.put(id, true)
		}
	case "approval_decision":
		id, ok := jsonx.String(m.Doc["call_id"])
		if !ok {
			return nil
		}
		delete(r.pending, id)
		if _, announced := r.announced.get(id); !announced && !r.announced.evicted {
			fd := mcDecisionUnknown.fire(m, "approval_decision for call_id %q, which no approval_pending announced", id)
			fd.Pointer, fd.Actual = "/call_id", strconv.Quote(id)
			return []Finding{fd}
		}
	case "run_status":
		r.runState(m.Doc["run_state"])
	case "turn_done":
		r.running = false
	}
	return nil
}

// runState takes the server's authoritative RunState: whether a run is
// active and which approvals are pending.
func (r *minicodex) runState(v any) {
	st, ok := v.(map[string]any)
	if !ok {
		return
	}
	switch st["status"] {
	case "starting", "running", "awaiting_approval", "aborting":
		r.running = true
	case "idle", "finished", "error":
		r.running = false
	}
	list, ok := st["pending_approvals"].([]any)
	if !ok {
		return
	}
	r.pending = map[string]bool{}
	for _, a := range list {
		if id, ok := jsonx.String(jsonx.FieldOr(a, "call_id")); ok {
			r.pending[id] = true
			r.announced.put(id, true)
		}
	}
}
