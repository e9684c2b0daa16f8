package check

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// coworker rules: handshake, sessionId, no resumption, model_stream_chunk
// order and capability, ask/approval pairing, and the one-message-at-a-time
// rule. Coworker has one session per connection and no resumption, so every
// piece of state is kept per connection (Frame.Conn): a Session fed the
// frames of several connections never mixes them. Only the sessionIds that
// server_hello announced outlive their connection, so that a server which
// resumes a session on a later connection is named (coworker.no-resumption).
var (
	cwHelloFirst = Rule{ID: "coworker.hello-first", Severity: Error, Evidence: Stated, Dialect: "coworker",
		Requires: []string{"coworker.server-hello.first", "coworker.handshake.server-hello"},
		Spec:     "coworker-v3.md §Handshake Flow; §Server -> Client Events / server_hello: \"First message after connection\"",
		Quote:    `§server_hello: "First message after connection."; §Handshake Flow: "Server creates an AgentSession and immediately sends server_hello with a UUID sessionId"`,
		Summary:  "The first server→client message on a connection is server_hello."}
	cwSessionID = Rule{ID: "coworker.session-id", Severity: Error, Evidence: Stated, Dialect: "coworker",
		Requires: []string{"coworker.handshake.session-id-every", "coworker.client.session-id", "coworker.pong.echoes", "coworker.ping.valid-session"},
		Spec: "coworker-v3.md §Client -> Server Messages: \"Every message (except client_hello) must include sessionId\"; " +
			"§Server -> Client Events: \"All events are JSON with a type and sessionId\"; §ping / §pong",
		Quote: `§Handshake Flow: "immediately sends server_hello with a UUID sessionId", "Client includes sessionId in **every** subsequent message"; ` +
			`§Connection: "One session per connection"; §ping: "Requires a valid sessionId for this connection."; ` +
			`§pong: "The sessionId echoes the incoming ping sessionId."; §Error Reference: unknown_session, "sessionId mismatch for this connection"`,
		Summary: "Every client message but client_hello, and every server event, carries the sessionId the server announced in server_hello on that connection (pong echoes the ping's, which must be that one)."}
	cwNoResumption = Rule{ID: "coworker.no-resumption", Severity: Error, Evidence: Stated, Dialect: "coworker",
		Requires: []string{"coworker.connection.one-session", "coworker.behavior.session-is-connection"},
		Spec: "coworker-v3.md §Connection: \"One session per connection — disconnecting destroys the session; there is no resumption\"; " +
			"§Important Behaviors: \"Session = connection\"; §Handshake Flow: the server \"creates AgentSession\" on connect",
		Quote: `§Connection: "One session per connection — disconnecting destroys the session; there is no resumption"; ` +
			`§Important Behaviors: "Session = connection: disconnecting disposes the session and rejects all pending ask/approval deferreds. There is no reconnection or session resumption."; ` +
			`§Handshake Flow: "Server creates an AgentSession and immediately sends server_hello with a UUID sessionId"`,
		Summary: "A connection's server_hello announces a new session: not a sessionId another connection of the session was given, nor one the client named in its URL (e.g. ?resumeSessionId=). " +
			"On a connection that resumed a session, stream chunks and answers that continue the old connection's turn are not judged again (chunk-index, request-id)."}
	cwChunkIndex = Rule{ID: "coworker.chunk-index", Severity: Error, Evidence: Stated, Dialect: "coworker",
		Requires: []string{"coworker.chunk.index-monotonic"},
		Spec:     "coworker-v3.md §Server -> Client Events / model_stream_chunk: \"index is monotonic (0-based) and preserves original provider emission order within that turnId\"",
		Quote:    `§model_stream_chunk, Ordering and stability guarantees: "index is monotonic (0-based) and preserves original provider emission order within that turnId." (the scope is the turnId: indexes of different turns are never compared)`,
		Summary:  "The first model_stream_chunk of a turnId has index 0, and each later chunk of that turnId has a greater index than the one before (no repeat, no decrease: an index that repeats does not preserve the emission order)."}
	cwChunkGap = Rule{ID: "coworker.chunk-gap", Severity: Warning, Evidence: Interpretation, Dialect: "coworker",
		Requires: []string{"coworker.chunk.index-contiguous"},
		Spec: "coworker-v3.md §Server -> Client Events / model_stream_chunk: \"index is monotonic (0-based)\"; " +
			"interpretation: consecutive indexes; the text says monotonic, not contiguous, so a skipped index is suspicious, not a broken MUST",
		Quote:   `§model_stream_chunk: "index is monotonic (0-based) and preserves original provider emission order within that turnId." (monotonic, not contiguous: that the index counts the chunks is our reading)`,
		Summary: "Each model_stream_chunk of a turnId has the index of the one before plus one (no skipped index)."}
	cwChunkCapability = Rule{ID: "coworker.chunk-capability", Severity: Error, Evidence: Stated, Dialect: "coworker",
		Requires: []string{"coworker.migration.chunk-capability-gated", "coworker.server-hello.chunk-capability"},
		Spec:     "coworker-v3.md §Protocol v3 Migration: model_stream_chunk is \"capability-gated via server_hello.capabilities.modelStreamChunk\"; §server_hello",
		Quote:    `§Protocol v3 Migration: "model_stream_chunk is additive and capability-gated via server_hello.capabilities.modelStreamChunk."; §server_hello: "capabilities.modelStreamChunk === \"v1\" means the server emits structured model_stream_chunk events."`,
		Summary:  "model_stream_chunk is sent only on a connection whose server_hello announced capabilities.modelStreamChunk \"v1\"."}
	cwRequestID = Rule{ID: "coworker.request-id", Severity: Warning, Evidence: Interpretation, Dialect: "coworker",
		Requires: []string{"coworker.behavior.request-id-pairing", "coworker.request.unmatched-reply"},
		Spec: "coworker-v3.md §Important Behaviors: requestId pairing; §ask_response: \"from the ask event\"; §approval_response: \"from the approval event\"; " +
			"interpretation: the spec says what unblocks the agent, not what an answer naming no pending request is",
		Quote:   `§Important Behaviors: "requestId pairing: ask and approval events block the agent until you respond with the matching requestId."; §ask_response: "requestId": "req-ask-001", // from the ask event`,
		Summary: "ask_response names the requestId of an ask, and approval_response that of an approval, that the server sent on the connection."}
	cwRequestDuplicate = Rule{ID: "coworker.request-duplicate", Severity: Warning, Evidence: Interpretation, Dialect: "coworker",
		Requires: []string{"coworker.request.unmatched-reply"},
		Spec:     "coworker-v3.md §Important Behaviors: requestId pairing (one response unblocks the agent); interpretation: the spec is silent on a second response",
		Quote:    `§Important Behaviors: "ask and approval events block the agent until you respond with the matching requestId."`,
		Summary:  "An ask or approval is answered once; a second response to the same requestId is not sent."}
	cwRequestCancelled = Rule{ID: "coworker.request-cancelled", Severity: Warning, Evidence: Interpretation, Dialect: "coworker",
		Requires: []string{"coworker.cancel.rejects-deferreds", "coworker.request.unmatched-reply"},
		Spec:     "coworker-v3.md §cancel: the server \"rejects any pending ask/approval deferreds\"; interpretation: so a client does not answer them afterwards",
		Quote:    `§cancel: "The server aborts the underlying LLM call and rejects any pending ask/approval deferreds."`,
		Summary:  "An ask or approval pending when the client sent cancel is not answered afterwards (it was rejected; a response may race with the cancel, hence a warning)."}
	cwBusy = Rule{ID: "coworker.busy", Severity: Warning, Evidence: Stated, Dialect: "coworker",
		Requires: []string{"coworker.behavior.one-message", "coworker.user-message.one-at-a-time"},
		Spec: "coworker-v3.md §Important Behaviors: \"One message at a time\"; §user_message: \"Only one at a time\"; " +
			"interpretation for execute_command, which \"runs a normal agent turn\"",
		Quote: `§user_message: "**Only one at a time** — sending while the agent is busy returns an error."; §Important Behaviors: "One message at a time"; ` +
			`§execute_command (our reading that it counts too): "runs a normal agent turn with the expanded text"`,
		Summary: "A client does not send user_message or execute_command while the last session_busy said busy: true (it may race with a busy: false in flight, hence a warning)."}
	cwBusyError = Rule{ID: "coworker.busy-error", Severity: Error, Evidence: Stated, Dialect: "coworker",
		Requires: []string{"coworker.user-message.one-at-a-time", "coworker.behavior.one-message"},
		Spec: "coworker-v3.md §user_message: \"sending while the agent is busy returns an error\"; §Important Behaviors; §error code busy; " +
			"the echo is the server's \"confirmation\" that it received (accepted) the message",
		Quote: `§user_message: "**Only one at a time** — sending while the agent is busy returns an error."; ` +
			`§Important Behaviors: "sending user_message while session_busy is true returns \"Agent is busy\""; §user_message (server): "Echo of the received user message (confirmation)."`,
		Summary: "A user_message the client sent while the session was busy (no busy: false since) is answered with an error, not accepted and echoed."}
)

var _ = registerRuleSet("coworker", func(o Options) ruleSet { return newCoworker(o) })

var _ = register(cwHelloFirst, cwSessionID, cwNoResumption, cwChunkIndex, cwChunkGap, cwChunkCapability,
	cwRequestID, cwRequestDuplicate, cwRequestCancelled, cwBusy, cwBusyError)

type coworker struct {
	window int
	conns  map[string]*cwConn
	// announced maps each sessionId a server_hello announced to the
	// connection it was announced on; it outlives the connection (bounded
	// by the window, oldest first).
	announced      map[string]string
	announcedOrder []string
}

// cwConn is the state of one connection, which is one coworker session.
type cwConn struct {
	url       string // the request URL (its query may name a session)
	resumed   bool   // server_hello resumed an earlier session
	sawServer bool   // a server message was seen
	hello     bool   // server_hello was seen
	sessionID string // announced by server_hello ("" if it had none)
	chunkCap  any    // server_hello.capabilities.modelStreamChunk (nil when absent)
	capFired  bool   // chunk-capability reported once per connection

	turns      map[string]int64 // turnId → last index seen
	turnsOrder []string         // turnIds in first-seen order, for eviction
	turnsLost  bool             // some turnIds were forgotten

	reqs     map[string]*cwReq // requestId → ask/approval state
	reqsLost bool              // some requestIds were forgotten

	busy      bool  // the last session_busy said busy: true
	busyFrame int64 // the frame of that session_busy
	awaiting  int   // user_message/execute_command not yet echoed or refused
	expect    *cwExpect
}

type cwReqState int

const (
	cwPending cwReqState = iota
	cwAnswered
	cwCancelled
)

type cwReq struct {
	kind  string // "ask" or "approval"
	state cwReqState
	frame int64 // the frame that announced, answered or cancelled it
}

// cwExpect is a user_message sent while busy whose answer the server owes.
type cwExpect struct {
	frame   int64
	text    string
	cmid    string
	hasCmid bool
}

func newCoworker(opts Options) *coworker {
	return &coworker{window: opts.ReplayWindow, conns: map[string]*cwConn{}, announced: map[string]string{}}
}

func (r *coworker) opened(conn, rawURL string) {
	c := r.newConn()
	c.url = rawURL
	r.conns[conn] = c
}

func (r *coworker) closed(conn string) { delete(r.conns, conn) }

func (r *coworker) newConn() *cwConn {
	return &cwConn{turns: map[string]int64{}, reqs: map[string]*cwReq{}}
}

func (r *coworker) conn(id string) *cwConn {
	c, ok := r.conns[id]
	if !ok {
		c = r.newConn()
		r.conns[id] = c
	}
	return c
}

func (r *coworker) observe(m *message) []Finding {
	c := r.conn(m.Frame.Conn)
	if m.Frame.Dir == wire.ClientToServer {
		return r.client(c, m)
	}
	return r.server(c, m)
}

// ---- client → server ----

func (r *coworker) client(c *cwConn, m *message) []Finding {
	var out []Finding
	if m.Type != "client_hello" {
		out = append(out, c.checkSessionID(m, "client message")...)
	}
	switch m.Type {
	case "user_message", "execute_command":
		out = append(out, c.turnRequest(m)...)
	case "ask_response":
		out = append(out, r.answer(c, m, "ask")...)
	case "approval_response":
		out = append(out, r.answer(c, m, "approval")...)
	case "cancel":
		for _, q := range c.reqs {
			if q.state == cwPending {
				q.state, q.frame = cwCancelled, m.Frame.Index
			}
		}
	}
	return out
}

// checkSessionID compares a message's sessionId with the one server_hello
// announced. Before server_hello nothing can be judged, nor after a
// server_hello without a sessionId (the schema reports that once, on the
// server; judging every later message against "" would blame the client
// for the server's mistake). A missing or non-string sessionId is the
// schema's to report.
func (c *cwConn) checkSessionID(m *message, what string) []Finding {
	if !c.hello || c.sessionID == "" {
		return nil
	}
	got, ok := jsonx.String(m.Doc["sessionId"])
	if !ok || got == c.sessionID {
		return nil
	}
	fd := cwSessionID.fire(m, "%s %s carries sessionId %q, but server_hello announced %q on this connection", what, m.Type, got, c.sessionID)
	if m.Type == "pong" {
		fd.Message += " (pong echoes the ping's sessionId, and a ping must carry the connection's)"
	}
	fd.Pointer, fd.Expected, fd.Actual = "/sessionId", strconv.Quote(c.sessionID), strconv.Quote(got)
	return []Finding{fd}
}

// turnRequest judges a user_message or execute_command against the busy
// state and, for a user_message sent while busy, sets up the expectation
// that the server refuses it.
func (c *cwConn) turnRequest(m *message) []Finding {
	var out []Finding
	if c.busy {
		fd := cwBusy.fire(m, "%s sent while the session is busy (session_busy busy: true at frame %d, no busy: false since)", m.Type, c.busyFrame)
		fd.Pointer = "/type"
		fd.Expected = "session_busy {busy: false} before a new " + m.Type
		fd.Actual = fmt.Sprintf("busy: true since frame %d", c.busyFrame)
		fd.Related = []int64{c.busyFrame}
		out = append(out, fd)
		// Only a user_message with no earlier turn request still waiting
		// for its echo can be paired with the server's answer.
		if m.Type == "user_message" && c.awaiting == 0 && c.expect == nil {
			e := &cwExpect{frame: m.Frame.Index}
			e.text, _ = jsonx.String(m.Doc["text"])
			e.cmid, e.hasCmid = jsonx.String(m.Doc["clientMessageId"])
			c.expect = e
		}
	}
	c.awaiting++
	return out
}

func (r *coworker) answer(c *cwConn, m *message, kind string) []Finding {
	id, ok := jsonx.String(m.Doc["requestId"])
	if !ok {
		return nil
	}
	q, known := c.reqs[id]
	if !known {
		if c.reqsLost || c.resumed {
			// announced perhaps, but beyond the window, or on the
			// connection whose session this one resumed (the server's
			// fault, which coworker.no-resumption names)
			return nil
		}
		fd := cwRequestID.fire(m, "%s names requestId %q, which no %s on this connection announced", m.Type, id, kind)
		fd.Pointer, fd.Actual = "/requestId", strconv.Quote(id)
		fd.Expected = "one of " + orNone(c.pendingIDs(kind))
		return []Finding{fd}
	}
	if q.kind != kind {
		fd := cwRequestID.fire(m, "%s names requestId %q, which belongs to an %s (frame %d), not an %s", m.Type, id, q.kind, q.frame, kind)
		fd.Pointer, fd.Actual = "/requestId", strconv.Quote(id)
		fd.Expected = "one of " + orNone(c.pendingIDs(kind))
		fd.Related = []int64{q.frame}
		return []Finding{fd}
	}
	switch q.state {
	case cwAnswered:
		fd := cwRequestDuplicate.fire(m, "%s for requestId %q, which was already answered (frame %d)", m.Type, id, q.frame)
		fd.Pointer, fd.Expected, fd.Actual = "/requestId", "a pending "+kind+" requestId", strconv.Quote(id)+" (answered)"
		fd.Related = []int64{q.frame}
		return []Finding{fd}
	case cwCancelled:
		fd := cwRequestCancelled.fire(m, "%s for requestId %q after cancel (frame %d) rejected it", m.Type, id, q.frame)
		fd.Pointer, fd.Expected, fd.Actual = "/requestId", "a pending "+kind+" requestId", strconv.Quote(id)+" (rejected by cancel)"
		fd.Related = []int64{q.frame}
		return []Finding{fd}
	}
	q.state, q.frame = cwAnswered, m.Frame.Index
	return nil
}

// pendingIDs lists the requestIds of kind still waiting for an answer.
func (c *cwConn) pendingIDs(kind string) []string {
	set := map[string]bool{}
	for id, q := range c.reqs {
		if q.kind == kind && q.state == cwPending {
			set[id] = true
		}
	}
	return sortedKeys(set)
}

// ---- server → client ----

func (r *coworker) server(c *cwConn, m *message) []Finding {
	var out []Finding
	first := !c.sawServer
	c.sawServer = true
	if first && m.Type != "server_hello" {
		fd := cwHelloFirst.fire(m, "first server message on the connection is %q", m.Type)
		fd.Pointer, fd.Expected, fd.Actual = "/type", `"server_hello"`, strconv.Quote(m.Type)
		out = append(out, fd)
	}
	if m.Type == "server_hello" && !c.hello {
		c.hello = true
		c.sessionID, _ = jsonx.String(m.Doc["sessionId"])
		c.chunkCap, _ = jsonx.Get(m.Doc, "/capabilities/modelStreamChunk")
		return append(out, r.hello(c, m)...)
	}
	out = append(out, c.checkSessionID(m, "server event")...)
	switch m.Type {
	case "model_stream_chunk":
		out = append(out, r.chunk(c, m)...)
	case "ask", "approval":
		if id, ok := jsonx.String(m.Doc["requestId"]); ok {
			r.announce(c, id, m)
		}
	case "session_busy":
		if b, ok := m.Doc["busy"].(bool); ok {
			c.busy, c.busyFrame = b, m.Frame.Index
			if !b {
				c.expect = nil // a busy: false in between makes an echo legitimate
			}
		}
	case "user_message":
		out = append(out, c.echo(m)...)
	case "error":
		if c.awaiting > 0 {
			c.awaiting--
		}
		c.expect = nil // refused as it should be, or an error we cannot attribute
	}
	return out
}

// hello judges a server_hello's sessionId against the sessions announced
// before (coworker.no-resumption): a sessionId another connection was given,
// or one the client named in its URL, is an old session resumed. The
// connection is then marked resumed, so that what continues the old
// connection's turn (a chunk whose index goes on, an answer to an ask
// announced there) is not blamed on this one.
func (r *coworker) hello(c *cwConn, m *message) []Finding {
	sid := c.sessionID
	if sid == "" {
		return nil // the schema reports a missing sessionId
	}
	conn := m.Frame.Conn
	var fd *Finding
	if prev, ok := r.announced[sid]; ok && prev != conn {
		f := cwNoResumption.fire(m, "server_hello announces sessionId %q, which connection %s was given before: the session was resumed, not created", sid, prev)
		fd = &f
	} else if name, ok := urlNames(c.url, sid); ok {
		f := cwNoResumption.fire(m, "server_hello announces sessionId %q, the session the client asked to resume (?%s= in its URL): the session was resumed, not created", sid, name)
		fd = &f
	}
	r.remember(sid, conn)
	if fd == nil {
		return nil
	}
	c.resumed = true
	fd.Pointer, fd.Expected, fd.Actual = "/sessionId", "a new sessionId (one session per connection, no resumption)", strconv.Quote(sid)
	return []Finding{*fd}
}

// urlNames reports the query parameter of rawURL whose value is sid.
func urlNames(rawURL, sid string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", false
	}
	for name, vs := range u.Query() {
		for _, v := range vs {
			if v == sid {
				return name, true
			}
		}
	}
	return "", false
}

// remember records an announced sessionId, forgetting the oldest beyond
// the window.
func (r *coworker) remember(sid, conn string) {
	if _, ok := r.announced[sid]; ok {
		return
	}
	if len(r.announcedOrder) >= r.window {
		delete(r.announced, r.announcedOrder[0])
		r.announcedOrder = append(r.announcedOrder[:0], r.announcedOrder[1:]...)
	}
	r.announced[sid] = conn
	r.announcedOrder = append(r.announcedOrder, sid)
}

func (r *coworker) chunk(c *cwConn, m *message) []Finding {
	var out []Finding
	if c.hello && c.chunkCap != "v1" && !c.capFired {
		c.capFired = true
		fd := cwChunkCapability.fire(m, "model_stream_chunk on a connection whose server_hello did not announce capabilities.modelStreamChunk \"v1\" (reported once per connection)")
		fd.Pointer, fd.Expected = "/type", `server_hello.capabilities.modelStreamChunk "v1"`
		fd.Actual = "absent"
		if c.chunkCap != nil {
			fd.Actual = short(c.chunkCap)
		}
		out = append(out, fd)
	}
	turn, ok1 := jsonx.String(m.Doc["turnId"])
	idx, ok2 := jsonx.Int64(m.Doc["index"])
	if !ok1 || !ok2 || idx < 0 {
		return out // the schema reports a missing or negative index
	}
	last, seen := c.turns[turn]
	switch {
	case !seen && idx != 0 && (c.turnsLost || c.resumed):
		// the turn may be one the window forgot, or one begun on the
		// connection this one resumed (coworker.no-resumption names
		// that): cannot judge
	case !seen && idx != 0:
		fd := cwChunkIndex.fire(m, "first model_stream_chunk of turnId %q has index %d", turn, idx)
		fd.Pointer, fd.Expected, fd.Actual = "/index", "0", strconv.FormatInt(idx, 10)
		out = append(out, fd)
	case seen && idx <= last:
		fd := cwChunkIndex.fire(m, "model_stream_chunk index %d of turnId %q after index %d", idx, turn, last)
		fd.Pointer, fd.Expected, fd.Actual = "/index", strconv.FormatInt(last+1, 10), strconv.FormatInt(idx, 10)
		out = append(out, fd)
		return out // keep the highest index as the reference
	case seen && idx > last+1:
		fd := cwChunkGap.fire(m, "model_stream_chunk index %d of turnId %q follows index %d (skipped %s)", idx, turn, last, skipped(last, idx))
		fd.Pointer, fd.Expected, fd.Actual = "/index", strconv.FormatInt(last+1, 10), strconv.FormatInt(idx, 10)
		out = append(out, fd)
	}
	if !seen {
		r.newTurn(c, turn)
	}
	c.turns[turn] = idx
	return out
}

func skipped(last, idx int64) string {
	if idx-last == 2 {
		return strconv.FormatInt(last+1, 10)
	}
	return fmt.Sprintf("%d..%d", last+1, idx-1)
}

// newTurn remembers a turnId, forgetting the oldest beyond the window.
func (r *coworker) newTurn(c *cwConn, turn string) {
	if len(c.turnsOrder) >= r.window {
		delete(c.turns, c.turnsOrder[0])
		c.turnsOrder = append(c.turnsOrder[:0], c.turnsOrder[1:]...)
		c.turnsLost = true
	}
	c.turnsOrder = append(c.turnsOrder, turn)
}

// announce records an ask/approval, bounding the map by the window: settled
// requests go first, then everything (answers to forgotten ids are then
// not judged).
func (r *coworker) announce(c *cwConn, id string, m *message) {
	if _, ok := c.reqs[id]; !ok && len(c.reqs) >= r.window {
		for k, q := range c.reqs {
			if q.state != cwPending {
				delete(c.reqs, k)
			}
		}
		if len(c.reqs) >= r.window {
			c.reqs = map[string]*cwReq{}
		}
		c.reqsLost = true
	}
	c.reqs[id] = &cwReq{kind: m.Type, state: cwPending, frame: m.Frame.Index}
}

// echo judges a user_message echo against a user_message sent while busy.
func (c *cwConn) echo(m *message) []Finding {
	if c.awaiting > 0 {
		c.awaiting--
	}
	e := c.expect
	if e == nil {
		return nil
	}
	text, _ := jsonx.String(m.Doc["text"])
	cmid, hasCmid := jsonx.String(m.Doc["clientMessageId"])
	same := text == e.text
	if hasCmid && e.hasCmid {
		same = cmid == e.cmid
	}
	if !same {
		return nil // someone else's echo; keep waiting for the answer
	}
	c.expect = nil
	fd := cwBusyError.fire(m, "user_message sent while busy (frame %d) was echoed (accepted) instead of refused with an error", e.frame)
	fd.Pointer = "/type"
	fd.Expected = `error {code: "busy"}`
	fd.Actual = "user_message echo"
	fd.Related = []int64{e.frame}
	return []Finding{fd}
}
