package runner

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// NotObservable starts the reason of a passed scenario whose effect the
// protocol gives no way to observe: the pass shows only what its steps
// checked, and the report says which effect stayed unseen.
const NotObservable = "passed without observing the effect: "

var quotedWord = regexp.MustCompile(`"([^"]*)"`)

// stepRefusalNames checks that the refusal "its" refers to is about the
// thing the scenario tested: its text names one of the words (case,
// spaces, underscores and hyphens ignored, so "prompt_id" also finds
// "promptId" and "prompt id"). A refusal for another reason (busy, a
// disabled feature, an unknown session: refusal.go and the dialect's
// client.json) or one that names nothing the scenario is about proves
// nothing: the scenario is inconclusive, with the server's words.
func stepRefusalNames(ctx context.Context, list string) error {
	w := worldOf(ctx)
	if w.lastDesc == "" {
		return harnessf("\"the refusal names\" needs a refusal (a message or HTTP response) received before")
	}
	var words []string
	for _, m := range quotedWord.FindAllStringSubmatch(list, -1) {
		words = append(words, m[1])
	}
	if len(words) == 0 {
		return harnessf("\"the refusal names\" needs one or more quoted words, got %s", list)
	}
	w.aboutFrame(w.lastIndex)
	text := refusalText(w.last)
	if w.lastIndex == 0 && w.status != 0 {
		text = fmt.Sprintf("HTTP %d | %s", w.status, text)
	}
	var others []refusalSpec
	if w.spec != nil {
		others = w.spec.refusals
	}
	named, other := aboutWhat(text, words, others)
	switch {
	case named:
		return nil
	case other != "":
		return unprovablef("the server refused for another reason: %s (%s said %q)", other, w.lastDesc, clipText(text))
	default:
		return unprovablef("the refusal names none of %s, so it may be about something else (%s said %q)", strings.Join(words, ", "), w.lastDesc, clipText(text))
	}
}

// stepNotObservable records that the effect a scenario is about cannot be
// observed over the protocol (the spec defines no message that shows it):
// the scenario still checks what it can, and its pass says what it did not
// see.
func stepNotObservable(ctx context.Context, why string) error {
	w := worldOf(ctx)
	w.unobserved = append(w.unobserved, why)
	return nil
}

// clipText keeps a server's words short enough for a verdict's reason.
func clipText(s string) string {
	const max = 200
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}
