package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"

	"github.com/wsconform/wsconform/reports"
)

// EnvironmentError is the target's environment refusing more work: the
// --session-cmd failed (its server would not make a session), or a
// handshake was answered 503 or 429 (a session or connection limit). No
// scenario after it can say anything about conformance, so the first one
// that meets it is an error with the server's words and the rest of the
// target's scenarios are not run, instead of one error each.
type EnvironmentError struct {
	Why string
}

func (e *EnvironmentError) Error() string {
	return "environment: " + e.Why + " (the target's remaining scenarios were not run; free sessions on the server, or pass --session-cleanup-cmd)"
}

// NotRunAfterEnvironment starts the reason of a scenario not run because
// an earlier one met an EnvironmentError.
const NotRunAfterEnvironment = "not run: an earlier scenario met an environment error: "

// limitStatus says whether a handshake's HTTP status is a server saying it
// has no room (503 Service Unavailable, 429 Too Many Requests).
func limitStatus(resp *http.Response) bool {
	return resp != nil && (resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusTooManyRequests)
}

// limitError turns a 503 or 429 handshake answer into an EnvironmentError
// quoting the server's words (the start of its body).
func limitError(url string, resp *http.Response) *EnvironmentError {
	words := ""
	if resp.Body != nil {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		words = strings.Join(strings.Fields(string(b)), " ")
	}
	why := fmt.Sprintf("%s answered the WebSocket handshake with HTTP %s", url, resp.Status)
	if words != "" {
		why += fmt.Sprintf(": %q", words)
	}
	return &EnvironmentError{Why: why}
}

// halt records the first environment error of a target; later scenarios
// of that target are not run.
func (r *run) halt(t Target, err error) {
	var env *EnvironmentError
	if !errors.As(err, &env) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.halted == nil {
		r.halted = map[string]string{}
	}
	if _, ok := r.halted[t.Name]; !ok {
		r.halted[t.Name] = env.Why
	}
}

// haltedBy is the environment error that stopped the target, "" if none.
func (r *run) haltedBy(t Target) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.halted[t.Name]
}

// notRunAfter is a scenario left out because the target's environment
// refused more work: inconclusive, it proves nothing either way.
func notRunAfter(c *Case, t Target, why string) reports.Scenario {
	s := caseResult(c, t)
	s.Verdict, s.Reason = reports.Inconclusive, NotRunAfterEnvironment+why
	return s
}

// runSessionCleanup runs --session-cleanup-cmd for a session
// --session-cmd made, with its URL in $WSCONFORM_SESSION_URL and as $1
// (and the same WSCONFORM_TARGET, _DIALECT and _SCENARIO as --session-cmd). It
// runs even when the run was stopped, so that sessions do not pile up on
// the server; a failure is a notice, not a verdict.
func (r *run) runSessionCleanup(ctx context.Context, sessionURL, target, dialect, scenario string) {
	if r.opts.SessionCleanupCmd == "" || sessionURL == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sessionCmdTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", r.opts.SessionCleanupCmd, "wsconform-cleanup", sessionURL)
	cmd.Env = append(os.Environ(), "WSCONFORM_SESSION_URL="+sessionURL, "WSCONFORM_TARGET="+target, "WSCONFORM_DIALECT="+dialect, "WSCONFORM_SCENARIO="+scenario)
	if out, err := cmd.CombinedOutput(); err != nil {
		r.notice(fmt.Sprintf("--session-cleanup-cmd for %s (%s): %v: %s", scenario, sessionURL, err, strings.TrimSpace(string(out))))
	}
}
