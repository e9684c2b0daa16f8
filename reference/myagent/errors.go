package myagent

import "fmt"

// Error codes carried in metadata.error_code of the error events. The spec
// names the events (error.validation "input validation fails", ...) but no
// codes; these are the reference server's, listed in doc.go.
const (
	codeBinary          = "BINARY_FRAME"
	codeTooLarge        = "FRAME_TOO_LARGE"
	codeInvalidJSON     = "INVALID_JSON"
	codeNotObject       = "NOT_AN_OBJECT"
	codeMissingEvent    = "MISSING_EVENT"
	codeUnknownEvent    = "UNKNOWN_EVENT"
	codeMissingField    = "MISSING_FIELD"
	codeInvalidField    = "INVALID_FIELD"
	codeNoSession       = "NO_SESSION"
	codeSessionNotFound = "SESSION_NOT_FOUND"
	codeSessionMismatch = "SESSION_MISMATCH"
	codeInSession       = "ALREADY_IN_SESSION"
	codeRunInProgress   = "RUN_IN_PROGRESS"
	codeNoActiveRun     = "NO_ACTIVE_RUN"
	codeUnknownStep     = "UNKNOWN_STEP_ID"
	codeStepClosed      = "STEP_CLOSED"
	codeUnknownTask     = "UNKNOWN_TASK"
	codeTaskState       = "TASK_STATE"
	codeAckUnsent       = "ACK_UNSENT"
	codeSeqAhead        = "LAST_SEQ_AHEAD"
	codeReplayGone      = "REPLAY_UNAVAILABLE"
	codeCoercion        = "TASK_COERCION_FAILED"
	codeTimeout         = "CONFIRMATION_TIMEOUT"
	codeExecution       = "EXECUTION_FAILED"
)

// protoError is a client message the server refuses: it becomes one error
// event for the sending connection (error.validation unless kind says
// otherwise); the connection and the session stay as they were.
type protoError struct {
	kind string // event type; "" means error.validation
	code string
	msg  string
	meta map[string]any
}

func (e *protoError) Error() string { return e.code + ": " + e.msg }

// invalid builds an error.validation refusal.
func invalid(code, format string, args ...any) *protoError {
	return &protoError{code: code, msg: fmt.Sprintf(format, args...)}
}

// with adds a metadata member and returns e, for chaining.
func (e *protoError) with(key string, v any) *protoError {
	if e.meta == nil {
		e.meta = map[string]any{}
	}
	e.meta[key] = v
	return e
}

// missing is error.validation for an absent required member.
func missing(evType, field string) *protoError {
	return invalid(codeMissingField, "%s requires %s", evType, field).with("field", field)
}

// mistyped is error.validation for a member of the wrong type or value.
func mistyped(evType, field, want string) *protoError {
	return invalid(codeInvalidField, "%s: %s must be %s", evType, field, want).with("field", field).with("expected", want)
}

// event renders the refusal for the connection that caused it.
func (e *protoError) event(received string) *event {
	kind := e.kind
	if kind == "" {
		kind = evValidation
	}
	meta := map[string]any{"error_code": e.code}
	for k, v := range e.meta {
		meta[k] = v
	}
	if received != "" {
		meta["received_event"] = received
	}
	return &event{Event: kind, Content: e.msg, Metadata: meta, ShowContent: showContent(kind)}
}
