package minicodex

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/wsconform/wsconform/reference/server"
)

// Per-session bounds of what the hub remembers besides the replay log.
const (
	// callMemory is how many tool calls a session remembers to answer
	// approve/deny of an old call with APPROVAL_CONFLICT rather than
	// UNKNOWN_CALL_ID.
	callMemory = 256
	// msgIDMemory is how many client_msg_ids a session remembers to ignore
	// a duplicate send.
	msgIDMemory = 256
)

// hub is one session: the server-authoritative state every attached
// connection shares. Its mutex orders everything: an event gets its
// event_id, enters the replay log and is queued to every live client under
// it, so every client sees event ids in order.
type hub struct {
	srv *service
	env *server.Env
	id  string

	mu      sync.Mutex
	lastID  int64
	log     *server.ReplayLog
	clients map[*client]bool // attached connections; true: receives live events
	// batch, while not nil, holds the events broadcast meanwhile (together).
	batch [][]byte
	// runCounter counts the runs ever started; active is the run in
	// progress (nil when idle), last the newest run (for snapshots).
	runCounter int
	active     *run
	last       *run
	calls      *recent[*call]
	msgIDs     *recent[string] // client_msg_id → run_id
	transcript transcript
}

// call is a tool call that asked for approval.
type call struct {
	run      string
	decision string // "" while pending
}

func newHub(s *service, id string) *hub {
	return &hub{
		srv: s, env: s.env, id: id,
		log:     server.NewReplayLog(s.env.ReplayWindow),
		clients: map[*client]bool{},
		calls:   newRecent[*call](callMemory),
		msgIDs:  newRecent[string](msgIDMemory),
	}
}

// idle reports whether nothing holds the session: no connection, no run.
// h.mu held.
func (h *hub) idle() bool { return len(h.clients) == 0 && h.active == nil }

// emit assigns the next event_id, logs the event and queues it to every
// live client. h.mu held.
func (h *hub) emit(build func(id int64, ts string) any) []byte {
	id := h.lastID + 1
	data, err := server.Marshal(build(id, h.env.Stamp()))
	if err != nil {
		h.env.Log.Error("minicodex: event not sent", "session", h.id, "err", err)
		return nil
	}
	h.lastID = id
	h.log.Append(id, data)
	h.broadcast(data)
	return data
}

// broadcast queues the same bytes to every live client, or holds them
// while a batch is open (see together). h.mu held.
func (h *hub) broadcast(data []byte) {
	if h.batch != nil {
		h.batch = append(h.batch, data)
		return
	}
	for c, live := range h.clients {
		if live {
			_ = c.conn.SendRaw(data)
		}
	}
}

// together broadcasts what f emits back to back on every live connection:
// a client that pings after the first sees the answer after the last.
// h.mu held.
func (h *hub) together(f func()) {
	h.batch = [][]byte{}
	f()
	batch := h.batch
	h.batch = nil
	if len(batch) == 0 {
		return
	}
	for c, live := range h.clients {
		if live {
			_ = c.conn.SendAll(batch...)
		}
	}
}

// sessionState is the SessionState model now. h.mu held.
func (h *hub) sessionState() sessionState {
	st := sessionState{SessionID: h.id, Version: protocolVersion, Capabilities: capabilities, RunCounter: h.runCounter}
	if h.lastID > 0 {
		id := h.lastID
		st.LastEventID = &id
	}
	if h.active != nil {
		id := h.active.id
		st.ActiveRunID = &id
	}
	return st
}

func (h *hub) welcome(reqID string) welcomeMsg {
	return welcomeMsg{Type: "welcome", V: protocolVersion, ReqID: reqID, TS: h.env.Stamp(), SessionState: h.sessionState()}
}

// snapshot is the full state: the session, the newest run and, when asked,
// the transcript window. Its event_id is the session's last event, which it
// covers. h.mu held.
func (h *hub) snapshot(reqID string, withTranscript bool) snapshotMsg {
	m := snapshotMsg{Type: "snapshot", V: protocolVersion, ReqID: reqID, TS: h.env.Stamp(),
		SessionState: h.sessionState(), Transcript: []item{}, EventID: h.lastID}
	if h.last != nil {
		m.RunState = h.last.state()
	}
	if withTranscript {
		m.Transcript = h.transcript.list()
	}
	return m
}

// hello makes c a live client: welcome, then a snapshot with the transcript
// window (what a fresh load needs), then every new event.
func (h *hub) hello(c *client, reqID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	_ = c.conn.Send(h.welcome(reqID))
	_ = c.conn.Send(h.snapshot("", true))
	h.clients[c] = true
}

// resume answers welcome and replays the events after last_seen_event_id
// from the replay log, byte for byte, then makes c live. When some of them
// left the window it says REPLAY_WINDOW_EXCEEDED instead and keeps c off
// live events until it fetches a snapshot, so c never sees an event past a
// gap it cannot fill.
func (h *hub) resume(c *client, cmd command) *cmdError {
	h.mu.Lock()
	defer h.mu.Unlock()
	if cmd.LastSeen < 0 || cmd.LastSeen > h.lastID {
		e := badArg("last_seen_event_id", "last_seen_event_id %d is outside the session's events 0..%d", cmd.LastSeen, h.lastID)
		e.Details["last_event_id"] = h.lastID
		return e
	}
	entries, complete := h.log.After(cmd.LastSeen)
	_ = c.conn.Send(h.welcome(cmd.ReqID))
	if !complete || len(entries) > h.srv.replayMax() {
		_ = c.conn.Send(h.windowExceeded(cmd))
		h.clients[c] = false
		return nil
	}
	for _, data := range h.replay(cmd.LastSeen, entries) {
		_ = c.conn.SendRaw(data)
	}
	h.clients[c] = true
	return nil
}

func (h *hub) windowExceeded(cmd command) errorMsg {
	oldest := h.lastID + 1
	if all, _ := h.log.After(0); len(all) > 0 {
		oldest = all[0].ID
	}
	return errorMsg{Type: "error", Code: codeReplayWindow, ReqID: cmd.ReqID,
		Message: "the events after last_seen_event_id are no longer all in the replay window: send get_snapshot",
		Details: map[string]any{
			"action": "get_snapshot", "last_seen_event_id": cmd.LastSeen,
			"oldest_event_id": oldest, "last_event_id": h.lastID,
		}}
}

// replay is what a resume re-sends: the logged bytes, unless a replay
// mutation is on. h.mu held.
func (h *hub) replay(from int64, entries []server.Entry) [][]byte {
	out := make([][]byte, 0, len(entries)+1)
	if h.srv.has(mutNoReplay) {
		return out
	}
	if h.srv.has(mutReplayDuplicates) && from > 0 {
		if prev, _ := h.log.After(from - 1); len(prev) > 0 && prev[0].ID == from {
			out = append(out, prev[0].Data)
		}
	}
	for i, e := range entries {
		data := e.Data
		switch {
		case i == 0 && h.srv.has(mutReplaySkips):
			continue
		case i == 0 && h.srv.has(mutReplayAlters):
			data = altered(data)
		}
		out = append(out, data)
	}
	return out
}

// altered changes an event's ts (mutation minicodex-replay-alters-payload).
func altered(data []byte) []byte {
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return data
	}
	m["ts"] = "1970-01-01T00:00:00.000Z"
	b, err := server.Marshal(m)
	if err != nil {
		return data
	}
	return b
}

// getSnapshot answers a snapshot and makes c live if it was waiting for
// one after REPLAY_WINDOW_EXCEEDED.
func (h *hub) getSnapshot(c *client, cmd command) *cmdError {
	h.mu.Lock()
	defer h.mu.Unlock()
	_ = c.conn.Send(h.snapshot(cmd.ReqID, cmd.WithWindow))
	h.clients[c] = true
	return nil
}

// send starts a run, unless the client_msg_id was seen (then it only
// acknowledges again) or a run is active (BUSY).
func (h *hub) send(c *client, cmd command) *cmdError {
	if strings.TrimSpace(cmd.Text) == "" {
		return badArg("text", "text is empty")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if cmd.ClientMsgID != "" {
		if runID, seen := h.msgIDs.get(cmd.ClientMsgID); seen {
			_ = c.conn.Send(acceptedMsg{Type: "accepted", ReqID: cmd.ReqID, RunID: runID})
			return nil
		}
	}
	if h.active != nil {
		return &cmdError{Code: codeBusy, Message: "a run is already active: wait for it to finish or abort it",
			Details: map[string]any{"active_run_id": h.active.id}}
	}
	r := h.startRun(cmd)
	_ = c.conn.Send(acceptedMsg{Type: "accepted", ReqID: cmd.ReqID, RunID: r.id})
	h.setStatus(r, "starting")
	h.emitRun(r, func(id int64, ts string) any {
		return textEvt{Type: "user_text", Text: cmd.Text, ClientMsgID: cmd.ClientMsgID, RunID: r.id, EventID: id, TS: ts}
	})
	h.transcript.add(item{kind: "user_text", run: r.id, text: cmd.Text})
	h.env.Go(func(ctx context.Context) { h.drive(ctx, r) })
	return nil
}

// approve takes approve or deny of a pending call. Approvals are serialized
// by the hub: the first decision wins, a later one is APPROVAL_CONFLICT.
func (h *hub) approve(c *client, cmd command) *cmdError {
	h.mu.Lock()
	defer h.mu.Unlock()
	cl, known := h.calls.get(cmd.CallID)
	if !known {
		return &cmdError{Code: codeUnknownCallID, Message: "no approval_pending announced call_id " + strconv.Quote(cmd.CallID),
			Details: map[string]any{"call_id": cmd.CallID}}
	}
	r := h.active
	if cl.decision != "" || r == nil || r.id != cl.run {
		return &cmdError{Code: codeApprovalConflict, Message: "call_id " + strconv.Quote(cmd.CallID) + " is already decided",
			Details: map[string]any{"call_id": cmd.CallID, "decision": cl.decision}}
	}
	_ = c.conn.Send(acceptedMsg{Type: "accepted", ReqID: cmd.ReqID, RunID: r.id})
	decision := "approve"
	if cmd.Type == "deny" || h.srv.has(mutApprovalsDeclined) {
		decision = "deny_continue"
	}
	h.decide(r, cmd.CallID, decision)
	return nil
}

// abort stops the active run: aborting now, pending approvals decided
// deny_abort, and the run goroutine ends it with finished.
func (h *hub) abort(c *client, cmd command) *cmdError {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.active
	if r == nil {
		return &cmdError{Code: codeNotRunning, Message: "no run is active"}
	}
	if cmd.HasRunID && cmd.RunID != r.id {
		return &cmdError{Code: codeStaleRunID, Message: "run_id " + strconv.Quote(cmd.RunID) + " is not the active run",
			Details: map[string]any{"run_id": cmd.RunID, "active_run_id": r.id}}
	}
	_ = c.conn.Send(acceptedMsg{Type: "accepted", ReqID: cmd.ReqID, RunID: r.id})
	if r.aborting {
		return nil
	}
	r.aborting = true
	h.setStatus(r, "aborting")
	for _, p := range append([]approvalBrief(nil), r.pending...) {
		h.decide(r, p.CallID, "deny_abort")
	}
	close(r.abort)
	return nil
}

// attach adds c as a client that does not receive events yet. h.mu held
// by the caller or h not yet shared.
func (h *hub) attach(c *client) {
	h.clients[c] = false
}

// detach removes c.
func (h *hub) detach(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.clients, c)
}
