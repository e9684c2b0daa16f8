package check

import (
	"strings"
	"testing"
)

// TestUnreadable: a part of a recording that cannot be read is an error
// finding of recording.unreadable that says where and why, with the words
// of the input contract it rests on.
func TestUnreadable(t *testing.T) {
	t.Parallel()
	f := Unreadable("line 7", "not a recording line: unexpected EOF")
	noteFired([]Finding{f})
	if f.Rule != "recording.unreadable" || f.Severity != Error || f.Evidence != Stated {
		t.Fatalf("finding %+v", f)
	}
	if !strings.Contains(f.Message, "line 7") || !strings.Contains(f.Message, "unexpected EOF") {
		t.Errorf("message %q does not say where and why", f.Message)
	}
	r, ok := Lookup(f.Rule)
	if !ok || checkPolicy(r) != nil || !strings.Contains(r.Quote, "JSON Lines, one frame per line") {
		t.Errorf("rule %+v: %v", r, checkPolicy(r))
	}
}
