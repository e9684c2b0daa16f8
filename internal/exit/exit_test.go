package exit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestCode(t *testing.T) {
	t.Parallel()
	topic := func(error) string { return "run " }
	tests := []struct {
		name string
		err  error
		code int
		out  string
	}{
		{"nil", nil, OK, ""},
		{"usage", UsageErr("run: bad %s", "flag"), Usage, "prog: run: bad flag\nRun 'prog run --help' for usage.\n"},
		{"harness", HarnessErr(errors.New("dial: refused")), Harness, "prog: dial: refused\n"},
		{"failed, already printed", Failed, Fail, ""},
		{"wrapped", fmt.Errorf("outer: %w", &Error{Code: Fail}), Fail, ""},
		{"interrupted", context.Canceled, Interrupted, "prog: interrupted\n"},
		{"interrupted, with what was left", InterruptedErr(errors.New("replay: interrupted at step 3 of 9")), Interrupted, "prog: replay: interrupted at step 3 of 9\n"},
		{"other", errors.New("boom"), Harness, "prog: boom\n"},
		// What the network put in an error text is escaped and redacted.
		{"close reason", HarnessErr(errors.New("websocket: close 1008: \x1b]0;x\a\x1b[2J\nPASS\u202e")), Harness,
			`prog: websocket: close 1008: \x1b]0;x\x07\x1b[2J\nPASS\u202e` + "\n"},
		{"token", errors.New("dial ws://h/ws?token=abcdef123456: refused"), Harness, "prog: dial ws://h/ws?token=redacted(12): refused\n"},
		// The tool's own list of errors is one line each.
		{"joined", HarnessErr(errors.Join(errors.New("write a.json: denied"), fmt.Errorf("serve: %w", errors.New("x\ny")))), Harness,
			"prog: write a.json: denied\nprog: serve: x\\ny\n"},
		{"several %w is one text", fmt.Errorf("a: %w, b: %w", errors.New("1"), errors.New("2")), Harness, "prog: a: 1, b: 2\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if got := Code(tt.err, &b, "prog", topic); got != tt.code || b.String() != tt.out {
			t.Errorf("%s: code %d, output %q; want %d, %q", tt.name, got, b.String(), tt.code, tt.out)
		}
	}
}
