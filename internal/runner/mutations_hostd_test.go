package runner

func init() {
	catchers["hostd"] = map[string][]string{
		"hostd-fanout-reorders":   {"hostd.run.lifecycle-fanout", "hostd.run.seq-per-run"},
		"hostd-ack-regresses":     {"hostd.replay.ack-never-regresses"},
		"hostd-ack-ahead":         {"hostd.ack.after-each-event"},
		"hostd-replay-duplicates": {"hostd.replay.no-duplicate-at-app"},
		"hostd-forward-alters":    {"hostd.run.output-text-unchanged", "hostd.run.lifecycle-fanout"},
		"hostd-input-reforwarded": {"hostd.input.http-idempotent", "hostd.input.http-idempotent-after-recorded", "hostd.input.ws-idempotent", "hostd.input.idempotent-across-channels"},
		"hostd-ack-no-last-seq":   {"hostd.ack.after-each-event"},
		"hostd-ack-to-apps":       {"hostd.ack.host-only"},
	}
}
