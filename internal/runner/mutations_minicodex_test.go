package runner

func init() {
	catchers["minicodex"] = map[string][]string{
		"minicodex-event-id-repeats":         {"minicodex.send.turn", "minicodex.send.status-sequence", "minicodex.fanout.events"},
		"minicodex-replay-skips-event":       {"minicodex.resume.replay-after-refresh"},
		"minicodex-replay-alters-payload":    {"minicodex.resume.replay-after-refresh"},
		"minicodex-replay-duplicates":        {"minicodex.resume.replay-after-refresh", "minicodex.resume.caught-up"},
		"minicodex-decision-unknown-call":    {"minicodex.approval.decision-and-state", "minicodex.approval.deny-decision", "minicodex.fanout.approval-conflict-refused"},
		"minicodex-run-status-without-state": {"minicodex.send.turn", "minicodex.send.status-sequence", "minicodex.abort.mid-run"},
	}
}
