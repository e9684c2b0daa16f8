package runner

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/features"
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

// TestMittoRealRefusals: the real mitto server's refusal texts
// (inercia/mitto internal/web/session_ws.go) are judged as a spec-reading
// client would: its on-topic refusals name what the scenario tests, its
// refusals about its own state are another reason (defaults and
// features/mitto/client.json), so a real server is neither passed
// vacuously nor made inconclusive where it refused for the right reason.
func TestMittoRealRefusals(t *testing.T) {
	t.Parallel()
	spec, err := loadClientSpec(features.FS, "mitto")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		id, message string
		named       bool
	}{
		{"mitto.errors.invalid-json", "Invalid message format", true},
		{"mitto.errors.binary-frame", "Invalid message format", true},
		{"mitto.errors.bad-limit", "Invalid message data", true},
		{"mitto.errors.missing-envelope-data", "Invalid message data", true},
		{"mitto.load.exclusive-params", "before_seq and after_seq are mutually exclusive", true},
		{"mitto.errors.prompt-without-id", "Failed to send prompt: prompt already in progress", false},
		{"mitto.errors.prompt-without-id", "The AI agent for this conversation is not connected. It may still be starting up — please wait a moment and try again.", false},
		{"mitto.uiprompt.answer-unknown-request", "Session not running", false},
		{"mitto.cancel.idle", "Session not running", false},
		{"mitto.rename.empty-name", "unknown message type \"rename_session\"", false},
	}
	for _, c := range cases {
		t.Run(c.id+"/"+c.message, func(t *testing.T) {
			t.Parallel()
			words := refusalWords(t, "mitto", c.id)
			doc := map[string]any{"type": "error", "data": map[string]any{"message": c.message, "prompt_id": ""}}
			named, other := aboutWhat(refusalText(doc), words, spec.refusals)
			switch {
			case named != c.named:
				t.Errorf("%q against %v: named %v, want %v", c.message, words, named, c.named)
			case !c.named && other == "":
				t.Errorf("%q against %v: not named, and no other reason recognised (the verdict would say it names nothing)", c.message, words)
			}
		})
	}
}

// refusalWords reads the words of a scenario's "the refusal names one of"
// step from the embedded features.
func refusalWords(t *testing.T, dialect, id string) []string {
	t.Helper()
	files, err := fs.Glob(features.FS, dialect+"/*.feature")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		raw, err := fs.ReadFile(features.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(raw)
		at := strings.Index(text, "@id:"+id+"\n")
		if at < 0 {
			at = strings.Index(text, "@id:"+id+" ")
		}
		if at < 0 {
			continue
		}
		body := text[at+1:]
		if end := strings.Index(body, "\n  @id:"); end >= 0 {
			body = body[:end]
		}
		for _, line := range strings.Split(body, "\n") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "And the refusal names one of "); ok {
				var words []string
				for _, m := range quotedWord.FindAllStringSubmatch(rest, -1) {
					words = append(words, m[1])
				}
				return words
			}
		}
		t.Fatalf("scenario %s has no refusal step", id)
	}
	t.Fatalf("no scenario %s in %s", id, dialect)
	return nil
}
