package runner

func init() {
	catchers["coworker"] = map[string][]string{
		"coworker-hello-without-session-id":  {"coworker.connect.server-hello-first", "coworker.ping.pong"},
		"coworker-hello-protocol-2":          {"coworker.connect.server-hello-first"},
		"coworker-settings-before-hello":     {"coworker.connect.server-hello-first", "coworker.connect.session-settings-after-hello"},
		"coworker-pong-foreign-session-id":   {"coworker.ping.pong", "coworker.connect.client-hello-silent"},
		"coworker-chunk-index-repeats":       {"coworker.turn.chunk-index-order"},
		"coworker-chunk-index-skips":         {"coworker.turn.chunk-index-contiguous"},
		"coworker-stream-without-capability": {"coworker.turn.normal-conversation", "coworker.turn.chunk-index-order"},
		"coworker-busy-message-accepted":     {"coworker.busy.user-message-refused"},
		"coworker-error-code-unlisted":       {"coworker.errors.invalid-json", "coworker.errors.unknown-type", "coworker.session-id.unknown"},
		"coworker-reset-answered-as-reset":   {"coworker.session.reset"},
		"coworker-session-resumed":           {"coworker.connect.resume-refused"},
		// an approved command that never runs, or a denied one that runs,
		// is a violation the approval scenarios name by the agent's reply
		"coworker-approval-always-declined": {"coworker.approval.approve"},
		"coworker-approval-denial-ignored":  {"coworker.approval.deny"},
		// "the old sessionId gets no pong" proves nothing when no ping is
		// answered: the reconnect scenarios' control (the new one is) fails
		"coworker-ping-unanswered": {"coworker.connect.no-resumption", "coworker.connect.resume-refused", "coworker.ping.pong"},
		// an agent resumed without the user's answer
		"coworker-ask-answer-ignored": {"coworker.ask.round-trip", "coworker.ask.free-text", "coworker.ask.blocks-agent", "coworker.ask.unknown-request-id",
			"coworker.approval.ask-id-refused"},
	}
	unprovables["coworker"] = map[string][]string{
		// issue 24: errors.reversed-window passed on agent-coworker's
		// "Observability is disabled for this session.", never reaching the
		// window check; its control (a valid query gets status ok) fails
		// (the same control keeps the query and SLO scenarios from passing on
		// an answer that ran nothing)
		"coworker-observability-disabled": {"coworker.errors.reversed-window", "coworker.observability.query",
			"coworker.observability.query-kinds", "coworker.observability.slo-evaluate"},
		// a server that declines every answer passes a denial vacuously:
		// the control (the approved command runs) fails
		"coworker-approval-always-declined": {"coworker.approval.deny"},
		// right codes, but no refusal says what it is about: a code shared
		// by other conditions proves nothing on its own
		"coworker-refusals-name-nothing": {
			"coworker.errors.validation-failed", "coworker.errors.permission-denied", "coworker.errors.provider-error",
			"coworker.errors.backup-error", "coworker.errors.observability-error", "coworker.errors.reversed-window",
			"coworker.errors.internal-error", "coworker.turn.failed-turn-idle", "coworker.session-id.required", "coworker.session-id.required-provider-reads",
			"coworker.session-id.blank", "coworker.commands.execute-unknown", "coworker.skills.read-unknown",
			"coworker.skills.non-global-refused", "coworker.providers.authorize-api-key-method",
			"coworker.providers.unknown-provider", "coworker.backup.delete-unknown",
		},
	}
}
