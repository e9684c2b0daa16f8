package runner

func init() {
	catchers["myagent"] = map[string][]string{
		"myagent-seq-regresses": {
			"myagent.pipeline.full-order", "myagent.pipeline.seq-numbered", "myagent.resume.ack-mid-run",
		},
		"myagent-replay-skips-event": {
			"myagent.resume.replay-completed-run",
		},
		"myagent-replay-alters-payload": {
			"myagent.resume.replay-completed-run",
		},
		"myagent-replay-resends-acknowledged": {
			"myagent.resume.replay-completed-run", "myagent.resume.replay-nothing-missed",
			"myagent.resume.replay-after-refresh",
		},
		"myagent-redelivers-acked-event": {
			"myagent.resume.ack-no-redelivery",
		},
		"myagent-confirm-without-step-id": {
			"myagent.approval.tool-approved", "myagent.approval.wrong-step-id",
			"myagent.cancel.awaiting-confirmation",
		},
		"myagent-timestamp-omitted": {
			"myagent.connect.connected", "myagent.connect.create-session",
		},
		"myagent-connected-not-first": {
			"myagent.connect.connected-first",
		},
		"myagent-final-answer-before-pipeline": {
			"myagent.pipeline.full-order",
		},
		// Issue 24's vacuous passes, faked: a server reading another member
		// declines every tool answer, loses a question's answer, ignores
		// acks. Each is a real violation the effect checks must fail on.
		"myagent-declines-every-answer": {
			"myagent.approval.tool-approved",
		},
		"myagent-question-answer-lost": {
			"myagent.approval.confirm-question", "myagent.approval.question-answered",
		},
		"myagent-ignores-acks": {
			"myagent.resume.ack-no-redelivery", "myagent.resume.ack-mid-run", "myagent.resume.replay-after-ack",
		},
		// a run-level root cause: the tick decides no scenario's verdict
		// (periodic.go, TestHeartbeatOvertakesPartial)
		"myagent-heartbeat-overtakes-partial": {
			"myagent.cancel.interrupted",
		},
	}
	// A target where the effect cannot be shown at all: the scenario's
	// control fails and it proves nothing either way.
	unprovables["myagent"] = map[string][]string{
		// An approved call never runs, so a denied one not running proves
		// nothing (issue 24: tool-denied passed on such a server).
		"myagent-declines-every-answer": {
			"myagent.approval.tool-denied",
		},
		// Every refusal gives the busy reason: the refusal is not about
		// what the scenario sent, so it proves nothing (errors.run-in-progress
		// is about being busy and still passes).
		"myagent-refuses-as-busy": {
			"myagent.errors.invalid-json", "myagent.errors.not-an-object", "myagent.errors.missing-event",
			"myagent.errors.unknown-event", "myagent.errors.server-event-from-client", "myagent.errors.binary-frame",
			"myagent.errors.message-without-content", "myagent.errors.mistyped-seq",
			"myagent.errors.response-without-step-id", "myagent.errors.response-unknown-step",
			"myagent.errors.no-session", "myagent.errors.cancel-idle", "myagent.errors.ack-unsent",
			"myagent.errors.unknown-session", "myagent.errors.last-seq-ahead", "myagent.errors.already-in-session",
			"myagent.approval.wrong-step-id", "myagent.approval.answered-once", "myagent.cancel.awaiting-confirmation",
		},
		// No replay without last_seq: an ack has nothing to change there.
		"myagent-no-replay-without-last-seq": {
			"myagent.resume.ack-no-redelivery", "myagent.resume.ack-mid-run", "myagent.resume.replay-after-ack",
		},
	}
}
