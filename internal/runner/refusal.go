package runner

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// A refusal proves a requirement only when it is about the thing the
// scenario tested: "prompt already in progress" answering a prompt without
// its id is a refusal, but of something else (issue 24: it passed a
// scenario on a server that never looked at the id). These are the reasons
// a server refuses that are about its state or setup rather than the
// message's content; a dialect adds its own in client.json
// ("other_refusals").
var defaultOtherRefusals = []refusalSpec{
	{Match: `already (in progress|running|prompting|processing|active)|\bbusy\b|another (prompt|turn|run|request) is|in progress`, Why: "the session was busy with another request"},
	{Match: `\bdisabled\b|not enabled|not configured|\bunavailable\b|not available`, Why: "the feature is disabled or unavailable on the target"},
	{Match: `(unknown|no such|invalid|missing) session|session (was )?(not found|does not exist|unknown|expired|closed)`, Why: "the target did not know the session"},
	{Match: `not (supported|implemented)|\bunsupported\b|unknown (message )?type|unrecogni[sz]ed (message|type)|unknown (command|method|action)`, Why: "the target does not support the message at all"},
	{Match: `rate.?limit|too many requests|\bquota\b|session limit|too many sessions`, Why: "the target hit a limit"},
	{Match: `unauthori[sz]ed|not authenticated|authentication required|\bforbidden\b|not logged in`, Why: "the target refused the client's credentials"},
	{Match: `api.?key|no model|model .*not (found|available)`, Why: "the target's model is not set up"},
}

// refusalSpec is one other reason to refuse: a regular expression over
// the refusal's text (lower case) and the reason in words.
type refusalSpec struct {
	Match string `json:"match"`
	Why   string `json:"why"`
	re    *regexp.Regexp
}

// compileRefusals compiles the default reasons and a dialect's own.
func compileRefusals(extra []refusalSpec) ([]refusalSpec, error) {
	all := append(append([]refusalSpec(nil), extra...), defaultOtherRefusals...)
	for i := range all {
		re, err := regexp.Compile("(?i)" + all[i].Match)
		if err != nil {
			return nil, fmt.Errorf("other_refusals %q: %w", all[i].Match, err)
		}
		all[i].re = re
	}
	return all, nil
}

// refusalText is every string, number and boolean a refusal holds, in a
// stable order, joined: what a person reads to learn why it was refused.
func refusalText(doc any) string {
	var parts []string
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 8 || len(parts) > 64 {
			return
		}
		switch t := v.(type) {
		case string:
			parts = append(parts, t)
		case float64:
			parts = append(parts, strconv.FormatFloat(t, 'f', -1, 64))
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(t[k], depth+1)
			}
		case []any:
			for _, x := range t {
				walk(x, depth+1)
			}
		}
	}
	walk(doc, 0)
	return strings.Join(parts, " | ")
}

// squash folds case and drops separators, so that "prompt_id",
// "prompt id", "promptId" and "prompt-id" read the same.
func squash(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// aboutWhat says whether a refusal's text names one of words, and if not,
// which other reason it gives ("" when it names none of them either).
func aboutWhat(text string, words []string, others []refusalSpec) (named bool, other string) {
	flat := squash(text)
	for _, w := range words {
		if sw := squash(w); sw != "" && strings.Contains(flat, sw) {
			return true, ""
		}
	}
	for _, o := range others {
		if o.re != nil && o.re.MatchString(text) {
			return false, o.Why
		}
	}
	return false, ""
}

// typeIs says whether a message of type got is what a receive step awaits:
// want, or one of its alternatives ("error|observability_query_result").
// A refusal may come in either of two forms a spec allows (an error event,
// or the request's own answer with a failed status, as coworker's
// observability_query_result has), and a scenario that then checks the
// refusal's reason must accept both without picking one server's form.
func typeIs(got, want string) bool {
	for _, alt := range strings.Split(want, "|") {
		if got == strings.TrimSpace(alt) {
			return true
		}
	}
	return false
}
