package runner

func init() {
	catchers["hostd"] = map[string][]string{
		"hostd-fanout-reorders":        {"hostd.run.lifecycle-fanout", "hostd.run.seq-per-run"},
		"hostd-ack-regresses":          {"hostd.replay.ack-never-regresses"},
		"hostd-ack-ahead":              {"hostd.ack.after-each-event"},
		"hostd-replay-duplicates":      {"hostd.replay.no-duplicate-at-app"},
		"hostd-forward-alters":         {"hostd.run.output-text-unchanged", "hostd.run.lifecycle-fanout"},
		"hostd-input-reforwarded":      {"hostd.input.http-idempotent", "hostd.input.http-idempotent-after-recorded", "hostd.input.ws-idempotent", "hostd.input.idempotent-across-channels"},
		"hostd-ack-no-last-seq":        {"hostd.ack.after-each-event"},
		"hostd-ack-to-apps":            {"hostd.ack.host-only"},
		"hostd-login-refuses-all":      {"hostd.auth.login-returns-token"},
		"hostd-app-refuses-all":        {"hostd.auth.app-with-token-accepted"},
		"hostd-input-endpoint-missing": {"hostd.input.http-forwarded"},
		"hostd-host-refuses-all":       {"hostd.auth.host-accepted"},
	}
	// A refusal proves nothing when the valid request is refused too: the
	// refusal scenarios' controls (a valid login, app connection or input
	// first) or their refusal words make them inconclusive.
	unprovables["hostd"] = map[string][]string{
		"hostd-login-refuses-all": {"hostd.auth.login-wrong-password-refused", "hostd.auth.login-wrong-password-401"},
		"hostd-app-refuses-all":   {"hostd.auth.app-without-token-refused", "hostd.auth.app-bad-token-refused", "hostd.auth.app-host-token-refused"},
		"hostd-input-endpoint-missing": {"hostd.auth.input-without-token-refused", "hostd.auth.input-bad-token-refused",
			"hostd.input.unknown-run-refused", "hostd.input.recorded-by-host-is-duplicate"},
		"hostd-host-refuses-all": {"hostd.auth.host-bad-token-refused", "hostd.auth.host-missing-token-refused",
			"hostd.auth.host-app-token-refused", "hostd.auth.host-missing-host-id-refused"},
	}
}
