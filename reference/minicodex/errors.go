package minicodex

import "fmt"

// Error codes. The first eight are the spec's (§Error codes, non-exhaustive);
// the last two are this server's additions where the spec names a situation
// but no code (see doc.go).
const (
	codeInvalidCommand   = "INVALID_COMMAND"
	codeMissingField     = "MISSING_FIELD"
	codeBadArgument      = "BAD_ARGUMENT"
	codeStaleRunID       = "STALE_RUN_ID"
	codeNotRunning       = "NOT_RUNNING"
	codeBusy             = "BUSY"
	codeUnknownCallID    = "UNKNOWN_CALL_ID"
	codeApprovalConflict = "APPROVAL_CONFLICT"
	// codeReplayWindow tells a resuming client that the events it missed
	// left the replay window: it must fetch state with get_snapshot.
	codeReplayWindow = "REPLAY_WINDOW_EXCEEDED"
	// codeRunFailed is the error event of a run that ended in status error.
	codeRunFailed = "RUN_FAILED"
)

// cmdError is a command the server refuses: it becomes an error message
// for the connection that sent it and changes no state (§Semantics: Errors).
type cmdError struct {
	Code    string
	Message string
	Details map[string]any
}

func (e *cmdError) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

func invalid(format string, args ...any) *cmdError {
	return &cmdError{Code: codeInvalidCommand, Message: fmt.Sprintf(format, args...)}
}

func missing(field, cmd string) *cmdError {
	return &cmdError{Code: codeMissingField, Message: fmt.Sprintf("%s needs %s", cmd, field),
		Details: map[string]any{"field": field}}
}

func badArg(field, format string, args ...any) *cmdError {
	return &cmdError{Code: codeBadArgument, Message: fmt.Sprintf(format, args...),
		Details: map[string]any{"field": field}}
}
