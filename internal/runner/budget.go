package runner

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// tagTimeout sets a scenario's time budget: "@timeout:150s".
const tagTimeout = "@timeout:"

// The budget of a scenario is the cap on all of it (Timeouts.Scenario,
// 60 s): a last guard against a hang, after which the scenario is a
// harness error. @timeout:D replaces it for one scenario, and
// --timeout-scale multiplies it as it does every other wait. It sets the
// budget, it does not scale the scenario's waits: a heartbeat scenario's
// one long wait ("receives "system.heartbeat" within 70s") is written in
// its step, and its other waits (system.connected within the default
// 5 s, "stays connected for 100ms") keep what they say instead of
// loosening with it. The catalog checks that each wait a step writes fits
// in the budget, so that a long wait never ends as a harness error.

// parseBudget reads a @timeout tag's duration.
func parseBudget(tag string) (time.Duration, error) {
	v := strings.TrimPrefix(tag, tagTimeout)
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s: write a positive duration, as @timeout:75s or @timeout:2m", tag)
	}
	return d, nil
}

// stepWindow finds the duration a step's text writes: "within 70s",
// "for 500ms", "I wait 2s".
var stepWindow = regexp.MustCompile(`(?:\bwithin|\bfor|^I wait) (\d\S*)`)

// checkBudget says which written wait of the scenario does not fit in
// its budget (the @timeout, else def), or "".
func (c *Case) checkBudget(def time.Duration) string {
	budget := def
	if c.Timeout > 0 {
		budget = c.Timeout
	}
	for _, st := range c.pickle.Steps {
		m := stepWindow.FindStringSubmatch(st.Text)
		if m == nil {
			continue
		}
		d, err := time.ParseDuration(m[1])
		if err != nil || d < budget {
			continue // a bad duration is the step's own harness error
		}
		return fmt.Sprintf("step %q waits %s, which does not fit in the scenario's budget of %s: tag it %s<more>", st.Text, d, budget, tagTimeout)
	}
	return ""
}

// budget is how long the scenario may take in all, scaled.
func (w *World) budget() time.Duration {
	d := w.to.Scenario
	if w.sc != nil && w.sc.c.Timeout > 0 {
		d = w.sc.c.Timeout
	}
	return w.to.scaled(d)
}
