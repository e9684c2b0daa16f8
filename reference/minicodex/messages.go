package minicodex

import (
	"encoding/json"
)

// protocolVersion is the version this server speaks (welcome.v,
// snapshot.v, SessionState.version).
const protocolVersion = "1.0.0"

// capabilities are the session capabilities the server announces: it
// streams reasoning, asks for approvals and replays on resume.
var capabilities = []string{"reasoning", "approvals", "replay"}

// Wire shapes of the server's messages. Struct field order is the order on
// the wire, so the same state always marshals to the same bytes. Members
// that the Pydantic model defaults (capabilities, run_counter,
// pending_approvals, args, transcript) are always present, and every event
// carries event_id, so both the Pydantic and the TypeScript reading accept
// each message (see doc.go).

type sessionState struct {
	SessionID    string   `json:"session_id"`
	Version      string   `json:"version"`
	Capabilities []string `json:"capabilities"`
	LastEventID  *int64   `json:"last_event_id"`
	ActiveRunID  *string  `json:"active_run_id"`
	RunCounter   int      `json:"run_counter"`
}

type approvalBrief struct {
	CallID  string         `json:"call_id"`
	ToolKey string         `json:"tool_key"`
	Args    map[string]any `json:"args"`
}

// runState never carries transcript_window: the Pydantic RunState forbids
// it; the window travels in snapshot.transcript instead.
type runState struct {
	RunID            string          `json:"run_id"`
	Status           string          `json:"status"`
	StartedAt        string          `json:"started_at"`
	FinishedAt       *string         `json:"finished_at"`
	PendingApprovals []approvalBrief `json:"pending_approvals"`
	LastEventID      *int64          `json:"last_event_id"`
}

type welcomeMsg struct {
	Type         string       `json:"type"`
	V            string       `json:"v"`
	ReqID        string       `json:"req_id,omitempty"`
	TS           string       `json:"ts"`
	SessionState sessionState `json:"session_state"`
}

type snapshotMsg struct {
	Type         string       `json:"type"`
	V            string       `json:"v"`
	ReqID        string       `json:"req_id,omitempty"`
	TS           string       `json:"ts"`
	SessionState sessionState `json:"session_state"`
	RunState     *runState    `json:"run_state"`
	Transcript   []item       `json:"transcript"`
	EventID      int64        `json:"event_id"`
}

type acceptedMsg struct {
	Type  string `json:"type"`
	ReqID string `json:"req_id,omitempty"`
	RunID string `json:"run_id,omitempty"`
}

// errorMsg answers a refused command (no event_id) or, with an event_id,
// is the logged RUN_FAILED event of a run.
type errorMsg struct {
	Type    string         `json:"type"`
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
	ReqID   string         `json:"req_id,omitempty"`
	RunID   string         `json:"run_id,omitempty"`
	EventID int64          `json:"event_id,omitempty"`
	TS      string         `json:"ts,omitempty"`
}

type heartbeatMsg struct {
	Type       string `json:"type"`
	IntervalMS int64  `json:"interval_ms"`
}

type backpressureMsg struct {
	Type  string `json:"type"`
	State string `json:"state"`
}

// Events: logged with an event_id and fanned out to every client of the
// session.

type runStatusEvt struct {
	Type    string `json:"type"`
	RunID   string `json:"run_id"`
	EventID int64  `json:"event_id"`
	TS      string `json:"ts"`
	// RunState is only ever nil under the run-status-without-state
	// mutation.
	RunState *runState `json:"run_state,omitempty"`
}

// textEvt is user_text, assistant_text and reasoning.
type textEvt struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	ClientMsgID string `json:"client_msg_id,omitempty"`
	RunID       string `json:"run_id"`
	EventID     int64  `json:"event_id"`
	TS          string `json:"ts"`
}

type toolCallEvt struct {
	Type    string         `json:"type"`
	Name    string         `json:"name"`
	Args    map[string]any `json:"args"`
	CallID  string         `json:"call_id"`
	RunID   string         `json:"run_id"`
	EventID int64          `json:"event_id"`
	TS      string         `json:"ts"`
}

// outputEvt carries the tool result both ways the spec describes it:
// result (Pydantic, a CallToolResult object) and output (TypeScript, text).
type outputEvt struct {
	Type    string         `json:"type"`
	CallID  string         `json:"call_id"`
	Result  map[string]any `json:"result"`
	Output  string         `json:"output"`
	RunID   string         `json:"run_id"`
	EventID int64          `json:"event_id"`
	TS      string         `json:"ts"`
}

type approvalPendingEvt struct {
	Type     string `json:"type"`
	CallID   string `json:"call_id"`
	ToolKey  string `json:"tool_key"`
	ArgsJSON string `json:"args_json"`
	RunID    string `json:"run_id"`
	EventID  int64  `json:"event_id"`
	TS       string `json:"ts"`
}

type approvalDecisionEvt struct {
	Type     string `json:"type"`
	CallID   string `json:"call_id"`
	Decision string `json:"decision"`
	RunID    string `json:"run_id"`
	EventID  int64  `json:"event_id"`
	TS       string `json:"ts"`
}

type turnDoneEvt struct {
	Type    string `json:"type"`
	RunID   string `json:"run_id"`
	EventID int64  `json:"event_id"`
	TS      string `json:"ts"`
}

// toolResult is the serialized MCP CallToolResult of a tool's output text.
func toolResult(output string) map[string]any {
	return map[string]any{
		"content": []any{map[string]any{"type": "text", "text": output}},
		"isError": false,
	}
}

// argsJSON is a tool's arguments as the JSON text approval_pending carries.
func argsJSON(args map[string]any) string {
	b, err := json.Marshal(args)
	if err != nil {
		return "{}"
	}
	return string(b)
}
