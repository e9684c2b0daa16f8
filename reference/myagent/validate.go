package myagent

import (
	"errors"
	"regexp"
	"strings"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/reference/server"
)

// Client event types (§All Event Types / User Events).
const (
	inMessage        = "user.message"
	inSolveTasks     = "user.solve_tasks"
	inResponse       = "user.response"
	inCancel         = "user.cancel"
	inCancelTask     = "user.cancel_task"
	inRestartTask    = "user.restart_task"
	inAck            = "user.ack"
	inCreateSession  = "user.create_session"
	inReconnect      = "user.reconnect"
	inReconnectState = "user.reconnect_with_state"
	inRequestState   = "user.request_state"
)

// Limits that keep what one client can make the server hold bounded.
const (
	maxDecodeNesting  = 64
	maxTextInState    = 200
	maxTasksPerSolve  = 20
	maxTranscriptKept = 20
)

// clientEvents lists the user.* events in the spec's order, for the
// UNKNOWN_EVENT error's hint.
var clientEvents = []string{inMessage, inSolveTasks, inResponse, inCancel, inCancelTask, inRestartTask,
	inAck, inCreateSession, inReconnect, inReconnectState, inRequestState}

// timestampRE is ISO 8601 date and time as the schema's Timestamp accepts
// it (with or without offset, 'T' or space).
var timestampRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]+)?)?(Z|z|[+-][0-9]{2}(:?[0-9]{2})?)?$`)

// message is a client event that passed the envelope checks.
type message struct {
	Event     string
	SessionID string
	StepID    string
	doc       map[string]any
}

// parse decodes one client frame and checks the EventProtocol envelope: a
// JSON object with a known event and correctly typed base members.
func parse(in server.Inbound, maxFrame int64) (*message, *protoError) {
	switch {
	case in.Oversize:
		return nil, invalid(codeTooLarge, "message of %d bytes exceeds the limit of %d bytes", in.Size, maxFrame).
			with("size", in.Size).with("max_frame", maxFrame)
	case in.Binary:
		return nil, invalid(codeBinary, "binary frames are not accepted: send each event as a JSON text frame")
	}
	v, _, err := jsonx.Decode(in.Data, maxDecodeNesting)
	if err != nil {
		e := invalid(codeInvalidJSON, "message is not valid JSON: %v", err)
		var se *jsonx.SyntaxError
		if errors.As(err, &se) {
			e.with("offset", se.Offset)
		}
		return nil, e
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return nil, invalid(codeNotObject, "message must be a JSON object (an EventProtocol event)")
	}
	typ, present := doc["event"]
	name, isString := typ.(string)
	switch {
	case !present:
		return nil, invalid(codeMissingEvent, "message has no event member").with("field", "event")
	case !isString || name == "":
		return nil, mistyped("message", "event", "a non-empty string")
	case !knownClientEvent(name):
		return nil, invalid(codeUnknownEvent, "unknown client event %q", name).
			with("event", name).with("known_events", clientEvents)
	}
	m := &message{Event: name, doc: doc}
	if err := m.envelope(); err != nil {
		return nil, err
	}
	return m, nil
}

func knownClientEvent(name string) bool {
	for _, e := range clientEvents {
		if e == name {
			return true
		}
	}
	return false
}

// envelope checks the base members every event may carry.
func (m *message) envelope() *protoError {
	for _, f := range []string{"session_id", "connection_id", "step_id", "show_content"} {
		if v, ok := m.doc[f]; ok {
			if _, isString := v.(string); !isString {
				return mistyped(m.Event, f, "a string")
			}
		}
	}
	m.SessionID, _ = m.doc["session_id"].(string)
	m.StepID, _ = m.doc["step_id"].(string)
	if v, ok := m.doc["timestamp"]; ok {
		if s, isString := v.(string); !isString || !timestampRE.MatchString(s) {
			return mistyped(m.Event, "timestamp", "an ISO 8601 date and time string")
		}
	}
	if v, ok := m.doc["metadata"]; ok {
		if _, isObject := v.(map[string]any); !isObject {
			return mistyped(m.Event, "metadata", "an object")
		}
	}
	if v, ok := m.doc["seq"]; ok {
		if n, isInt := jsonx.Int64(v); !isInt || n < 0 {
			return mistyped(m.Event, "seq", "an integer >= 0")
		}
	}
	if v, ok := m.doc["content"]; ok {
		switch v.(type) {
		case string, map[string]any:
		default:
			return mistyped(m.Event, "content", "a string or an object")
		}
	}
	return nil
}

// seq returns the seq member (already checked by envelope).
func (m *message) seq() (int64, bool) {
	v, ok := m.doc["seq"]
	if !ok {
		return 0, false
	}
	return jsonx.Int64(v)
}

// lastSeq reads last_seq where user.reconnect_with_state may carry it, in
// the order the checker reads it: top level, content, metadata.
func (m *message) lastSeq() (int64, bool, *protoError) {
	for _, p := range []string{"/last_seq", "/content/last_seq", "/metadata/last_seq"} {
		v, ok := jsonx.Get(m.doc, p)
		if !ok {
			continue
		}
		n, isInt := jsonx.Int64(v)
		if !isInt || n < 0 {
			return 0, false, mistyped(m.Event, strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", "."), "an integer >= 0")
		}
		return n, true, nil
	}
	return 0, false, nil
}

// text is the query of user.message: content as a string, or the text,
// query or question member of an object content.
func (m *message) text() (string, *protoError) {
	v, ok := m.doc["content"]
	if !ok {
		return "", missing(m.Event, "content")
	}
	s, isString := v.(string)
	if obj, isObject := v.(map[string]any); isObject {
		for _, k := range []string{"text", "query", "question"} {
			if s, isString = obj[k].(string); isString {
				break
			}
		}
		if !isString {
			return "", mistyped(m.Event, "content", "a string or an object with a text, query or question string")
		}
	}
	if strings.TrimSpace(s) == "" {
		return "", mistyped(m.Event, "content", "a non-empty query")
	}
	return s, nil
}

// taskRef reads the task a user.cancel_task or user.restart_task names:
// task_id at the top level, in content or in metadata (the spec names no
// member), or content as the id itself.
func (m *message) taskRef() (any, *protoError) {
	for _, p := range []string{"/task_id", "/content/task_id", "/metadata/task_id", "/content/task/id"} {
		if v, ok := jsonx.Get(m.doc, p); ok {
			return v, nil
		}
	}
	if s, ok := m.doc["content"].(string); ok && s != "" {
		return s, nil
	}
	return nil, missing(m.Event, "task_id")
}
