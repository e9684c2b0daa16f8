package replay

// Knowledge is what replay must know of a dialect beyond its schemas: which
// members differ between two runs of the same session by nature, which
// values the server mints anew, and which client members name a position
// in the server's stream.
type Knowledge struct {
	// Volatile are mask patterns (see ParseMask) of members that differ
	// between runs by nature (timestamps, model text); diffs ignore them.
	Volatile []string
	// IDs are member names whose string values a peer mints (session,
	// run, request, call ids). Besides these, any member whose name ends
	// in "id", "Id" or "ID" is one. A replay learns the new value of a
	// recorded id from the new answers and substitutes it in later client
	// frames; a diff accepts a different id when it is used consistently.
	IDs []string
	// Cursors are mask patterns of client members that name a server
	// ordering value (minicodex resume.last_seen_event_id): a replay maps
	// them through the ordering values it learned, so that a resume asks
	// the new server for what the recorded one was asked for.
	Cursors []string
	// Timed are server message types sent on a timer, not as an answer
	// (heartbeats): a replay never waits for them and diffs leave them out.
	Timed []string
	// Tokens are member names whose whole value (any JSON) the server
	// mints and the client hands back as it got it (myagent's serialized
	// state, which reconnect_with_state returns): a replay learns the new
	// value from the aligned answer and puts it in place of the recorded
	// one in later client frames. Diffs ignore them (they are volatile).
	Tokens []string
	// ClientTimed are client message types a UI sends on a timer or
	// whenever it has read enough (pings, keepalives, acks): how many a
	// client sends, and where, depends on timing, so serve --replay never
	// compares them with the recording (the check engine still judges
	// them).
	ClientTimed []string
}

// IsClientTimed reports whether typ is one of ClientTimed.
func (k Knowledge) IsClientTimed(typ string) bool {
	for _, t := range k.ClientTimed {
		if t == typ {
			return true
		}
	}
	return false
}

// knowledge is the table of the five dialects, from their specs.
var knowledge = map[string]Knowledge{
	"minicodex": {
		// session_state/last_event_id is the session's newest event when
		// the handshake was answered: a run goes on while the tab is gone
		// (§Handshake & resume), so how far it got by the resume is timing,
		// not behaviour. The replayed delta itself is compared.
		Volatile: []string{"ts", "started_at", "finished_at", "assistant_text:/text", "assistant_text:/delta", "reasoning:/text", "reasoning:/delta",
			"welcome:/session_state/last_event_id"},
		IDs:     []string{"session_id", "run_id", "req_id", "call_id", "client_msg_id", "active_run_id"},
		Cursors: []string{"resume:/last_seen_event_id"},
		Timed:   []string{"heartbeat", "backpressure"},
		// ClientTimed: the spec's ping is the client's keepalive.
		ClientTimed: []string{"ping"},
	},
	"hostd": {
		Volatile: []string{"ts"},
		IDs:      []string{"host_id", "run_id", "input_id"},
	},
	"myagent": {
		// Tokens: agent.state_exported carries the "Serialized state"
		// (§All Event Types) that user.reconnect_with_state hands back;
		// myagent signs it (metadata.signed_state). metrics are the
		// server process's counters since it started.
		Tokens:   []string{"signed_state"},
		Volatile: []string{"timestamp", "signed_state", "metrics", "created_at", "agent.thinking:/content", "agent.partial_answer:/content", "agent.final_answer:/content"},
		IDs:      []string{"session_id", "step_id", "connection_id"},
		Cursors:  []string{"user.reconnect_with_state:/last_seq", "user.reconnect_with_state:/content/last_seq", "user.reconnect_with_state:/metadata/last_seq", "user.ack:/seq", "user.ack:/content/seq"},
		Timed:    []string{"system.heartbeat"},
		// ClientTimed: real clients ack what they have read in batches.
		ClientTimed: []string{"user.ack"},
	},
	"mitto": {
		Volatile:    []string{"server_time", "client_time", "agent_message:/data/text", "agent_thought:/data/text"},
		IDs:         []string{"session_id", "request_id", "prompt_id", "client_id", "sender_id", "option_id", "last_user_prompt_id", "id"},
		Cursors:     []string{"load_events:/data/after_seq", "load_events:/data/before_seq"},
		Timed:       []string{"keepalive_ack"},
		ClientTimed: []string{"keepalive"},
	},
	"coworker": {
		// The directories name the server's machine (its working,
		// output and backup folders), not the protocol.
		Volatile:    []string{"createdAt", "updatedAt", "checkedAt", "workingDirectory", "outputDirectory", "backupDirectory", "model_stream_chunk:/part", "model_stream_chunk:/rawPart", "assistant_message:/text", "reasoning:/text"},
		IDs:         []string{"sessionId", "requestId", "turnId", "runId", "taskId", "checkpointId", "clientMessageId", "id"},
		ClientTimed: []string{"ping"},
	},
}

// KnowledgeOf returns the replay knowledge of a dialect (empty for one the
// table does not know: every member is then compared as is, apart from
// id-like names).
func KnowledgeOf(dialect string) Knowledge {
	if k, ok := knowledge[dialect]; ok {
		return k
	}
	return definedKnowledge(dialect)
}
