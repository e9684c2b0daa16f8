package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// mitto rules: data.seq order and max_seq, events_loaded paging, replayed
// events, UI prompts and prompt ownership.
//
// Live events ({type, data:{seq, max_seq, …}}) and stored events (the items
// of events_loaded.events, seq at the top level or in data) have different
// shapes, so a seq delivered in both is compared by type only; live copies
// are compared with live copies, stored events with stored events.
// The quotes the rules rest on, copied from mitto.md.
const (
	mtQuoteSeq     = "mitto.md §Key Field Descriptions / Sequence Number Fields: \"`seq`: Monotonically increasing sequence number assigned when event is received from ACP.\""
	mtQuoteMaxSeq  = "mitto.md §Key Field Descriptions / Sequence Number Fields: \"`max_seq`: Highest sequence number the server has for this session. Enables immediate gap detection.\""
	mtQuoteLimit   = "mitto.md §load_events Parameters: \"| `limit` | int | Maximum events to return (default: 50, max: 500) |\""
	mtQuoteRange   = "mitto.md §load_events Parameters: \"| `before_seq` | int64 | Load events with seq < before_seq (pagination) |\" and \"| `after_seq` | int64 | Load events with seq > after_seq (sync) |\""
	mtQuoteOption  = "mitto.md §Unified UI Prompt System / Option Properties: \"| `id` | string | Machine-readable identifier returned in response |\"; ui_prompt_answer Message Format: {request_id, option_id, label}"
	mtQuoteExclude = "mitto.md §load_events Parameters: \"**Note:** `before_seq` and `after_seq` are mutually exclusive.\""
)

var (
	mtSeqOrder = Rule{ID: "mitto.seq-order", Severity: Error, Evidence: Stated, Dialect: "mitto",
		Requires: []string{"mitto.seq.monotonic"},
		Spec:     "mitto.md §Key Field Descriptions / Sequence Number Fields: seq is a monotonically increasing sequence number",
		Quote:    mtQuoteSeq,
		Summary:  "On a connection, the data.seq of live agent_message, agent_thought, tool_call and tool_update events never decreases (a further chunk of the same agent_message or agent_thought may repeat the seq). Judged per connection only: across connections the spec promises nothing about delivery order."}
	mtSeqOrderPrompt = Rule{ID: "mitto.seq-order-prompt", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.seq.prompt-overtakes", "mitto.seq.monotonic"},
		Spec:     "mitto.md §Key Field Descriptions / Sequence Number Fields; interpretation: a user_prompt broadcast is produced concurrently with the agent's stream, so it may overtake it",
		Quote:    mtQuoteSeq,
		Summary:  "On a connection, a live user_prompt's data.seq is not lower than the seq of a live event delivered before it."}
	mtSeqDuplicate = Rule{ID: "mitto.seq-duplicate", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.seq.delivered-once"},
		Spec:     "mitto.md §Key Field Descriptions / Sequence Number Fields; §Related Documentation (sequence-numbers.md: the server tracks what it sent, clients deduplicate by seq); interpretation",
		Summary:  "A live user_prompt, tool_call or tool_update is not delivered twice with the same seq on one connection (a client deduplicates it, so it is a wasteful duplicate, not a different event)."}
	mtReplayMismatch = Rule{ID: "mitto.replay-mismatch", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.seq.same-content", "mitto.events-loaded.stored-as-delivered"},
		Spec:     "mitto.md §Key Field Descriptions / Sequence Number Fields; §Event Types in load_events; interpretation: the spec numbers events per session but never says that two deliveries of one seq (live copies on different connections, stored copies in different events_loaded, or a live and a stored copy) carry the same content",
		Quote:    mtQuoteSeq,
		Summary:  "Every delivery of one seq is the same event: the same type everywhere, the same stored event in every events_loaded, and the same data (less max_seq, is_prompting, is_mine) in every live user_prompt, tool_call and tool_update."}
	mtMaxSeq = Rule{ID: "mitto.max-seq", Severity: Error, Evidence: Stated, Dialect: "mitto",
		Requires: []string{"mitto.seq.max-seq"},
		Spec:     "mitto.md §Key Field Descriptions / Sequence Number Fields: max_seq is the highest sequence number the server has for this session",
		Quote:    mtQuoteMaxSeq,
		Summary:  "In one message, max_seq is at least every seq the message carries: data.seq of a live event; last_seq and every event seq of events_loaded."}
	mtMaxSeqRegress = Rule{ID: "mitto.max-seq-regress", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.seq.max-seq-snapshot"},
		Spec:     "mitto.md §Key Field Descriptions / Sequence Number Fields: max_seq enables immediate gap detection; interpretation: max_seq is a snapshot taken when the message is built",
		Quote:    mtQuoteMaxSeq,
		Summary:  "On a connection, max_seq (live events, prompt_complete, events_loaded, keepalive_ack) is not lower than a seq or a max_seq the connection already received."}
	mtLoadedOrder = Rule{ID: "mitto.events-loaded-order", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.events-loaded.order"},
		Spec:     "mitto.md §Event Types in load_events; §Key Field Descriptions / Sequence Number Fields; interpretation: the spec says events_loaded \"contains an array of events\" but not in which order",
		Summary:  "events_loaded.events are sorted by seq ascending without a repeated seq (adjacent chunks of one agent_message or agent_thought may share it)."}
	mtLoadedBounds = Rule{ID: "mitto.events-loaded-bounds", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.events-loaded.bounds"},
		Spec:     "mitto.md §Backend → Frontend Messages: events_loaded {events, has_more, first_seq, last_seq, …}; interpretation: the spec names first_seq and last_seq but does not describe them",
		Summary:  "When events_loaded.events is not empty, first_seq is the seq of its first event and last_seq the seq of its last."}
	mtLoadedLimit = Rule{ID: "mitto.events-loaded-limit", Severity: Error, Evidence: Stated, Dialect: "mitto",
		Requires: []string{"mitto.load-events.limit-max", "mitto.load-events.limit-default"},
		Spec:     "mitto.md §load_events Parameters: limit, maximum events to return (default: 50, max: 500)",
		Quote:    mtQuoteLimit,
		Summary:  "An events_loaded answering an initial load or a before_seq page holds at most the requested limit of events (50 when none was given, never more than 500)."}
	mtLoadedSyncLimit = Rule{ID: "mitto.events-loaded-sync-limit", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.load-events.sync-limit"},
		Spec:     "mitto.md §load_events Parameters: limit (default: 50, max: 500); interpretation: the linked synchronization.md sync returns every event after after_seq, so whether limit binds a sync is unclear",
		Quote:    mtQuoteLimit,
		Summary:  "An events_loaded answering an after_seq sync holds at most the requested limit of events (50 when none was given, never more than 500)."}
	mtLoadedRange = Rule{ID: "mitto.events-loaded-range", Severity: Error, Evidence: Stated, Dialect: "mitto",
		Requires: []string{"mitto.load-events.before-seq", "mitto.load-events.after-seq"},
		Spec:     "mitto.md §load_events Parameters: before_seq loads events with seq < before_seq, after_seq events with seq > after_seq",
		Quote:    mtQuoteRange,
		Summary:  "The events_loaded answering load_events{before_seq} holds only events with seq < before_seq; the one answering load_events{after_seq} only events with seq > after_seq, unless after_seq exceeds the answer's max_seq (a stale client, which the server answers with an initial load)."}
	mtLoadedHasMore = Rule{ID: "mitto.events-loaded-has-more", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.events-loaded.total-count"},
		Spec:     "mitto.md §Backend → Frontend Messages: events_loaded {has_more, total_count}; interpretation: total_count counts the events of the session",
		Summary:  "events_loaded.has_more is false when total_count is not larger than the number of events returned (the answer already holds every event of the session)."}
	mtLoadExclusive = Rule{ID: "mitto.load-events-exclusive", Severity: Error, Evidence: Stated, Dialect: "mitto",
		Requires: []string{"mitto.load-events.exclusive"},
		Spec:     "mitto.md §load_events Parameters: before_seq and after_seq are mutually exclusive",
		Quote:    mtQuoteExclude,
		Summary:  "A load_events carries before_seq or after_seq, never both."}
	mtLoadLimit = Rule{ID: "mitto.load-events-limit", Severity: Error, Evidence: Stated, Dialect: "mitto",
		Requires: []string{"mitto.load-events.limit-max"},
		Spec:     "mitto.md §load_events Parameters: limit (default: 50, max: 500)",
		Quote:    mtQuoteLimit,
		Summary:  "A load_events limit is at most 500."}
	mtAnswer = Rule{ID: "mitto.ui-prompt-answer", Severity: Error, Evidence: Stated, Dialect: "mitto",
		Requires: []string{"mitto.option.id", "mitto.ui-prompt-answer.shape"},
		Spec:     "mitto.md §Unified UI Prompt System: Option Properties (id is the identifier returned in response); ui_prompt_answer Message Format",
		Quote:    mtQuoteOption,
		Summary:  "A ui_prompt_answer's option_id is one of the option ids of the prompt its request_id names (unless it carries free_text, an extension for free-form input)."}
	mtAnswerUnknown = Rule{ID: "mitto.ui-prompt-answer-unknown", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.ui-prompt-answer.unknown-request"},
		Spec:     "mitto.md §Frontend → Backend Messages: ui_prompt_answer \"Respond to UI prompt\", permission_answer; interpretation: the spec does not say what an answer naming no announced prompt is",
		Summary:  "ui_prompt_answer and permission_answer name a request_id that a ui_prompt or permission announced in the session."}
	mtAnswerLate = Rule{ID: "mitto.ui-prompt-answer-late", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.ui-prompt-answer.once"},
		Spec:     "mitto.md §Backend → Frontend Messages: ui_prompt_dismiss dismisses the active UI prompt (timeout/cancel); interpretation",
		Summary:  "An answer names a prompt that is still open, neither dismissed nor answered already by this or another client (a warning: the answer may have crossed the dismiss or another client's answer)."}
	mtDismissUnknown = Rule{ID: "mitto.dismiss-unknown", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.ui-prompt-dismiss.names-prompt"},
		Spec:     "mitto.md §Backend → Frontend Messages: ui_prompt_dismiss {request_id}; interpretation: the spec does not say a dismiss names an announced prompt",
		Summary:  "ui_prompt_dismiss names a request_id that a ui_prompt or permission announced in the session."}
	mtPromptReceived = Rule{ID: "mitto.prompt-received", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.prompt-received.names-prompt"},
		Spec:     "mitto.md §Backend → Frontend Messages: prompt_received {prompt_id}, ACK that a prompt was received and persisted; interpretation: it acknowledges a prompt that a client of the session sent",
		Summary:  "prompt_received names the prompt_id of a prompt that a client of the session sent."}
	mtIsMine = Rule{ID: "mitto.is-mine", Severity: Warning, Evidence: Interpretation, Dialect: "mitto",
		Requires: []string{"mitto.user-prompt.is-mine"},
		Spec:     "mitto.md §Backend → Frontend Messages: user_prompt {sender_id, prompt_id, is_mine} broadcast to all clients; connected {client_id}; interpretation: the spec names is_mine but does not define it",
		Summary:  "user_prompt.is_mine is not true on a connection that never sent that prompt_id and whose client_id is not the sender_id, and not false on the connection that sent it when sender_id is its client_id."}
	mtUnlisted = Rule{ID: "mitto.value-unlisted", Severity: Warning, Evidence: Shown, Dialect: "mitto",
		Requires: []string{"mitto.ui-prompt.types-listed", "mitto.option.style-values", "mitto.keepalive-ack.status-values", "mitto.events-loaded.event-types", "mitto.ui-prompt.options-buttons-max", "mitto.ui-prompt.select-max"},
		Spec: "mitto.md §Unified UI Prompt System / Prompt Types and Option Properties; §Key Field Descriptions / Keepalive Fields; §Event Types in load_events: " +
			"tables and descriptions that list values without closing the type",
		Quote: "Prompt Types: yes_no \"Two-button yes/no question\", options_buttons \"Multiple choice buttons (max 4)\", select \"Dropdown selection (max 10 options)\", permission, action_buttons; " +
			"Option Properties: \"| `style` | string | Visual style: primary, secondary, success, danger |\"; Keepalive Fields: \"| `status` | string | Session status (`active`, `completed`, `error`) |\"; " +
			"Event Types in load_events: \"Each event has a `type` field\": user_prompt, agent_message, agent_thought, tool_call, tool_update, file_read, file_write, plan",
		Summary: "A value the spec's tables list: ui_prompt.prompt_type, the number of options its prompt type allows (yes_no two, options_buttons 4, select 10), an option's style, keepalive_ack.status and a stored event's type. The spec lists these values in prose and tables without closing the type, so another value is a warning; reported once per member and value in a session."}
)

var _ = registerRuleSet("mitto", func(o Options) ruleSet { return newMitto(o) })

var _ = register(mtSeqOrder, mtSeqOrderPrompt, mtSeqDuplicate, mtReplayMismatch, mtMaxSeq, mtMaxSeqRegress,
	mtLoadedOrder, mtLoadedBounds, mtLoadedLimit, mtLoadedSyncLimit, mtLoadedRange, mtLoadedHasMore,
	mtLoadExclusive, mtLoadLimit, mtAnswer, mtAnswerUnknown, mtAnswerLate, mtDismissUnknown, mtPromptReceived, mtIsMine,
	mtUnlisted)

const (
	mtDefaultLimit = 50  // §load_events Parameters: default: 50
	mtMaxLimit     = 500 // §load_events Parameters: max: 500
	// mtMaxPending bounds the unanswered load_events kept per connection: a
	// server may drop a load_events that overlaps one in flight.
	mtMaxPending = 16
	// mtMaxReplayFindings bounds the mismatches reported for one
	// events_loaded, so a renumbered store does not flood the report.
	mtMaxReplayFindings = 5
)

// mtVolatile are the members of a live event's data that legitimately
// differ between deliveries of one seq: max_seq and is_prompting are
// snapshots taken at send time, is_mine differs per client by design.
var mtVolatile = []string{"/max_seq", "/is_prompting", "/is_mine"}

type mitto struct {
	window int
	types  *eventLog[int64] // seq → {type}, from every delivery, live or stored
	live   *eventLog[int64] // seq → comparable view of a live user_prompt, tool_call, tool_update
	stored *eventLog[int64] // seq → stored event, from events_loaded
	// multi remembers seqs that one events_loaded held more than once
	// (coalesced chunks); their stored content is compared by type only.
	multi   *recent[int64, bool]
	asks    *recent[string, *mtAsk] // request_id → ui_prompt or permission
	sent    *recent[string, bool]   // prompt_ids sent by any client of the session
	sentAny bool                    // some prompt carried no readable prompt_id
	conns   map[string]*mtConn
	// unlisted holds the member+value pairs value-unlisted already reported.
	unlisted *recent[string, bool]
}

// mtAsk is an announced ui_prompt or permission.
type mtAsk struct {
	options []string // option ids; nil when unknown
	state   string   // "open", "answered" or "dismissed"
	frame   int64    // frame of the last state change
}

type mtConn struct {
	clientID string // from connected; empty until seen
	// live order: the highest live seq so far and the type carrying it
	hasLive  bool
	lastSeq  int64
	lastType string
	// max_seq tracking: highest seq and highest max_seq delivered
	hasHigh bool
	highSeq int64
	hasMax  bool
	highMax int64
	loads   []mtLoad              // load_events not answered yet, oldest first
	prompts *recent[string, bool] // prompt_ids this connection sent
	noID    bool                  // this connection sent a prompt without a readable prompt_id
}

// mtLoad is one load_events request as the server should read it.
type mtLoad struct {
	frame    int64
	desc     string
	limit    int64 // effective limit: default 50, capped at 500
	before   int64 // 0: none
	after    int64
	hasAfter bool
}

// mtEv is one stored event of an events_loaded.
type mtEv struct {
	idx    int
	doc    any
	typ    string
	seq    int64
	hasSeq bool
	ptr    string // pointer to its seq member
}

func newMitto(opts Options) *mitto {
	w := opts.ReplayWindow
	return &mitto{
		window: w,
		types:  newEventLog[int64](w, typeOnly),
		live:   newEventLog[int64](w, mtLiveView),
		stored: newEventLog[int64](w, whole),
		multi:  newRecent[int64, bool](w),
		asks:   newRecent[string, *mtAsk](w),
		sent:   newRecent[string, bool](w),
		conns:  map[string]*mtConn{},

		unlisted: newRecent[string, bool](w),
	}
}

func (r *mitto) opened(conn, _ string) { r.conns[conn] = r.newConn() }
func (r *mitto) closed(conn string)    { delete(r.conns, conn) }

func (r *mitto) newConn() *mtConn { return &mtConn{prompts: newRecent[string, bool](r.window)} }

func (r *mitto) conn(id string) *mtConn {
	c, ok := r.conns[id]
	if !ok {
		c = r.newConn()
		r.conns[id] = c
	}
	return c
}

func (r *mitto) observe(m *message) []Finding {
	c := r.conn(m.Frame.Conn)
	data, _ := m.Doc["data"].(map[string]any) // nil when the schema failed; reads below then find nothing
	if m.Frame.Dir == wire.ClientToServer {
		return r.client(c, m, data)
	}
	return r.server(c, m, data)
}

func (r *mitto) client(c *mtConn, m *message, data map[string]any) []Finding {
	switch m.Type {
	case "prompt":
		if id, ok := jsonx.String(data["prompt_id"]); ok && id != "" {
			c.prompts.put(id, true)
			r.sent.put(id, true)
		} else {
			c.noID, r.sentAny = true, true
		}
	case "load_events":
		return r.loadEvents(c, m, data)
	case "ui_prompt_answer", "permission_answer":
		return r.answer(m, data)
	}
	return nil
}

func (r *mitto) server(c *mtConn, m *message, data map[string]any) []Finding {
	switch m.Type {
	case "connected":
		if id, ok := jsonx.String(data["client_id"]); ok {
			c.clientID = id
		}
	case "user_prompt", "agent_message", "agent_thought", "tool_call", "tool_update":
		return r.liveEvent(c, m, data)
	case "events_loaded":
		return r.eventsLoaded(c, m, data)
	case "prompt_complete":
		if max, ok := jsonx.Int64(data["max_seq"]); ok {
			return r.regress(c, m, max)
		}
	case "keepalive_ack":
		out := r.unlistedValue(m, "/data/status", data["status"], mtStatuses, "Keepalive Fields")
		if max, ok := jsonx.Int64(data["max_seq"]); ok {
			out = append(out, r.regress(c, m, max)...)
		}
		return out
	case "ui_prompt":
		r.announce(m, data)
		return r.uiPromptValues(m, data)
	case "permission":
		r.announce(m, data)
	case "ui_prompt_dismiss":
		return r.dismiss(m, data)
	case "prompt_received":
		return r.received(m, data)
	}
	return nil
}

// --- live events -----------------------------------------------------------

// mtCoalesces reports whether several chunks of one logical event may share
// a seq (sequence-numbers.md: agent messages and thoughts are coalesced).
func mtCoalesces(t string) bool { return t == "agent_message" || t == "agent_thought" }

func (r *mitto) liveEvent(c *mtConn, m *message, data map[string]any) []Finding {
	var out []Finding
	seq, hasSeq := jsonx.Int64(data["seq"])
	// seq 0 is "no sequence number assigned": sequence numbers start at 1
	// (sequence-numbers.md), so such an event takes no part in order or replay.
	hasSeq = hasSeq && seq > 0
	if hasSeq {
		repeat := c.hasLive && seq == c.lastSeq && m.Type == c.lastType
		out = append(out, r.liveOrder(c, m, seq)...)
		fs, differs := r.sameLive(m, data, seq)
		out = append(out, fs...)
		if repeat && !differs && !mtCoalesces(m.Type) {
			fd := mtSeqDuplicate.fire(m, "%s with seq %d delivered again on this connection", m.Type, seq)
			fd.Pointer, fd.Expected, fd.Actual = "/data/seq", fmt.Sprintf("> %d", seq), strconv.FormatInt(seq, 10)
			out = append(out, fd)
		}
	}
	if max, ok := jsonx.Int64(data["max_seq"]); ok {
		if hasSeq && max < seq {
			fd := mtMaxSeq.fire(m, "%s carries max_seq %d below its own seq %d", m.Type, max, seq)
			fd.Pointer, fd.Expected, fd.Actual = "/data/max_seq", fmt.Sprintf(">= %d (data.seq)", seq), strconv.FormatInt(max, 10)
			out = append(out, fd)
			c.noteMax(max)
		} else {
			out = append(out, r.regress(c, m, max)...)
		}
	}
	if hasSeq {
		c.noteSeq(seq)
	}
	if m.Type == "user_prompt" {
		out = append(out, r.isMine(c, m, data)...)
	}
	return out
}

func (r *mitto) liveOrder(c *mtConn, m *message, seq int64) []Finding {
	var out []Finding
	if c.hasLive && seq < c.lastSeq {
		rule := mtSeqOrder
		if m.Type == "user_prompt" {
			rule = mtSeqOrderPrompt
		}
		fd := rule.fire(m, "%s seq %d after %s seq %d on this connection", m.Type, seq, c.lastType, c.lastSeq)
		fd.Pointer, fd.Expected, fd.Actual = "/data/seq", fmt.Sprintf(">= %d", c.lastSeq), strconv.FormatInt(seq, 10)
		out = append(out, fd)
	}
	if !c.hasLive || seq >= c.lastSeq {
		c.hasLive, c.lastSeq, c.lastType = true, seq, m.Type
	}
	return out
}

// sameLive compares a live event with earlier deliveries of its seq: the
// type with any delivery, the data (less mtVolatile) with earlier live
// copies. Chunks of a coalesced agent_message or agent_thought carry
// different text under one seq, so only their type is compared.
func (r *mitto) sameLive(m *message, data map[string]any, seq int64) ([]Finding, bool) {
	key := seq
	tv := typeView(m.Type)
	if orig, differs := r.types.compare(key, m, tv); differs {
		return []Finding{replayMismatch(mtReplayMismatch, m, orig, "", fmt.Sprintf("seq %d", seq))}, true
	}
	if mtCoalesces(m.Type) {
		return nil, false
	}
	view := viewAt(m, "/data", -1, data, m.Type)
	if orig, differs := r.live.compare(key, m, view); differs {
		return []Finding{replayMismatch(mtReplayMismatch, m, orig, "", fmt.Sprintf("seq %d", seq))}, true
	}
	return nil, false
}

// mtLiveView is the compared view of a live event: its type and data
// less mtVolatile. part is the message's data (its object, as liveEvent
// reads it: nil when it is not one).
func mtLiveView(part any, typ string) any {
	data, _ := part.(map[string]any)
	return map[string]any{"type": typ, "data": without(data, mtVolatile)}
}

// --- max_seq ---------------------------------------------------------------

func (c *mtConn) noteSeq(seq int64) {
	if !c.hasHigh || seq > c.highSeq {
		c.hasHigh, c.highSeq = true, seq
	}
}

func (c *mtConn) noteMax(max int64) {
	if !c.hasMax || max > c.highMax {
		c.hasMax, c.highMax = true, max
	}
}

// regress compares a max_seq with what the connection already received.
// A warning, not an error: the server builds keepalive_ack and
// events_loaded while the live stream goes on, so a snapshot taken just
// before a new seq was assigned can be delivered after that seq.
func (r *mitto) regress(c *mtConn, m *message, max int64) []Finding {
	var out []Finding
	switch {
	case c.hasHigh && max < c.highSeq:
		fd := mtMaxSeqRegress.fire(m, "max_seq %d is lower than seq %d already delivered on this connection", max, c.highSeq)
		fd.Pointer, fd.Expected, fd.Actual = "/data/max_seq", fmt.Sprintf(">= %d", c.highSeq), strconv.FormatInt(max, 10)
		out = append(out, fd)
	case c.hasMax && max < c.highMax:
		fd := mtMaxSeqRegress.fire(m, "max_seq %d after max_seq %d on this connection", max, c.highMax)
		fd.Pointer, fd.Expected, fd.Actual = "/data/max_seq", fmt.Sprintf(">= %d", c.highMax), strconv.FormatInt(max, 10)
		out = append(out, fd)
	}
	c.noteMax(max)
	return out
}

// --- load_events and events_loaded -------------------------------------------

func (r *mitto) loadEvents(c *mtConn, m *message, data map[string]any) []Finding {
	var out []Finding
	before, hasBefore := jsonx.Int64(data["before_seq"])
	after, hasAfter := jsonx.Int64(data["after_seq"])
	limit, hasLimit := jsonx.Int64(data["limit"])
	if hasBefore && hasAfter {
		fd := mtLoadExclusive.fire(m, "load_events carries both before_seq %d and after_seq %d", before, after)
		fd.Pointer, fd.Expected = "/data/after_seq", "before_seq or after_seq, not both"
		fd.Actual = fmt.Sprintf("before_seq %d and after_seq %d", before, after)
		out = append(out, fd)
	}
	if hasLimit && limit > mtMaxLimit {
		fd := mtLoadLimit.fire(m, "load_events limit %d exceeds the maximum of %d", limit, mtMaxLimit)
		fd.Pointer, fd.Expected, fd.Actual = "/data/limit", fmt.Sprintf("<= %d", mtMaxLimit), strconv.FormatInt(limit, 10)
		out = append(out, fd)
	}
	if hasBefore && hasAfter {
		return out // contradictory: no answer can be judged against it
	}
	l := mtLoad{frame: m.Frame.Index, limit: mtDefaultLimit, after: after, hasAfter: hasAfter}
	if hasLimit && limit > 0 {
		l.limit = min(limit, mtMaxLimit)
	}
	if hasBefore && before > 0 { // seq numbers start at 1: before_seq 0 selects nothing and reads as absent
		l.before = before
	}
	l.desc = mtDescribeLoad(m.Frame.Index, data)
	if len(c.loads) == mtMaxPending {
		c.loads = c.loads[1:]
	}
	c.loads = append(c.loads, l)
	return out
}

func mtDescribeLoad(frame int64, data map[string]any) string {
	var parts []string
	for _, k := range []string{"limit", "before_seq", "after_seq"} {
		if v, ok := data[k]; ok {
			parts = append(parts, k+": "+short(v))
		}
	}
	return fmt.Sprintf("load_events{%s} (frame %d)", strings.Join(parts, ", "), frame)
}

func (r *mitto) eventsLoaded(c *mtConn, m *message, data map[string]any) []Finding {
	list, _ := data["events"].([]any)
	evs := mtStoredEvents(list)
	var out []Finding
	out = append(out, r.loadedOrder(m, evs)...)
	out = append(out, r.loadedBounds(m, data, evs)...)
	out = append(out, r.loadedMax(c, m, data, evs)...)
	out = append(out, r.pair(c, m, data, evs)...)
	out = append(out, r.loadedHasMore(m, data, len(list))...)
	out = append(out, r.sameStored(m, evs)...)
	for _, e := range evs {
		if e.typ != "" {
			out = append(out, r.unlistedValue(m, fmt.Sprintf("/data/events/%d/type", e.idx), e.typ, mtEventTypes, "Event Types in load_events")...)
		}
	}
	for _, e := range evs {
		if e.hasSeq && e.seq > 0 {
			c.noteSeq(e.seq)
		}
	}
	return out
}

func mtStoredEvents(list []any) []mtEv {
	evs := make([]mtEv, len(list))
	for i, doc := range list {
		e := mtEv{idx: i, doc: doc}
		e.typ, _ = jsonx.String(jsonx.FieldOr(doc, "type"))
		base := "/data/events/" + strconv.Itoa(i)
		if s, ok := jsonx.Int64(jsonx.FieldOr(doc, "seq")); ok {
			e.seq, e.hasSeq, e.ptr = s, true, base+"/seq"
		} else if s, ok := jsonx.Int64(jsonx.FieldOr(jsonx.FieldOr(doc, "data"), "seq")); ok {
			e.seq, e.hasSeq, e.ptr = s, true, base+"/data/seq"
		}
		evs[i] = e
	}
	return evs
}

// loadedOrder reports the first event out of seq order.
func (r *mitto) loadedOrder(m *message, evs []mtEv) []Finding {
	var prev *mtEv
	for i := range evs {
		e := &evs[i]
		if !e.hasSeq {
			continue
		}
		if prev != nil {
			chunk := e.seq == prev.seq && e.typ == prev.typ && mtCoalesces(e.typ)
			if e.seq < prev.seq || (e.seq == prev.seq && !chunk) {
				fd := mtLoadedOrder.fire(m, "events[%d] has seq %d after events[%d] with seq %d", e.idx, e.seq, prev.idx, prev.seq)
				fd.Pointer, fd.Expected, fd.Actual = e.ptr, fmt.Sprintf("> %d", prev.seq), strconv.FormatInt(e.seq, 10)
				return []Finding{fd}
			}
		}
		prev = e
	}
	return nil
}

func (r *mitto) loadedBounds(m *message, data map[string]any, evs []mtEv) []Finding {
	if len(evs) == 0 {
		return nil
	}
	var out []Finding
	check := func(member string, e mtEv) {
		got, ok := jsonx.Int64(data[member])
		if !ok || !e.hasSeq || got == e.seq {
			return
		}
		fd := mtLoadedBounds.fire(m, "%s is %d but events[%d] has seq %d", member, got, e.idx, e.seq)
		fd.Pointer, fd.Expected, fd.Actual = "/data/"+member, strconv.FormatInt(e.seq, 10), strconv.FormatInt(got, 10)
		out = append(out, fd)
	}
	check("first_seq", evs[0])
	check("last_seq", evs[len(evs)-1])
	return out
}

// loadedMax checks max_seq against the seqs of this events_loaded (an
// error) and, failing that, against what the connection received before.
func (r *mitto) loadedMax(c *mtConn, m *message, data map[string]any, evs []mtEv) []Finding {
	max, ok := jsonx.Int64(data["max_seq"])
	if !ok {
		return nil
	}
	high, where := int64(0), ""
	if last, ok := jsonx.Int64(data["last_seq"]); ok && last > high {
		high, where = last, "last_seq"
	}
	for _, e := range evs {
		if e.hasSeq && e.seq > high {
			high, where = e.seq, fmt.Sprintf("events[%d].seq", e.idx)
		}
	}
	if max < high {
		fd := mtMaxSeq.fire(m, "events_loaded max_seq %d is below %s %d", max, where, high)
		fd.Pointer, fd.Expected, fd.Actual = "/data/max_seq", fmt.Sprintf(">= %d (%s)", high, where), strconv.FormatInt(max, 10)
		c.noteMax(max)
		return []Finding{fd}
	}
	return r.regress(c, m, max)
}

func (r *mitto) loadedHasMore(m *message, data map[string]any, n int) []Finding {
	more, ok := data["has_more"].(bool)
	total, okTotal := jsonx.Int64(data["total_count"])
	if !ok || !okTotal || !more || total > int64(n) {
		return nil
	}
	fd := mtLoadedHasMore.fire(m, "has_more is true although the %d events returned cover total_count %d", n, total)
	fd.Pointer, fd.Expected, fd.Actual = "/data/has_more", "false", "true"
	return []Finding{fd}
}

// pair matches an events_loaded with one outstanding load_events of its
// connection and judges it against that request. Requests carry no id and
// a server may drop one that overlaps another in flight or send an extra
// events_loaded of its own, so the answer is matched with the oldest
// request it is consistent with (preferring the kind that its prepend
// flag names: prepend for before_seq pages); only when it fits none is it
// judged against the oldest of its kind. An events_loaded with no request
// outstanding is unsolicited and judged only on its own content.
func (r *mitto) pair(c *mtConn, m *message, data map[string]any, evs []mtEv) []Finding {
	if len(c.loads) == 0 {
		return nil
	}
	prepend, hasPrepend := data["prepend"].(bool)
	max, hasMax := jsonx.Int64(data["max_seq"])
	kind := func(l mtLoad) bool { return !hasPrepend || prepend == (l.before > 0) }
	fits := func(l mtLoad) bool {
		for _, f := range r.judge(m, l, evs, max, hasMax) {
			if f.Severity == Error {
				return false
			}
		}
		return true
	}
	pick := -1
	for pass := 0; pass < 3 && pick < 0; pass++ {
		for i, l := range c.loads {
			if (pass == 0 && kind(l) && fits(l)) || (pass == 1 && fits(l)) || (pass == 2 && kind(l)) {
				pick = i
				break
			}
		}
	}
	if pick < 0 {
		pick = 0
	}
	l := c.loads[pick]
	c.loads = append(c.loads[:pick:pick], c.loads[pick+1:]...)
	return r.judge(m, l, evs, max, hasMax)
}

// judge applies the request-dependent rules: the limit and the seq range.
func (r *mitto) judge(m *message, l mtLoad, evs []mtEv, max int64, hasMax bool) []Finding {
	var out []Finding
	if n := int64(len(evs)); n > l.limit {
		rule := mtLoadedLimit
		if l.hasAfter {
			rule = mtLoadedSyncLimit
		}
		fd := rule.fire(m, "%d events answer %s, whose limit is %d", n, l.desc, l.limit)
		fd.Pointer, fd.Expected, fd.Actual = "/data/events", fmt.Sprintf("at most %d events", l.limit), fmt.Sprintf("%d events", n)
		fd.Related = []int64{l.frame}
		out = append(out, fd)
	}
	for _, e := range evs {
		if !e.hasSeq {
			continue
		}
		var want string
		switch {
		case l.before > 0 && e.seq >= l.before:
			want = fmt.Sprintf("< %d (before_seq)", l.before)
		case l.hasAfter && e.seq <= l.after && !(hasMax && l.after > max):
			want = fmt.Sprintf("> %d (after_seq)", l.after)
		default:
			continue
		}
		fd := mtLoadedRange.fire(m, "events[%d] has seq %d, outside the range of %s", e.idx, e.seq, l.desc)
		fd.Pointer, fd.Expected, fd.Actual = e.ptr, want, strconv.FormatInt(e.seq, 10)
		fd.Related = []int64{l.frame}
		out = append(out, fd)
		break
	}
	return out
}

// sameStored compares the stored events of an events_loaded with earlier
// deliveries of their seq: the type with any delivery, the whole event
// with earlier stored copies (unless the seq is shared by chunks).
func (r *mitto) sameStored(m *message, evs []mtEv) []Finding {
	count := map[int64]int{}
	for _, e := range evs {
		if e.hasSeq {
			count[e.seq]++
		}
	}
	var out []Finding
	more := 0
	for _, e := range evs {
		if !e.hasSeq || e.seq <= 0 {
			continue
		}
		key := e.seq
		if count[e.seq] > 1 {
			r.multi.put(key, true)
		}
		var fd *Finding
		tv := typeView(e.typ)
		if orig, differs := r.types.compare(key, m, tv); differs {
			f := replayMismatch(mtReplayMismatch, m, orig, fmt.Sprintf("/data/events/%d", e.idx), fmt.Sprintf("seq %d", e.seq))
			fd = &f
		} else if _, shared := r.multi.get(key); !shared {
			v := viewAt(m, "/data/events", e.idx, e.doc, "")
			if orig, differs := r.stored.compare(key, m, v); differs {
				f := replayMismatch(mtReplayMismatch, m, orig, fmt.Sprintf("/data/events/%d", e.idx), fmt.Sprintf("seq %d", e.seq))
				fd = &f
			}
		}
		if fd == nil {
			continue
		}
		if len(out) == mtMaxReplayFindings {
			more++
			continue
		}
		out = append(out, *fd)
	}
	if more > 0 {
		out[len(out)-1].Message += fmt.Sprintf(" (and %d more altered events in this events_loaded)", more)
	}
	return out
}

// --- UI prompts --------------------------------------------------------------

func (r *mitto) announce(m *message, data map[string]any) {
	id, ok := jsonx.String(data["request_id"])
	if !ok {
		return
	}
	r.asks.put(id, &mtAsk{options: mtOptionIDs(data["options"]), state: "open", frame: m.Frame.Index})
}

// mtOptionIDs reads the option ids of a ui_prompt (objects with id) or a
// legacy permission (objects with id, or plain strings).
func mtOptionIDs(v any) []string {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	ids := []string{}
	for _, o := range list {
		if s, ok := o.(string); ok {
			ids = append(ids, s)
		} else if id, ok := jsonx.String(jsonx.FieldOr(o, "id")); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

func (r *mitto) dismiss(m *message, data map[string]any) []Finding {
	id, ok := jsonx.String(data["request_id"])
	if !ok {
		return nil
	}
	if a, known := r.asks.get(id); known {
		a.state, a.frame = "dismissed", m.Frame.Index
		return nil
	}
	if r.asks.evicted { // it may have been announced before the window
		return nil
	}
	fd := mtDismissUnknown.fire(m, "ui_prompt_dismiss for request_id %q, which no ui_prompt or permission announced", id)
	fd.Pointer, fd.Actual = "/data/request_id", strconv.Quote(id)
	fd.Expected = "an announced request_id"
	return []Finding{fd}
}

func (r *mitto) answer(m *message, data map[string]any) []Finding {
	id, ok := jsonx.String(data["request_id"])
	if !ok {
		return nil
	}
	a, known := r.asks.get(id)
	if !known {
		if r.asks.evicted {
			return nil
		}
		fd := mtAnswerUnknown.fire(m, "%s for request_id %q, which no ui_prompt or permission announced", m.Type, id)
		fd.Pointer, fd.Actual = "/data/request_id", strconv.Quote(id)
		fd.Expected = "one of the open request_ids: " + orNone(r.openAsks())
		return []Finding{fd}
	}
	var out []Finding
	if a.state != "open" {
		fd := mtAnswerLate.fire(m, "%s for request_id %q, which was %s at frame %d", m.Type, id, a.state, a.frame)
		fd.Pointer, fd.Expected, fd.Actual = "/data/request_id", "an open prompt", a.state
		fd.Related = []int64{a.frame}
		out = append(out, fd)
	}
	if m.Type == "ui_prompt_answer" {
		out = append(out, mtAnswerOption(m, data, a)...)
	}
	a.state, a.frame = "answered", m.Frame.Index
	return out
}

// mtAnswerOption checks option_id against the prompt's options. An answer
// carrying free_text (an extension some clients send for free-form input)
// is not held to the option list.
func mtAnswerOption(m *message, data map[string]any, a *mtAsk) []Finding {
	opt, ok := jsonx.String(data["option_id"])
	if !ok || a.options == nil || contains(a.options, opt) {
		return nil
	}
	if ft, ok := jsonx.String(data["free_text"]); ok && ft != "" {
		return nil
	}
	fd := mtAnswer.fire(m, "option_id %q is not among the options of request_id %q", opt, jsonx.FieldOr(data, "request_id"))
	fd.Pointer, fd.Actual = "/data/option_id", strconv.Quote(opt)
	fd.Expected = "one of " + orNone(a.options)
	return []Finding{fd}
}

// openAsks lists a few open request_ids for an Expected text.
func (r *mitto) openAsks() []string {
	var ids []string
	for id, a := range r.asks.m {
		if a.state == "open" {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	if len(ids) > 5 {
		ids = append(ids[:5], "…")
	}
	return ids
}

// --- prompts -------------------------------------------------------------------

func (r *mitto) received(m *message, data map[string]any) []Finding {
	id, ok := jsonx.String(data["prompt_id"])
	if !ok {
		return nil
	}
	if _, sent := r.sent.get(id); sent || r.sent.evicted || r.sentAny {
		return nil
	}
	fd := mtPromptReceived.fire(m, "prompt_received for prompt_id %q, which no client of the session sent", id)
	fd.Pointer, fd.Actual = "/data/prompt_id", strconv.Quote(id)
	fd.Expected = "the prompt_id of a prompt a client sent"
	return []Finding{fd}
}

// isMine judges user_prompt.is_mine on a connection whose client_id is
// known (its connected message was seen, so were all its prompts). It
// fires only when two signals agree: the connection did (not) send the
// prompt_id and the sender_id is (not) its client_id. A server that keeps
// a client's id across reconnects, or a retried prompt the server took
// from an earlier connection, thus stays quiet.
func (r *mitto) isMine(c *mtConn, m *message, data map[string]any) []Finding {
	mine, ok := data["is_mine"].(bool)
	if !ok || c.clientID == "" {
		return nil
	}
	sender, _ := jsonx.String(data["sender_id"])
	pid, hasPid := jsonx.String(data["prompt_id"])
	_, sentHere := c.prompts.get(pid)
	sentHere = hasPid && sentHere
	switch {
	case mine && !sentHere && !c.noID && !c.prompts.evicted && sender != c.clientID:
		fd := mtIsMine.fire(m, "is_mine is true for prompt_id %q from sender_id %q, which this connection (client_id %q) did not send", pid, sender, c.clientID)
		fd.Pointer, fd.Expected, fd.Actual = "/data/is_mine", "false", "true"
		return []Finding{fd}
	case !mine && sentHere && sender == c.clientID:
		fd := mtIsMine.fire(m, "is_mine is false for prompt_id %q, which this connection (client_id %q, the sender_id) sent", pid, c.clientID)
		fd.Pointer, fd.Expected, fd.Actual = "/data/is_mine", "true", "false"
		return []Finding{fd}
	}
	return nil
}

// --- values the spec's tables list ---------------------------------------------

// The values the spec's tables list; the tables do not close the types, so
// another value is a value-unlisted warning, not a schema error.
var (
	mtPromptTypes = []string{"yes_no", "options_buttons", "select", "permission", "action_buttons"}
	mtStyles      = []string{"primary", "secondary", "success", "danger"}
	mtStatuses    = []string{"active", "completed", "error"}
	mtEventTypes  = []string{"user_prompt", "agent_message", "agent_thought", "tool_call", "tool_update", "file_read", "file_write", "plan"}
	// mtMaxOptions: "Two-button yes/no question", "(max 4)", "(max 10 options)".
	mtMaxOptions = map[string]int{"yes_no": 2, "options_buttons": 4, "select": 10}
)

// unlistedValue reports a string value outside the values a table lists,
// once per member and value in a session. A value that is not a string is
// the schema's business.
func (r *mitto) unlistedValue(m *message, ptr string, v any, listed []string, table string) []Finding {
	s, ok := v.(string)
	if !ok || contains(listed, s) {
		return nil
	}
	key := m.Type + "\x00" + dialect.GenericPointer(ptr) + "\x00" + s
	if _, seen := r.unlisted.get(key); seen {
		return nil
	}
	r.unlisted.put(key, true)
	fd := mtUnlisted.fire(m, "%s: %s is %q, a value the spec's %s table does not list", m.Type, ptr, s, table)
	fd.Pointer, fd.Expected, fd.Actual = ptr, "one of "+orNone(listed), strconv.Quote(s)
	return []Finding{fd}
}

// uiPromptValues judges a ui_prompt's prompt_type, option count and option
// styles against the Prompt Types and Option Properties tables.
func (r *mitto) uiPromptValues(m *message, data map[string]any) []Finding {
	out := r.unlistedValue(m, "/data/prompt_type", data["prompt_type"], mtPromptTypes, "Prompt Types")
	opts, _ := data["options"].([]any)
	for i, o := range opts {
		if st, ok := jsonx.FieldOr(o, "style").(string); ok {
			out = append(out, r.unlistedValue(m, fmt.Sprintf("/data/options/%d/style", i), st, mtStyles, "Option Properties")...)
		}
	}
	pt, _ := data["prompt_type"].(string)
	max, ok := mtMaxOptions[pt]
	if !ok || len(opts) <= max {
		return out
	}
	key := m.Type + "\x00/data/options\x00" + pt
	if _, seen := r.unlisted.get(key); seen {
		return out
	}
	r.unlisted.put(key, true)
	fd := mtUnlisted.fire(m, "%s: a %s prompt with %d options; the spec's Prompt Types table allows %d", m.Type, pt, len(opts), max)
	fd.Pointer, fd.Expected, fd.Actual = "/data/options", fmt.Sprintf("at most %d options", max), fmt.Sprintf("%d options", len(opts))
	return append(out, fd)
}
