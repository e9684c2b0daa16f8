package runner

import (
	"strings"
	"testing"

	"github.com/wsconform/wsconform/reports"
)

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
		// a server that drops rename_session never refuses an empty name;
		// the renames it should accept pass, but only as not observed
		// (TestMittoRenameIgnoredNotObserved)
		"mitto-rename-ignored":   {"mitto.rename.empty-name"},
		"mitto-answers-declined": {"mitto.uiprompt.permission-allow", "mitto.uiprompt.select"},
	}
	unprovables["mitto"] = map[string][]string{
		// issue 24: "prompt already in progress" is a refusal, but not of
		// the missing prompt_id
		"mitto-prompt-busy": {"mitto.errors.prompt-without-id"},
		// a deny proves nothing on a server that denies everything: the
		// control (an allowed call completes) fails
		"mitto-answers-declined": {"mitto.uiprompt.permission-deny"},
	}
}

// TestMittoRenameIgnoredNotObserved: against a server that ignores
// rename_session (issue 24: both rename scenarios passed on one), the
// scenarios whose rename the server should accept still pass, since
// mitto.md shows a session's name nowhere, but their verdict says the
// rename was not observed: never a plain pass.
func TestMittoRenameIgnoredNotObserved(t *testing.T) {
	t.Parallel()
	ids := []string{"mitto.rename.accepted", "mitto.rename.other-client-unaffected"}
	res := runReference(t, "mitto", []string{"mitto-rename-ignored"}, "@id:"+strings.Join(ids, ",@id:"))
	got := map[string]reports.Scenario{}
	for _, s := range res {
		got[s.ID] = s
	}
	for _, id := range ids {
		s, ok := got[id]
		switch {
		case !ok:
			t.Errorf("scenario %s did not run", id)
		case s.Verdict != reports.Passed || !strings.HasPrefix(s.Reason, NotObservable):
			t.Errorf("%s on a server that ignores rename_session: want a pass that says the effect was not observed, got %s", id, describe(s))
		}
	}
}
