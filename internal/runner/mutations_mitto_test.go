package runner

func init() {
	catchers["mitto"] = map[string][]string{
		"mitto-max-seq-below-seq":        {"mitto.prompt.turn", "mitto.prompt.user-prompt-echo"},
		"mitto-seq-swapped":              {"mitto.prompt.turn", "mitto.prompt.second-client-sees-turn"},
		"mitto-tool-update-twice":        {"mitto.prompt.tool-call-statuses"},
		"mitto-is-mine-inverted":         {"mitto.prompt.user-prompt-mine"},
		"mitto-page-overlaps-before-seq": {"mitto.load.before-seq"},
		"mitto-page-over-limit":          {"mitto.load.limit", "mitto.load.default-limit"},
		"mitto-first-seq-off":            {"mitto.load.initial", "mitto.load.initial-page-bounds"},
		"mitto-loaded-newest-first":      {"mitto.load.initial", "mitto.load.after-seq"},
		"mitto-replay-retyped":           {"mitto.load.tool-events-stored"},
		"mitto-has-more-always":          {"mitto.load.initial-page-bounds", "mitto.load.after-seq-bounds"},
		"mitto-keepalive-max-seq-zero":   {"mitto.keepalive.max-seq", "mitto.sync.gap-after-reconnect"},
		"mitto-prompt-complete-no-count": {"mitto.prompt.turn", "mitto.prompt.second-client-sees-turn"},
		"mitto-dismiss-wrong-id":         {"mitto.uiprompt.dismiss-on-cancel"},
		"mitto-ack-wrong-prompt-id":      {"mitto.prompt.received"},
		// a behaviour the spec allows: only the scenario that skips the
		// opening notices it, as an observation
		"mitto-live-after-load": {"mitto.connect.live-before-load"},
	}
}
