package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

const mcRun = `{"run_id":"3f1c2a9e-8b7d-4c6e-9f00-123456789abc","status":"%s","started_at":"2026-11-21T10:00:00Z","pending_approvals":[]}`

func mcStatus(status string, eid int) string {
	return fmt.Sprintf(`{"type":"run_status","run_state":`+mcRun+`,"event_id":%d}`, status, eid)
}

func mcText(text string, eid int) string {
	return fmt.Sprintf(`{"type":"assistant_text","text":%q,"event_id":%d}`, text, eid)
}

const (
	mcHello   = `{"type":"hello","v":"1.0.0","client_capabilities":["approvals"]}`
	mcWelcome = `{"type":"welcome","v":"1.0.0","session_state":{"session_id":"s1","version":"1.0.0","capabilities":["replay"],"last_event_id":null,"active_run_id":null,"run_counter":0}}`
)

func mcResume(n int) string { return fmt.Sprintf(`{"type":"resume","last_seen_event_id":%d}`, n) }

// mcThree is a first connection that saw events 1..3.
var mcThree = []step{
	c2s("c1", mcHello), s2c("c1", mcWelcome),
	c2s("c1", `{"type":"send","text":"hi"}`),
	s2c("c1", mcStatus("running", 1)), s2c("c1", mcText("hel", 2)), s2c("c1", mcText("lo", 3)),
	closeConn("c1"),
}

func then(base []step, more ...step) []step { return append(append([]step(nil), base...), more...) }

func TestMinicodexRules(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "minicodex", []ruleCase{
		{name: "clean run", steps: []step{
			c2s("c1", mcHello), s2c("c1", mcWelcome),
			c2s("c1", `{"type":"send","text":"hi","client_msg_id":"m1"}`),
			s2c("c1", `{"type":"accepted"}`),
			s2c("c1", mcStatus("running", 1)), s2c("c1", `{"type":"user_text","text":"hi","event_id":2}`),
			s2c("c1", mcText("hello", 3)), s2c("c1", mcStatus("finished", 4)),
			s2c("c1", `{"type":"turn_done","event_id":5}`),
			s2c("c1", `{"type":"heartbeat","interval_ms":15000}`),
		}},
		{name: "event_id repeats", want: []string{"minicodex.event-id-order"},
			steps: then(mcThree[:6], s2c("c1", mcText("lo", 3)))},
		{name: "event_id goes backwards", want: []string{"minicodex.event-id-order"},
			steps: then(mcThree[:6], s2c("c1", mcText("x", 0)))},
		{name: "event_id may skip numbers", steps: then(mcThree[:6], s2c("c1", mcText("!", 10)))},
		{name: "resume from the last event seen", steps: then(mcThree, c2s("c2", mcResume(3)))},
		{name: "resume from an earlier event", steps: then(mcThree, c2s("c2", mcResume(0)))},
		{name: "resume from an event never delivered", want: []string{"minicodex.resume-unseen"},
			steps: then(mcThree, c2s("c2", mcResume(4)))},
		{name: "resume before any event was seen (a recording that starts late)", steps: []step{c2s("c1", mcResume(57))}},
		{name: "resume from a snapshot's event_id", steps: then(mcThree,
			c2s("c2", mcHello), s2c("c2", mcWelcome),
			s2c("c2", `{"type":"snapshot","v":"1.0.0","session_state":{"session_id":"s1","version":"1.0.0","capabilities":[],"last_event_id":9,"active_run_id":null,"run_counter":1},"run_state":null,"transcript":[],"event_id":9}`),
			closeConn("c2"), c2s("c3", mcResume(9)))},
		{name: "resume replays the delta", steps: then(mcThree,
			c2s("c2", mcResume(1)), s2c("c2", mcText("hel", 2)), s2c("c2", mcText("lo", 3)), s2c("c2", mcText("!", 4)))},
		{name: "resume replay alters an event", want: []string{"minicodex.replay-mismatch"}, steps: then(mcThree,
			c2s("c2", mcResume(1)), s2c("c2", mcText("hel", 2)), s2c("c2", mcText("LO", 3)))},
		{name: "resume replay skips an event", want: []string{"minicodex.replay-gap"}, steps: then(mcThree,
			c2s("c2", mcResume(1)), s2c("c2", mcText("lo", 3)))},
		{name: "resume replays what the client had", want: []string{"minicodex.replay-duplicate"}, steps: then(mcThree,
			c2s("c2", mcResume(2)), s2c("c2", mcText("hel", 2)), s2c("c2", mcText("lo", 3)))},
		{name: "resume answered by a snapshot covering the gap", steps: then(mcThree,
			c2s("c2", mcResume(1)),
			s2c("c2", `{"type":"snapshot","v":"1.0.0","session_state":{"session_id":"s1","version":"1.0.0","capabilities":[],"run_counter":1},"run_state":null,"transcript":[],"event_id":3}`),
			s2c("c2", mcText("!", 4)))},
		{name: "fan-out copies are identical", steps: []step{
			c2s("a", mcHello), c2s("b", mcHello), s2c("a", mcText("x", 1)), s2c("b", mcText("x", 1))}},
		{name: "fan-out copy differs", want: []string{"minicodex.replay-mismatch"}, steps: []step{
			c2s("a", mcHello), c2s("b", mcHello), s2c("a", mcText("x", 1)), s2c("b", mcText("y", 1))}},
		{name: "key order does not matter", steps: []step{
			c2s("a", mcHello), s2c("a", `{"type":"assistant_text","text":"x","event_id":1}`),
			s2c("b", `{"event_id":1,"text":"x","type":"assistant_text"}`)}},
		{name: "first message is not hello", want: []string{"minicodex.handshake-first"}, steps: []step{
			c2s("c1", `{"type":"send","text":"hi"}`)}},
		{name: "approve a pending call", steps: []step{
			c2s("c1", mcHello), s2c("c1", mcStatus("running", 1)),
			s2c("c1", `{"type":"approval_pending","call_id":"call_1","tool_key":"server_tool","args_json":"{}","event_id":2}`),
			c2s("c1", `{"type":"approve","call_id":"call_1"}`),
			s2c("c1", `{"type":"approval_decision","call_id":"call_1","decision":"approve","event_id":3}`),
			s2c("c1", `{"type":"function_call_output","call_id":"call_1","result":{"content":[]},"output":"ok","event_id":4}`),
		}},
		{name: "approve an unknown call", want: []string{"minicodex.approve-unknown-call"}, steps: []step{
			c2s("c1", mcHello), c2s("c1", `{"type":"deny","call_id":"nope"}`)}},
		{name: "approve an already decided call", want: []string{"minicodex.approve-not-pending"}, steps: []step{
			c2s("c1", mcHello),
			s2c("c1", `{"type":"approval_pending","call_id":"call_1","tool_key":"t","event_id":1}`),
			s2c("c1", `{"type":"approval_decision","call_id":"call_1","decision":"deny_continue","event_id":2}`),
			c2s("c1", `{"type":"approve","call_id":"call_1"}`)}},
		{name: "pending approvals learnt from run_state", steps: []step{
			c2s("c1", mcHello),
			s2c("c1", `{"type":"run_status","run_state":{"run_id":"3f1c2a9e-8b7d-4c6e-9f00-123456789abc","status":"awaiting_approval","started_at":"2026-11-21T10:00:00Z","pending_approvals":[{"call_id":"c9","tool_key":"t","args":{}}]},"event_id":1}`),
			c2s("c1", `{"type":"approve","call_id":"c9"}`)}},
		{name: "decision for an unknown call", want: []string{"minicodex.decision-unknown-call"}, steps: []step{
			c2s("c1", mcHello), s2c("c1", `{"type":"approval_decision","call_id":"x","decision":"approve","event_id":1}`)}},
		{name: "abort while idle", want: []string{"minicodex.abort-not-running"}, steps: []step{
			c2s("c1", mcHello), s2c("c1", mcWelcome), c2s("c1", `{"type":"abort"}`)}},
		{name: "abort mid-run", steps: []step{
			c2s("c1", mcHello), s2c("c1", mcStatus("running", 1)), c2s("c1", `{"type":"abort"}`),
			s2c("c1", mcStatus("aborting", 2)), s2c("c1", mcStatus("finished", 3))}},
	})
}

func TestMinicodexReplayMismatchShowsDiff(t *testing.T) {
	t.Parallel()
	fs := feed(t, "minicodex", then(mcThree,
		c2s("c2", mcResume(2)), s2c("c2", `{"type":"assistant_text","event_id":3,"text":"LO"}`)))
	f := findOne(t, fs, "minicodex.replay-mismatch")
	if !strings.Contains(f.Diff, `- /text: "lo"`) || !strings.Contains(f.Diff, `+ /text: "LO"`) {
		t.Errorf("diff does not show the altered member:\n%s", f.Diff)
	}
	if len(f.Related) != 1 || f.Related[0] != 5 {
		t.Errorf("related = %v, want the original frame 5", f.Related)
	}
}

// TestMinicodexForgettingNeverAccuses checks the bounded memory: once old
// call ids are forgotten, approving one of them is not reported as unknown.
func TestMinicodexForgettingNeverAccuses(t *testing.T) {
	t.Parallel()
	s := NewSession(dialect.MustGet("minicodex"), Options{ReplayWindow: 4})
	var fs []Finding
	obs := func(dir wire.Direction, payload string) {
		fs = append(fs, s.Observe(wire.Frame{Conn: "c1", Dir: dir, Op: wire.OpText, Payload: []byte(payload)})...)
	}
	obs(wire.ClientToServer, mcHello)
	for i := 1; i <= 10; i++ {
		obs(wire.ServerToClient, fmt.Sprintf(`{"type":"approval_pending","call_id":"call_%d","tool_key":"t","event_id":%d}`, i, 2*i))
		obs(wire.ServerToClient, fmt.Sprintf(`{"type":"approval_decision","call_id":"call_%d","decision":"approve","event_id":%d}`, i, 2*i+1))
	}
	obs(wire.ClientToServer, `{"type":"approve","call_id":"call_1"}`)
	for _, f := range fs {
		if f.Severity == Error {
			t.Errorf("bounded memory produced an error: %s", f)
		}
	}
}

func TestCloseFrames(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "minicodex", []ruleCase{
		{name: "server frames after the client's close belong to the connection", steps: then(mcThree[:6],
			closeFrame("c1", wire.ClientToServer), s2c("c1", mcText("!", 4)), closeFrame("c1", wire.ServerToClient))},
		{name: "a data frame after the sender's own close", want: []string{"frame.after-close"}, steps: then(mcThree[:6],
			closeFrame("c1", wire.ServerToClient), s2c("c1", mcText("!", 4)))},
		{name: "a client command after its close", want: []string{"frame.after-close"}, steps: then(mcThree[:6],
			closeFrame("c1", wire.ClientToServer), c2s("c1", `{"type":"ping"}`))},
		{name: "both closes end the connection; its id may start afresh", steps: then(mcThree[:6],
			closeFrame("c1", wire.ClientToServer), closeFrame("c1", wire.ServerToClient),
			c2s("c1", mcHello), s2c("c1", mcWelcome), s2c("c1", mcText("hel", 2)))},
	})
}

// TestMinicodexEvidence pins each rule's evidence and severity (DESIGN.md,
// the evidence policy): only what the spec states fails a peer.
func TestMinicodexEvidence(t *testing.T) {
	t.Parallel()
	want := map[string]struct {
		ev  Evidence
		sev Severity
	}{
		"minicodex.event-id-order":        {Stated, Error},
		"minicodex.replay-mismatch":       {Stated, Error},
		"minicodex.replay-gap":            {Stated, Error},
		"minicodex.replay-duplicate":      {Stated, Error},
		"minicodex.resume-unseen":         {Stated, Error},
		"minicodex.handshake-first":       {Shown, Warning},
		"minicodex.approve-unknown-call":  {Shown, Warning},
		"minicodex.approve-not-pending":   {Shown, Warning},
		"minicodex.abort-not-running":     {Shown, Warning},
		"minicodex.decision-unknown-call": {Shown, Warning},
	}
	n := 0
	for _, r := range Rules("minicodex") {
		if r.Dialect != "minicodex" || strings.Contains(r.ID, ".ambiguous.") {
			continue
		}
		n++
		w, ok := want[r.ID]
		switch {
		case !ok:
			t.Errorf("rule %s has no pinned evidence", r.ID)
		case r.Evidence != w.ev || r.Severity != w.sev:
			t.Errorf("rule %s: %s %s, want %s %s", r.ID, r.Evidence, r.Severity, w.ev, w.sev)
		}
		if strings.TrimSpace(r.Quote) == "" {
			t.Errorf("rule %s quotes nothing", r.ID)
		}
	}
	if n != len(want) {
		t.Errorf("minicodex declares %d rules, want %d", n, len(want))
	}
	// Every ambiguity quotes the passages that contradict each other.
	for _, r := range Rules("minicodex") {
		if strings.Contains(r.ID, ".ambiguous.") && strings.TrimSpace(r.Quote) == "" {
			t.Errorf("ambiguity %s quotes nothing", r.ID)
		}
	}
}

// TestMinicodexDowngraded: the rules the spec only shows fire as warnings
// that carry their evidence and quote, and stay quiet on the path the spec
// shows.
func TestMinicodexDowngraded(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, rule string
		steps      []step
	}{
		{"approve of a call never announced", "minicodex.approve-unknown-call", []step{
			c2s("c1", mcHello), c2s("c1", `{"type":"approve","call_id":"made-up"}`)}},
		{"decision for a call never pending (an auto-approved tool, say)", "minicodex.decision-unknown-call", []step{
			c2s("c1", mcHello), s2c("c1", `{"type":"approval_decision","call_id":"auto_1","decision":"approve","event_id":1}`)}},
		{"first message is a ping", "minicodex.handshake-first", []step{c2s("c1", `{"type":"ping"}`)}},
		{"abort with no run", "minicodex.abort-not-running", []step{
			c2s("c1", mcHello), s2c("c1", mcWelcome), c2s("c1", `{"type":"abort"}`)}},
		{"approve of a decided call", "minicodex.approve-not-pending", []step{
			c2s("c1", mcHello),
			s2c("c1", `{"type":"approval_pending","call_id":"c1","tool_key":"t","event_id":1}`),
			s2c("c1", `{"type":"approval_decision","call_id":"c1","decision":"approve","event_id":2}`),
			c2s("c1", `{"type":"deny","call_id":"c1"}`)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := findOne(t, feed(t, "minicodex", tc.steps), tc.rule)
			if f.Severity != Warning || f.Evidence != Shown || f.Quote == "" {
				t.Errorf("%s: severity %s evidence %s quote %q, want a shown warning with a quote", tc.rule, f.Severity, f.Evidence, f.Quote)
			}
		})
	}
	runRuleCases(t, "minicodex", []ruleCase{
		{name: "the approval path the spec shows", steps: []step{
			c2s("c1", mcHello), s2c("c1", mcWelcome), c2s("c1", `{"type":"send","text":"ls"}`),
			s2c("c1", mcStatus("running", 1)),
			s2c("c1", `{"type":"approval_pending","call_id":"call_7","tool_key":"server_tool","event_id":2}`),
			c2s("c1", `{"type":"deny","call_id":"call_7"}`),
			s2c("c1", `{"type":"approval_decision","call_id":"call_7","decision":"deny_continue","event_id":3}`),
			c2s("c1", `{"type":"abort"}`)}},
		{name: "resume is a handshake too", steps: then(mcThree, c2s("c2", mcResume(3)), c2s("c2", `{"type":"ping"}`))},
	})
}

// TestMinicodexResumeInstructedSnapshot: a server whose window cannot
// cover the resume "instructs client to fetch full snapshot via
// get_snapshot"; the live events that follow are not a replay with a gap,
// until the snapshot restarts the replay from its event_id.
func TestMinicodexResumeInstructedSnapshot(t *testing.T) {
	t.Parallel()
	const tooFar = `{"type":"error","code":"REPLAY_WINDOW_EXCEEDED","message":"fetch a snapshot"}`
	snap := func(eid int) string {
		return fmt.Sprintf(`{"type":"snapshot","v":"1.0.0","session_state":{"session_id":"s1","version":"1.0.0"},"run_state":null,"transcript":[],"event_id":%d}`, eid)
	}
	runRuleCases(t, "minicodex", []ruleCase{
		{name: "without the instruction a live event after the resume skips the delta", want: []string{"minicodex.replay-gap"},
			steps: then(mcThree, c2s("c2", mcResume(1)), s2c("c2", mcText("!", 4)))},
		{name: "an error answering the resume: live events are not judged as a replay", steps: then(mcThree,
			c2s("c2", mcResume(1)), s2c("c2", tooFar), s2c("c2", mcText("!", 4)),
			c2s("c2", `{"type":"get_snapshot"}`), s2c("c2", snap(4)), s2c("c2", mcText("?", 5)))},
		{name: "after the snapshot the replay is judged again", want: []string{"minicodex.replay-gap"}, steps: then(mcThree,
			c2s("c2", mcResume(1)), s2c("c2", tooFar),
			c2s("c2", `{"type":"get_snapshot"}`), s2c("c2", snap(2)), s2c("c2", mcText("!", 4)))},
		{name: "an error after the replay started does not stop the judging", want: []string{"minicodex.replay-gap"}, steps: then(mcThree,
			c2s("c2", mcResume(0)), s2c("c2", mcStatus("running", 1)), s2c("c2", tooFar), s2c("c2", mcText("lo", 3)))},
	})
}

// TestMinicodexSchemaEvidence: a timestamp's type is stated, its RFC 3339
// form is a contradiction between the prose and Pydantic (a warning); a
// null in a member that may be absent is a warning once per session.
func TestMinicodexSchemaEvidence(t *testing.T) {
	t.Parallel()
	naive := `{"type":"run_status","run_state":{"run_id":"3f1c2a9e-8b7d-4c6e-9f00-123456789abc","status":"running","started_at":"2026-11-21T10:00:00","pending_approvals":[]},"event_id":1,"ts":"2026-11-21T10:00:00.123456"}`
	fs := feed(t, "minicodex", []step{c2s("c1", mcHello), s2c("c1", naive)})
	f := findOne(t, fs, "minicodex.ambiguous.datetime-format")
	if f.Severity != Warning || f.Quote == "" {
		t.Errorf("datetime-format: severity %s quote %q, want a quoted warning", f.Severity, f.Quote)
	}
	for _, f := range fs {
		if f.Severity == Error {
			t.Errorf("a naive Pydantic datetime is an error: %s", f)
		}
	}
	fs = feed(t, "minicodex", []step{
		c2s("c1", mcHello),
		c2s("c1", `{"type":"get_snapshot","include_transcript_window":null}`),
		c2s("c1", `{"type":"get_snapshot","include_transcript_window":null}`),
		c2s("c1", `{"type":"send","text":"x","client_msg_id":null}`),
		c2s("c1", `{"type":"send","text":"x","ts":1763719200}`),
	})
	var nulls, errs int
	for _, f := range fs {
		switch {
		case f.Rule == "schema.null-optional":
			nulls++
			if f.Pointer != "/include_transcript_window" || f.Severity != Warning {
				t.Errorf("null-optional: %s at %s", f, f.Pointer)
			}
		case f.Severity == Error:
			errs++
			if f.Rule != "schema.violation" || f.Pointer != "/ts" || f.Evidence != Stated || !strings.Contains(f.Quote, "RFC3339") {
				t.Errorf("unexpected error %s at %s (quote %q)", f, f.Pointer, f.Quote)
			}
		}
	}
	if nulls != 1 || errs != 1 {
		t.Errorf("got %d null-optional and %d errors, want 1 and 1 (client_msg_id: str | None = None admits null): %v", nulls, errs, fs)
	}
}
