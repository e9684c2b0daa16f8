package main

import (
	"strings"
	"testing"
)

func TestGateExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no dialect", []string{"--", "true"}, exitUsage, "--dialect is required"},
		{"unknown dialect", []string{"--dialect", "nope", "--", "true"}, exitUsage, "unknown dialect"},
		{"no command", []string{"--dialect", "minicodex"}, exitUsage, "no command"},
		{"bad fault", []string{"--dialect", "minicodex", "--fault", "frob=1", "--", "true"}, exitUsage, "frob"},
		{"command not found", []string{"--dialect", "minicodex", "--", "/nonexistent/client"}, exitUsage, "could not be started"},
		{"client that never connects", []string{"--dialect", "minicodex", "--color", "never", "--", "true"}, exitFail, "opened no WebSocket connection"},
		{"client that fails", []string{"--dialect", "minicodex", "--color", "never", "--", "false"}, exitFail, "client command failed"},
		{"the variable reaches the command", []string{"--dialect", "hostd", "--color", "never", "--", "sh", "-c",
			`case "$WSCONFORM_URL $WSCONFORM_HOST_TOKEN" in ws://127.0.0.1:*/ws/app\ demo-host-token) exit 3;; esac`}, exitFail, "exit status 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := wsconform(t, append([]string{"gate"}, tt.args...)...)
			if code != tt.code || !strings.Contains(out+errs, tt.msg) {
				t.Errorf("exit %d (want %d), output lacks %q:\n%s\n%s", code, tt.code, tt.msg, out, errs)
			}
		})
	}
}
