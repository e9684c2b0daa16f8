package mitto

import "fmt"

// Error codes of error{message, code}. mitto.md lists the error message
// with an optional code but names no codes; these are the reference
// server's (see doc.go for when each is sent).
const (
	codeInvalidJSON    = "invalid_json"
	codeBinary         = "binary_not_supported"
	codeTooLarge       = "message_too_large"
	codeInvalidMessage = "invalid_message"
	codeUnknownType    = "unknown_type"
	codeConflicting    = "conflicting_params"
	codeUnknownRequest = "unknown_request"
	codeInvalidOption  = "invalid_option"
	codeNotPrompting   = "not_prompting"
	codeQueueFull      = "queue_full"
	codeAgentError     = "agent_error"
)

// wireError is a client mistake answered with an error message; the
// connection and the session stay as they were.
type wireError struct {
	code string
	msg  string
}

func (e *wireError) Error() string { return e.code + ": " + e.msg }

func errf(code, format string, args ...any) *wireError {
	return &wireError{code: code, msg: fmt.Sprintf(format, args...)}
}

// errorFrame is error{message, code} (mitto.md §Backend → Frontend
// Messages).
func errorFrame(e *wireError) obj {
	return envelope("error", obj{{"message", e.msg}, {"code", e.code}})
}
