package runner

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"
)

// sessionCmdTimeout bounds one run of --session-cmd.
const sessionCmdTimeout = 30 * time.Second

// sessionSetup is what --session-cmd printed for one scenario: the URL to
// test and headers for its handshakes and HTTP requests.
type sessionSetup struct {
	URL     string
	Headers http.Header
}

// runSessionCmd runs the user's set-up command for one scenario, for
// servers that create a session over HTTP and put its id in the WebSocket
// path, or need a fresh cookie. It runs under sh -c with the target, the
// dialect and the scenario id in the environment, and prints the URL on its
// first line and optional "Key: Value" header lines after it.
func runSessionCmd(ctx context.Context, command, target, dialect, scenario string) (sessionSetup, error) {
	ctx, cancel := context.WithTimeout(ctx, sessionCmdTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Env = append(os.Environ(), "WSCONFORM_TARGET="+target, "WSCONFORM_DIALECT="+dialect, "WSCONFORM_SCENARIO="+scenario)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		// its server would not make a session (a session limit, a server
		// gone): nothing later scenarios can change
		// curl --fail-with-body prints the server's answer on stdout and
		// its own complaint on stderr: both are the server's words
		words := strings.Join(strings.Fields(string(out)+" "+stderr.String()), " ")
		if len(words) > 400 {
			words = words[:400] + "…"
		}
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			words = fmt.Sprintf("no answer within %s", sessionCmdTimeout)
		}
		return sessionSetup{}, &EnvironmentError{Why: fmt.Sprintf("--session-cmd failed (%v): %s", err, words)}
	}
	return parseSessionSetup(out)
}

// parseSessionSetup reads the command's output: a URL, then headers.
func parseSessionSetup(out []byte) (sessionSetup, error) {
	s := sessionSetup{Headers: http.Header{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case s.URL == "":
			if _, err := ParseTargetURL(line); err != nil {
				return s, fmt.Errorf("--session-cmd printed %q first: %w", line, err)
			}
			s.URL = line
		default:
			k, v, ok := strings.Cut(line, ":")
			if !ok || strings.TrimSpace(k) == "" {
				return s, fmt.Errorf("--session-cmd printed %q: header lines are 'Key: Value'", line)
			}
			s.Headers.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
	if s.URL == "" {
		return s, fmt.Errorf("--session-cmd printed no URL")
	}
	return s, nil
}
