package coworker

// Wire shapes of the server→client events (coworker-v3.md §Server -> Client
// Events). Typed structs, so members always go out in the spec's order and a
// misspelt member is a compile error, not a schema finding.

// Error codes (coworker-v3.md §error, §Error Reference).
const (
	codeInvalidJSON        = "invalid_json"
	codeInvalidPayload     = "invalid_payload"
	codeMissingType        = "missing_type"
	codeUnknownType        = "unknown_type"
	codeUnknownSession     = "unknown_session"
	codeBusy               = "busy"
	codeValidationFailed   = "validation_failed"
	codePermissionDenied   = "permission_denied"
	codeProviderError      = "provider_error"
	codeBackupError        = "backup_error"
	codeObservabilityError = "observability_error"
	codeInternalError      = "internal_error"
)

// Error sources: the subsystem that refused (coworker-v3.md §Error Reference).
const (
	srcProtocol      = "protocol"
	srcSession       = "session"
	srcTool          = "tool"
	srcProvider      = "provider"
	srcBackup        = "backup"
	srcObservability = "observability"
	srcPermissions   = "permissions"
)

// protocolVersion is the value server_hello announces (§Protocol v3 Migration).
const protocolVersion = "3.0"

// busyMessage is the spec's own text for the busy error (§Important Behaviors).
const busyMessage = "Agent is busy"

// head is what every event starts with: "All events are JSON with a type
// and sessionId". sessionId is omitempty only so the mutation that drops it
// from server_hello can; a session id is never empty otherwise.
type head struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionId,omitempty"`
}

type configSubset struct {
	Provider         string `json:"provider"`
	Model            string `json:"model"`
	WorkingDirectory string `json:"workingDirectory"`
	OutputDirectory  string `json:"outputDirectory"`
}

type capabilities struct {
	ModelStreamChunk string `json:"modelStreamChunk,omitempty"`
}

type serverHello struct {
	head
	ProtocolVersion string       `json:"protocolVersion"`
	Capabilities    capabilities `json:"capabilities"`
	Config          configSubset `json:"config"`
}

type sessionSettings struct {
	head
	EnableMcp bool `json:"enableMcp"`
}

type sessionBusy struct {
	head
	Busy bool `json:"busy"`
}

type userMessageEcho struct {
	head
	Text            string `json:"text"`
	ClientMessageID string `json:"clientMessageId,omitempty"`
}

type streamChunk struct {
	head
	TurnID   string `json:"turnId"`
	Index    int64  `json:"index"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	PartType string `json:"partType"`
	Part     part   `json:"part"`
}

// part is a model_stream_chunk part: a JSON object whose members the
// partType table fixes; a map marshals with sorted keys, so it is stable.
type part map[string]any

type assistantMessage struct {
	head
	Text string `json:"text"`
}

type reasoningEvent struct {
	head
	Kind string `json:"kind"`
	Text string `json:"text"`
}

type logEvent struct {
	head
	Line string `json:"line"`
}

type todoItem struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

type todosEvent struct {
	head
	Todos []todoItem `json:"todos"`
}

type askEvent struct {
	head
	RequestID string   `json:"requestId"`
	Question  string   `json:"question"`
	Options   []string `json:"options,omitempty"`
}

type approvalEvent struct {
	head
	RequestID  string `json:"requestId"`
	Command    string `json:"command"`
	Dangerous  bool   `json:"dangerous"`
	ReasonCode string `json:"reasonCode"`
}

type configUpdated struct {
	head
	Config configSubset `json:"config"`
}

type errorEvent struct {
	head
	Message string `json:"message"`
	Code    string `json:"code"`
	Source  string `json:"source"`
}
