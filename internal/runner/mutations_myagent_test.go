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
		// a run-level root cause: the tick decides no scenario's verdict
		// (periodic.go, TestHeartbeatOvertakesPartial)
		"myagent-heartbeat-overtakes-partial": {
			"myagent.cancel.interrupted",
		},
	}
}
