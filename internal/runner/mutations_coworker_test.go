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
	}
}
