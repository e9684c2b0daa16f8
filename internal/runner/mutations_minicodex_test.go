package runner

func init() {
	catchers["minicodex"] = map[string][]string{
		"minicodex-event-id-repeats":         {"minicodex.send.turn", "minicodex.send.status-sequence", "minicodex.fanout.events"},
		"minicodex-replay-skips-event":       {"minicodex.resume.replay-after-refresh"},
		"minicodex-replay-alters-payload":    {"minicodex.resume.replay-after-refresh"},
		"minicodex-replay-duplicates":        {"minicodex.resume.replay-after-refresh", "minicodex.resume.caught-up"},
		"minicodex-decision-unknown-call":    {"minicodex.approval.decision-and-state", "minicodex.approval.deny-decision", "minicodex.fanout.approval-conflict-refused"},
		"minicodex-run-status-without-state": {"minicodex.send.turn", "minicodex.send.status-sequence", "minicodex.abort.mid-run"},
		"minicodex-approvals-declined":       {"minicodex.approval.approve"},
		"minicodex-no-replay":                {"minicodex.resume.replay-after-refresh"},
	}
	unprovables["minicodex"] = map[string][]string{
		// a deny proves nothing on a server that declines every answer:
		// the control (an approved call outputs) fails
		"minicodex-approvals-declined": {"minicodex.approval.deny"},
		// BUSY answers a malformed send, but is not about its members:
		// the scenarios that check only that an error with the req_id
		// came (the code is an interpretation of their own) passed on it
		// nothing replayed proves nothing about replaying too much: the
		// control (a resume from an earlier event replays) fails
		"minicodex-no-replay": {"minicodex.resume.caught-up"},
		"minicodex-send-busy": {"minicodex.errors.send-without-text-refused", "minicodex.errors.send-wrong-type-refused", "minicodex.snapshot.refused-command-changes-nothing"},
	}
}
