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
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if got := Code(tt.err, &b, "prog", topic); got != tt.code || b.String() != tt.out {
			t.Errorf("%s: code %d, output %q; want %d, %q", tt.name, got, b.String(), tt.code, tt.out)
		}
	}
}
