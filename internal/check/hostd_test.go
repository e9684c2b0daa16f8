package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

const (
	hdRunID = "run_01HZX3"
	hdTS    = "2025-01-01T00:00:00Z"
	hdSHA   = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	hdIn1   = "3f2b8c1e-9d4a-4e6b-8a7c-1b2c3d4e5f60"
	hdIn2   = "0b9c6f2e-1a2b-4c3d-9e8f-a0b1c2d3e4f5"
	hdToken = "s3cr3t-token"
)

// hdEvent is an event of run hdRunID as a host sends it.
func hdEvent(typ string, seq int, data string) string {
	return fmt.Sprintf(`{"type":%q,"ts":%q,"host_id":"host_7f3a","run_id":%q,"seq":%d,"data":%s}`, typ, hdTS, hdRunID, seq, data)
}

func hdStarted(seq int) string {
	return hdEvent("run.started", seq, `{"tool":"codex","cwd":"/home/alice/src/app","command":"codex --model o4-mini"}`)
}

func hdOut(seq int, text string) string {
	return hdEvent("run.output", seq, fmt.Sprintf(`{"stream":"stdout","text":%q}`, text))
}

func hdAwait(seq int) string {
	return hdEvent("run.awaiting_input", seq, `{"reason":"permission","prompt":"Allow? [y/N]"}`)
}

func hdInput(seq int, id string) string {
	return hdEvent("run.input", seq, fmt.Sprintf(`{"actor":"web","input_id":%q,"text_redacted":"y\n","text_sha256":%q}`, id, hdSHA))
}

func hdExited(seq int) string { return hdEvent("run.exited", seq, `{"exit_code":0}`) }

func hdAck(last int) string {
	return fmt.Sprintf(`{"type":"run.ack","data":{"run_id":%q,"last_seq":%d}}`, hdRunID, last)
}

func hdSend(id string) string {
	return fmt.Sprintf(`{"type":"run.send_input","run_id":%q,"data":{"input_id":%q,"text":"y\n"}}`, hdRunID, id)
}

const hdStop = `{"type":"run.stop","run_id":"run_01HZX3","data":{"signal":"term"}}`

// hdURLs gives connections h* the host endpoint and a* the app endpoint,
// with credentials in the query as the spec has them.
func hdURLs(conn string) string {
	switch conn[0] {
	case 'h':
		return "/ws/host?host_id=host_7f3a&host_token=" + hdToken
	case 'a':
		return "ws://127.0.0.1:8080/ws/app?token=" + hdToken
	}
	return ""
}

// hdStory is a whole correct session: a host starts a run, the server acks
// and fans out to an app, the host drops with seq 3 unacknowledged,
// reconnects and replays it (re-stamped), the server de-duplicates, an app
// retries an input, the host records it once, a second app joins and gets
// the history, the run exits.
var hdStory = []step{
	c2s("h1", hdStarted(1)), s2c("h1", hdAck(1)),
	// The server adds host_id, re-stamps ts and drops an unknown member on relay.
	s2c("a1", `{"type":"run.started","ts":"2025-01-01T00:00:02Z","run_id":"run_01HZX3","seq":1,"data":{"command":"codex --model o4-mini","cwd":"/home/alice/src/app","tool":"codex"}}`),
	c2s("h1", hdOut(2, "hel")), s2c("h1", hdAck(2)), s2c("a1", hdOut(2, "hel")),
	c2s("h1", hdAwait(3)), s2c("a1", hdAwait(3)),
	c2s("a1", hdSend(hdIn1)), s2c("h1", hdSend(hdIn1)),
	closeConn("h1"),
	// Reconnect: replay of the unacked spool, re-stamped by the host.
	c2s("h2", strings.Replace(hdAwait(3), hdTS, "2025-01-01T00:05:00Z", 1)), s2c("h2", hdAck(3)),
	// The input was never recorded: the server re-delivers it, the app retries it.
	s2c("h2", hdSend(hdIn1)), c2s("a1", hdSend(hdIn1)),
	c2s("h2", hdInput(4, hdIn1)), s2c("h2", hdAck(4)), s2c("a1", hdInput(4, hdIn1)),
	s2c("a2", hdStarted(1)), s2c("a2", hdOut(2, "hel")), s2c("a2", hdAwait(3)), s2c("a2", hdInput(4, hdIn1)),
	c2s("h2", `{"type":"run.output","run_id":"run_01HZX3","data":{"stream":"stdout","text":"no seq"}}`),
	s2c("a1", `{"type":"run.output","run_id":"run_01HZX3","data":{"stream":"stdout","text":"no seq"}}`),
	c2s("h2", hdOut(5, "done")), s2c("h2", hdAck(5)), s2c("a1", hdOut(5, "done")), s2c("a2", hdOut(5, "done")),
	c2s("a2", hdStop), s2c("h2", hdStop),
	c2s("h2", hdExited(6)), s2c("h2", hdAck(6)), s2c("h2", hdAck(6)),
	s2c("a1", hdExited(6)), s2c("a2", hdExited(6)),
	closeConn("a1"),
	// An app reconnecting may receive the run again on its new connection.
	s2c("a3", hdStarted(1)), s2c("a3", hdExited(6)),
}

// hdThree is a host connection that sent seq 1..3 and got acks up to 3.
var hdThree = []step{
	c2s("h1", hdStarted(1)), s2c("h1", hdAck(1)),
	c2s("h1", hdOut(2, "a")), s2c("h1", hdAck(2)),
	c2s("h1", hdOut(3, "b")), s2c("h1", hdAck(3)),
}

func TestHostdStory(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "hostd", []ruleCase{
		{name: "with URLs", urls: hdURLs, steps: hdStory},
		{name: "roles inferred", steps: hdStory},
	})
}

func TestHostdSeqOrder(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "hostd", []ruleCase{
		{name: "host repeats a seq", urls: hdURLs, want: []string{"hostd.seq-order"},
			steps: then(hdThree, c2s("h1", hdOut(3, "b")))},
		{name: "host goes backwards", urls: hdURLs, want: []string{"hostd.seq-order"},
			steps: then(hdThree, c2s("h1", hdOut(2, "a")))},
		{name: "host may skip seqs", urls: hdURLs,
			steps: then(hdThree, c2s("h1", hdOut(10, "c")), s2c("h1", hdAck(10)))},
		{name: "runs are ordered separately", urls: hdURLs, steps: then(hdThree,
			c2s("h1", strings.ReplaceAll(hdStarted(1), hdRunID, "run_other")))},
		{name: "app receives seqs backwards", urls: hdURLs, want: []string{"hostd.seq-order"}, steps: []step{
			s2c("a1", hdStarted(1)), s2c("a1", hdAwait(3)), s2c("a1", hdOut(2, "a"))}},
		{name: "events without seq are not ordered", urls: hdURLs, steps: []step{
			s2c("a1", hdStarted(2)),
			s2c("a1", `{"type":"run.exited","run_id":"run_01HZX3","data":{"exit_code":1}}`),
			s2c("a1", hdOut(3, "x"))}},
		{name: "a new host connection starts over", urls: hdURLs, steps: then(hdThree[:5],
			closeConn("h1"), c2s("h2", hdOut(3, "b")), s2c("h2", hdAck(3)))},
	})
}

func TestHostdReplayMismatch(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "hostd", []ruleCase{
		{name: "host replay alters data", urls: hdURLs, want: []string{"hostd.replay-mismatch"}, steps: []step{
			c2s("h1", hdStarted(1)), s2c("h1", hdAck(1)), c2s("h1", hdOut(2, "a")), closeConn("h1"),
			c2s("h2", hdOut(2, "A"))}},
		{name: "app copy alters data", urls: hdURLs, want: []string{"hostd.replay-mismatch"}, steps: []step{
			c2s("h1", hdOut(2, "a")), s2c("a1", hdOut(2, "b"))}},
		{name: "fan-out copies differ in type", urls: hdURLs, want: []string{"hostd.replay-mismatch"}, steps: []step{
			s2c("a1", hdOut(2, "a")), s2c("a2", hdExited(2))}},
		{name: "copy drops a spec member", urls: hdURLs, want: []string{"hostd.replay-mismatch"}, steps: []step{
			c2s("h1", hdAwait(3)),
			s2c("a1", `{"type":"run.awaiting_input","run_id":"run_01HZX3","seq":3,"data":{"reason":"permission"}}`)}},
		{name: "ts, host_id and unknown members may change", urls: hdURLs, steps: []step{
			c2s("h1", `{"type":"run.exited","run_id":"run_01HZX3","seq":7,"data":{"exit_code":137,"signal":"KILL"},"x":1}`),
			s2c("a1", `{"seq":7,"type":"run.exited","host_id":"host_7f3a","ts":"2025-01-01T00:00:09Z","run_id":"run_01HZX3","data":{"exit_code":137}}`)}},
		{name: "same seq in another run", urls: hdURLs, steps: []step{
			s2c("a1", hdOut(2, "a")), s2c("a1", strings.ReplaceAll(hdOut(2, "b"), hdRunID, "run_other"))}},
	})
}

func TestHostdAppDuplicate(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "hostd", []ruleCase{
		{name: "server relays the host's replay again", urls: hdURLs, want: []string{"hostd.app-duplicate"}, steps: []step{
			c2s("h1", hdOut(3, "b")), s2c("a1", hdOut(3, "b")), closeConn("h1"),
			c2s("h2", hdOut(3, "b")), s2c("h2", hdAck(3)), s2c("a1", hdOut(3, "b"))}},
		{name: "duplicate of an older event", urls: hdURLs, want: []string{"hostd.app-duplicate"}, steps: []step{
			s2c("a1", hdOut(1, "a")), s2c("a1", hdOut(2, "b")), s2c("a1", hdOut(1, "a"))}},
		{name: "each app gets it once", urls: hdURLs, steps: []step{
			s2c("a1", hdOut(3, "b")), s2c("a2", hdOut(3, "b"))}},
		{name: "reconnected app gets it again", urls: hdURLs, steps: []step{
			s2c("a1", hdOut(3, "b")), closeConn("a1"), s2c("a2", hdOut(3, "b"))}},
		// The later relay web app's run.subscribe {replace: true} asks for
		// the run again: a type the MVP spec lets the protocol add.
		{name: "a newer app asks for the run again", urls: hdURLs, want: []string{"frame.type-undocumented"}, steps: []step{
			s2c("a1", hdStarted(1)), s2c("a1", hdOut(2, "a")), c2s("a1", hdSubscribe),
			s2c("a1", hdStarted(1)), s2c("a1", hdOut(2, "a")), s2c("a1", hdOut(3, "b"))}},
		{name: "another app's request changes nothing here", urls: hdURLs, want: []string{"frame.type-undocumented", "hostd.app-duplicate"}, steps: []step{
			s2c("a1", hdStarted(1)), c2s("a2", hdSubscribe), s2c("a1", hdStarted(1))}},
		{name: "a new view still has one event per seq", urls: hdURLs, want: []string{"frame.type-undocumented", "hostd.app-duplicate", "hostd.replay-mismatch"}, steps: []step{
			s2c("a1", hdStarted(1)), c2s("a1", hdSubscribe), s2c("a1", hdStarted(1)), s2c("a1", hdOut(1, "a"))}},
	})
}

// hdSubscribe is the later relay web app's run.subscribe (not in hostd-mvp.md).
var hdSubscribe = `{"type":"run.subscribe","ts":"2026-01-01T00:00:00Z","run_id":"` + hdRunID + `","data":{"replace":true,"include_output":true}}`

func TestHostdAcks(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "hostd", []ruleCase{
		{name: "ack goes backwards", urls: hdURLs, want: []string{"hostd.ack-regress"},
			steps: then(hdThree, s2c("h1", hdAck(2)))},
		{name: "ack goes backwards after reconnect", urls: hdURLs, want: []string{"hostd.ack-regress"},
			steps: then(hdThree, closeConn("h1"), c2s("h2", hdOut(4, "c")), s2c("h2", hdAck(2)))},
		{name: "ack repeated", urls: hdURLs,
			steps: then(hdThree[:5], closeConn("h1"), c2s("h2", hdOut(3, "b")), s2c("h2", hdAck(3)), s2c("h2", hdAck(3)))},
		{name: "ack beyond what the host sent", urls: hdURLs, want: []string{"hostd.ack-unsent"},
			steps: then(hdThree, s2c("h1", hdAck(4)))},
		{name: "ack of a run whose host sent no seq", urls: hdURLs, want: []string{"hostd.ack-unsent"}, steps: []step{
			c2s("h1", `{"type":"run.started","run_id":"run_01HZX3","data":{"tool":"codex","cwd":"/","command":"codex"}}`),
			s2c("h1", hdAck(1))}},
		{name: "ack of a run joined mid-stream", urls: hdURLs, steps: []step{
			c2s("h1", hdOut(7, "x")), s2c("h1", hdAck(9)), c2s("h1", hdOut(8, "y")), s2c("h1", hdAck(9))}},
		{name: "ack before any event of the run", urls: hdURLs, steps: []step{
			s2c("h1", hdAck(5)), c2s("h1", hdOut(6, "x")), s2c("h1", hdAck(6))}},
		{name: "ack of what an app was relayed", urls: hdURLs, steps: []step{
			c2s("h1", hdStarted(1)), s2c("a1", hdStarted(1)), s2c("a1", hdOut(2, "x")), s2c("h1", hdAck(2))}},
	})
}

func TestHostdSpoolAlreadyAcked(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "hostd", []ruleCase{
		{name: "host replays acknowledged events", urls: hdURLs, want: []string{"hostd.spool-already-acked"},
			steps: then(hdThree, closeConn("h1"),
				c2s("h2", hdOut(2, "a")), c2s("h2", hdOut(3, "b")), c2s("h2", hdOut(4, "c")))},
		{name: "host replays only the unacknowledged", urls: hdURLs,
			steps: then(hdThree[:5], closeConn("h1"), c2s("h2", hdOut(3, "b")), c2s("h2", hdOut(4, "c")))},
		{name: "ack on the same connection races the next event", urls: hdURLs, steps: []step{
			c2s("h1", hdOut(1, "a")), c2s("h1", hdOut(2, "b")), s2c("h1", hdAck(2)), c2s("h1", hdOut(3, "c"))}},
	})
}

// TestHostdResumeUnacked: a host resumes after a reconnect with the events
// no run.ack covered (the planted bug: resuming from a seq never acked).
func TestHostdResumeUnacked(t *testing.T) {
	t.Parallel()
	sent := []step{c2s("h1", hdStarted(1)), s2c("h1", hdAck(1)), c2s("h1", hdOut(2, "a")), c2s("h1", hdOut(3, "b"))}
	runRuleCases(t, "hostd", []ruleCase{
		{name: "host resumes beyond unacknowledged events", urls: hdURLs, want: []string{"hostd.resume-unacked"},
			steps: then(sent, closeConn("h1"), c2s("h2", hdOut(4, "c")), c2s("h2", hdOut(5, "d")))},
		{name: "host replays the unacknowledged, then goes on", urls: hdURLs,
			steps: then(sent, closeConn("h1"), c2s("h2", hdOut(2, "a")), c2s("h2", hdOut(3, "b")), c2s("h2", hdOut(4, "c")))},
		{name: "an ack on the new connection covers the rest", urls: hdURLs,
			steps: then(sent, closeConn("h1"), c2s("h2", hdOut(2, "a")), s2c("h2", hdAck(3)), c2s("h2", hdOut(4, "c")))},
		{name: "acked before the drop", urls: hdURLs,
			steps: then(sent, s2c("h1", hdAck(3)), closeConn("h1"), c2s("h2", hdOut(4, "c")))},
		{name: "no ack at all, replayed from the start", urls: hdURLs, steps: []step{
			c2s("h1", hdStarted(1)), c2s("h1", hdOut(2, "a")), closeConn("h1"),
			c2s("h2", hdStarted(1)), c2s("h2", hdOut(2, "a")), c2s("h2", hdOut(3, "b"))}},
		{name: "no ack at all, resumed past it", urls: hdURLs, want: []string{"hostd.resume-unacked"}, steps: []step{
			c2s("h1", hdStarted(1)), c2s("h1", hdOut(2, "a")), closeConn("h1"), c2s("h2", hdOut(3, "b"))}},
		{name: "the same connection goes on", urls: hdURLs,
			steps: then(sent, c2s("h1", hdOut(4, "c")), s2c("h1", hdAck(4)))},
	})
}

func TestHostdInputs(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "hostd", []ruleCase{
		{name: "host records an input twice", urls: hdURLs, want: []string{"hostd.input-duplicate"}, steps: []step{
			s2c("h1", hdSend(hdIn1)), c2s("h1", hdInput(4, hdIn1)), s2c("h1", hdAck(4)),
			s2c("a1", hdInput(4, hdIn1)),
			c2s("h1", hdInput(5, hdIn1)), s2c("a1", hdInput(5, hdIn1))}},
		{name: "replayed and relayed run.input is one recording", urls: hdURLs, steps: []step{
			c2s("h1", hdInput(4, hdIn1)), s2c("a1", hdInput(4, hdIn1)), s2c("a2", hdInput(4, hdIn1)),
			closeConn("h1"), c2s("h2", hdInput(4, hdIn1)), c2s("h2", hdInput(5, hdIn2))}},
		{name: "same input_id in another run", urls: hdURLs, steps: []step{
			c2s("h1", hdInput(4, hdIn1)), c2s("h1", strings.ReplaceAll(hdInput(4, hdIn1), hdRunID, "run_other"))}},
		{name: "app reuses an input_id with another text", urls: hdURLs, want: []string{"hostd.input-id-reused"}, steps: []step{
			c2s("a1", hdSend(hdIn1)), c2s("a2", strings.Replace(hdSend(hdIn1), `"y\n"`, `"n\n"`, 1))}},
		{name: "same input_id and text in another run", urls: hdURLs, steps: []step{
			c2s("a1", hdSend(hdIn1)), c2s("a1", strings.ReplaceAll(strings.Replace(hdSend(hdIn1), `"y\n"`, `"n\n"`, 1), hdRunID, "run_other"))}},
		{name: "app retries an input", urls: hdURLs, steps: []step{
			c2s("a1", hdSend(hdIn1)), c2s("a1", hdSend(hdIn1)), c2s("a2", hdSend(hdIn1)), s2c("h1", hdSend(hdIn1))}},
		{name: "server forwards a retry to the host", urls: hdURLs, want: []string{"hostd.input-reforwarded"}, steps: []step{
			c2s("a1", hdSend(hdIn1)), s2c("h1", hdSend(hdIn1)), c2s("a1", hdSend(hdIn1)), s2c("h1", hdSend(hdIn1))}},
		{name: "server forwards a recorded input", urls: hdURLs, want: []string{"hostd.input-reforwarded"}, steps: []step{
			s2c("h1", hdSend(hdIn1)), c2s("h1", hdInput(4, hdIn1)), closeConn("h1"), s2c("h2", hdSend(hdIn1))}},
		{name: "server re-delivers an unrecorded input after reconnect", urls: hdURLs, steps: []step{
			s2c("h1", hdSend(hdIn1)), closeConn("h1"), s2c("h2", hdSend(hdIn1)), c2s("h2", hdInput(4, hdIn1))}},
	})
}

func TestHostdWrongEndpoint(t *testing.T) {
	t.Parallel()
	prefixed := func(conn string) string {
		if conn[0] == 'h' {
			return "wss://example.com/api/ws/host/?host_id=h"
		}
		return "/socket"
	}
	runRuleCases(t, "hostd", []ruleCase{
		{name: "run.ack to an app", urls: hdURLs, want: []string{"hostd.wrong-endpoint"}, steps: []step{
			s2c("a1", hdAck(1))}},
		{name: "app sends an event", urls: hdURLs, want: []string{"hostd.wrong-endpoint"}, steps: []step{
			c2s("a1", hdOut(1, "x")), c2s("a1", hdOut(1, "x"))}},
		{name: "host sends a command", urls: hdURLs, want: []string{"hostd.wrong-endpoint"}, steps: []step{
			c2s("h1", hdStop)}},
		{name: "event sent to a host", urls: hdURLs, want: []string{"hostd.wrong-endpoint"}, steps: []step{
			s2c("h1", hdOut(1, "x"))}},
		{name: "inferred app gets run.ack", want: []string{"hostd.wrong-endpoint"}, steps: []step{
			c2s("x", hdSend(hdIn1)), s2c("x", hdAck(1))}},
		{name: "inferred host sends a command", want: []string{"hostd.wrong-endpoint"}, steps: []step{
			c2s("x", hdStarted(1)), s2c("x", hdAck(1)), c2s("x", hdStop)}},
		{name: "prefixed host path, unknown app path inferred", urls: prefixed, steps: []step{
			c2s("h1", hdStarted(1)), s2c("h1", hdAck(1)), s2c("h1", hdStop),
			s2c("z", hdStarted(1)), c2s("z", hdStop)}},
	})
}

func TestHostdFindingDetails(t *testing.T) {
	t.Parallel()
	cases := []struct {
		rule, pointer, expected, actual string
		steps                           []step
	}{
		{"hostd.seq-order", "/seq", "> 3", "2", then(hdThree, c2s("h1", hdOut(2, "a")))},
		{"hostd.app-duplicate", "/seq", "each (run_id, seq) once; seq 1 already delivered", "seq 1 again",
			[]step{s2c("a1", hdOut(1, "a")), s2c("a1", hdOut(1, "a"))}},
		{"hostd.ack-regress", "/data/last_seq", ">= 3", "2", then(hdThree, s2c("h1", hdAck(2)))},
		{"hostd.ack-unsent", "/data/last_seq", "<= 3, the highest seq the host sent for the run", "4",
			then(hdThree, s2c("h1", hdAck(4)))},
		{"hostd.spool-already-acked", "/seq", "> 3 (spool deleted up to last_seq)", "3",
			then(hdThree, closeConn("h1"), c2s("h2", hdOut(3, "b")))},
		{"hostd.input-duplicate", "/data/input_id", "input_id " + hdIn1 + " recorded once (seq 4)", "recorded again as seq 5",
			[]step{c2s("h1", hdInput(4, hdIn1)), c2s("h1", hdInput(5, hdIn1))}},
		{"hostd.wrong-endpoint", "/type", "s2c events (" + hdEventList + ") on an app connection", "s2c run.ack",
			[]step{s2c("a1", hdAck(1))}},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			t.Parallel()
			f := findOne(t, feedWith(t, "hostd", hdURLs, Options{}, tc.steps), tc.rule)
			if f.Pointer != tc.pointer || f.Expected != tc.expected || f.Actual != tc.actual {
				t.Errorf("got pointer %q expected %q actual %q; want %q %q %q", f.Pointer, f.Expected, f.Actual, tc.pointer, tc.expected, tc.actual)
			}
			if f.Frame != int64(len(tc.steps)-1) {
				t.Errorf("finding on frame %d, want the last frame %d", f.Frame, len(tc.steps)-1)
			}
		})
	}
}

func TestHostdReplayMismatchShowsDiff(t *testing.T) {
	t.Parallel()
	fs := feedWith(t, "hostd", hdURLs, Options{}, []step{
		c2s("h1", hdOut(2, "a")), s2c("h1", hdAck(2)), s2c("a1", hdOut(2, "a")),
		s2c("a2", strings.Replace(hdOut(2, "A"), hdTS, "2025-01-01T00:00:09Z", 1)),
	})
	f := findOne(t, fs, "hostd.replay-mismatch")
	if !strings.Contains(f.Diff, `- /data/text: "a"`) || !strings.Contains(f.Diff, `+ /data/text: "A"`) {
		t.Errorf("diff does not show the altered member:\n%s", f.Diff)
	}
	if f.Pointer != "/data/text" || f.Expected != `"a"` || f.Actual != `"A"` {
		t.Errorf("got pointer %q expected %q actual %q", f.Pointer, f.Expected, f.Actual)
	}
	if strings.Contains(f.Diff, "/ts") {
		t.Errorf("diff shows ts, which is not compared:\n%s", f.Diff)
	}
	if len(f.Related) != 1 || f.Related[0] != 0 {
		t.Errorf("related = %v, want the original frame 0", f.Related)
	}
	if f.Conn != "a2" || f.Dir != wire.ServerToClient {
		t.Errorf("finding on %s %s, want a2 s2c", f.Conn, f.Dir)
	}
}

// Findings name the endpoint path, never the credentials in its query.
func TestHostdFindingsHideCredentials(t *testing.T) {
	t.Parallel()
	fs := feedWith(t, "hostd", hdURLs, Options{}, []step{s2c("a1", hdAck(1)), c2s("h1", hdStop)})
	if len(fs) != 2 {
		t.Fatalf("want 2 findings, got %v", fs)
	}
	for _, f := range fs {
		if strings.Contains(f.String()+f.Expected+f.Actual, hdToken) {
			t.Errorf("finding leaks the token: %s", f)
		}
		if !strings.Contains(f.Message, "URL path /ws/") {
			t.Errorf("finding does not say how the role was learnt: %s", f.Message)
		}
	}
}

// A small window forgets old events: replays of them are not judged, and
// nothing fires falsely.
func TestHostdReplayWindowBoundsMemory(t *testing.T) {
	t.Parallel()
	var steps []step
	for i := 1; i <= 20; i++ {
		run := fmt.Sprintf("run_%d", i)
		steps = append(steps,
			c2s("h1", strings.ReplaceAll(hdStarted(1), hdRunID, run)),
			s2c("h1", strings.ReplaceAll(hdAck(1), hdRunID, run)),
			s2c("a1", strings.ReplaceAll(hdStarted(1), hdRunID, run)))
	}
	steps = append(steps, s2c("a2", strings.ReplaceAll(hdOut(1, "changed"), hdRunID, "run_1")))
	d, err := dialect.Get("hostd")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(d, Options{ReplayWindow: 4})
	for i, st := range steps {
		f := wire.Frame{Conn: st.conn, URL: hdURLs(st.conn), Dir: st.dir, Index: int64(i), Op: wire.OpText, Payload: []byte(st.json)}
		for _, fd := range s.Observe(f) {
			if fd.Severity >= Warning {
				t.Errorf("unexpected %s", fd)
			}
		}
	}
	r := s.rules.(*hostd)
	if r.log.byKey.len() > 4 || len(r.runs) > 4 || r.conns["a1"].delivered.len() > 4 {
		t.Errorf("memory beyond the window of 4: log %d, runs %d, delivered %d",
			r.log.byKey.len(), len(r.runs), r.conns["a1"].delivered.len())
	}
}

// Schema-invalid members are read defensively: no panic, no stateful finding.
func TestHostdSchemaInvalidIsSafe(t *testing.T) {
	t.Parallel()
	fs := feedWith(t, "hostd", hdURLs, Options{}, []step{
		c2s("h1", `{"type":"run.started","run_id":7,"seq":"1","data":"x"}`),
		c2s("h1", `{"type":"run.output","run_id":"r","seq":1.5,"data":[]}`),
		c2s("h1", `{"type":"run.output","run_id":"r","seq":2,"data":null}`),
		c2s("h1", `{"type":"run.input","run_id":"r","seq":3,"data":{"input_id":5}}`),
		s2c("h1", `{"type":"run.ack","data":{"run_id":["r"],"last_seq":"9"}}`),
		s2c("h1", `{"type":"run.ack","data":7}`),
		s2c("h1", `{"type":"run.send_input","run_id":"r","data":{"input_id":{}}}`),
		s2c("a1", `{"type":"run.output","run_id":"r","seq":2}`),
	})
	for _, f := range fs {
		if strings.HasPrefix(f.Rule, "hostd.") && f.Rule != "hostd.replay-mismatch" {
			t.Errorf("unexpected %s", f)
		}
	}
	findOne(t, fs, "schema.violation")
}

func TestHostdRuleCatalogue(t *testing.T) {
	t.Parallel()
	n := 0
	for _, r := range Rules("hostd") {
		if r.Dialect != "hostd" || strings.Contains(r.ID, ".ambiguous.") {
			continue
		}
		n++
		if !strings.HasPrefix(r.ID, "hostd.") || r.Summary == "" || !strings.HasPrefix(r.Spec, "hostd-mvp.md §") {
			t.Errorf("rule %s: id, summary or spec malformed: %+v", r.ID, r)
		}
		if r.Severity == Error && (r.Evidence != Stated || strings.TrimSpace(r.Quote) == "") {
			t.Errorf("rule %s is an error without a stated, quoted requirement", r.ID)
		}
		w, ok := hdEvidence[r.ID]
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
	if n != 15 {
		t.Errorf("hostd declares %d rules, want 15", n)
	}
}

// hdEvidence pins each hostd rule's evidence and severity (DESIGN.md, the
// evidence policy). The spec's words are few: seq "monotonically increasing
// per run_id", run.ack's last_seq "last persisted seq", input_id "to make
// inputs idempotent"; which endpoint carries what is shown by the section
// headings, and who de-duplicates inputs is our reading.
var hdEvidence = map[string]struct {
	ev  Evidence
	sev Severity
}{
	"hostd.seq-order":           {Stated, Error},
	"hostd.replay-mismatch":     {Stated, Error},
	"hostd.app-duplicate":       {Stated, Error},
	"hostd.ack-regress":         {Stated, Error},
	"hostd.ack-unsent":          {Stated, Error},
	"hostd.spool-already-acked": {Stated, Warning},
	"hostd.input-duplicate":     {Stated, Error},
	"hostd.input-reforwarded":   {Interpretation, Warning},
	"hostd.resume-unacked":      {Stated, Error},
	"hostd.wrong-endpoint":      {Shown, Warning},
	// The HTTP half (hostd_http.go): "(Bearer auth)" is stated, the 401
	// and the answer to a reused input_id are our readings.
	"hostd.http-no-bearer":               {Stated, Error},
	"hostd.http-unauthenticated-not-401": {Interpretation, Warning},
	"hostd.input-id-reused":              {Stated, Error},
	"hostd.input-id-reused-accepted":     {Interpretation, Warning},
	"hostd.http-forwarded-not-2xx":       {Interpretation, Warning},
}

// TestHostdFindingsCarryEvidence: the warnings of the rules whose evidence
// is shown or our reading say so, and quote what they rest on.
func TestHostdFindingsCarryEvidence(t *testing.T) {
	t.Parallel()
	fs := feedWith(t, "hostd", hdURLs, Options{}, []step{
		c2s("h1", hdStarted(1)), s2c("h1", hdAck(1)), s2c("a1", hdAck(1))})
	f := findOne(t, fs, "hostd.wrong-endpoint")
	if f.Severity != Warning || f.Evidence != Shown || !strings.Contains(f.Quote, "back to the connected host") {
		t.Errorf("wrong-endpoint: %s %s %q", f.Severity, f.Evidence, f.Quote)
	}
	fs = feedWith(t, "hostd", hdURLs, Options{}, []step{
		c2s("h1", hdStarted(1)), s2c("h1", hdSend(hdIn1)), s2c("h1", hdSend(hdIn1))})
	f = findOne(t, fs, "hostd.input-reforwarded")
	if f.Severity != Warning || f.Evidence != Interpretation || f.Quote == "" {
		t.Errorf("input-reforwarded: %s %s %q", f.Severity, f.Evidence, f.Quote)
	}
	fs = feedWith(t, "hostd", hdURLs, Options{}, then(hdThree, s2c("h1", hdAck(2))))
	f = findOne(t, fs, "hostd.ack-regress")
	if f.Severity != Error || f.Evidence != Stated || !strings.Contains(f.Quote, "last persisted") {
		t.Errorf("ack-regress: %s %s %q", f.Severity, f.Evidence, f.Quote)
	}
}

// TestHostdSchemaEvidence: the data members each type lists are stated
// (an error), the envelope members only shown by the spec's example (a
// warning), run.stop's data our reading (a warning), and a null optional
// member a warning once per session.
func TestHostdSchemaEvidence(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, json, rule, ptr string
		sev                   Severity
	}{
		{"run_id missing: the envelope example shows it", `{"type":"run.output","seq":1,"data":{"stream":"stdout","text":"x"}}`,
			"schema.shown", "/run_id", Warning},
		{"ts not RFC 3339: only the example shows its form", `{"type":"run.output","run_id":"r","ts":"1 Jan 2025","data":{"stream":"stdout","text":"x"}}`,
			"schema.shown", "/ts", Warning},
		{"seq a string: only the example shows a number", `{"type":"run.output","run_id":"r","seq":"1","data":{"stream":"stdout","text":"x"}}`,
			"schema.shown", "/seq", Warning},
		{"host_id a number: only the example shows a string", `{"type":"run.output","run_id":"r","host_id":7,"data":{"stream":"stdout","text":"x"}}`,
			"schema.shown", "/host_id", Warning},
		{"stream outside stdout | stderr: stated", `{"type":"run.output","run_id":"r","data":{"stream":"stdlog","text":"x"}}`,
			"schema.violation", "/data/stream", Error},
		{"exit_code not an integer: stated", `{"type":"run.exited","run_id":"r","data":{"exit_code":"0"}}`,
			"schema.violation", "/data/exit_code", Error},
		{"run.stop without data: our reading", `{"type":"run.stop","run_id":"r"}`,
			"schema.interpretation", "/data", Warning},
		{"run.stop signal outside term | kill: stated", `{"type":"run.stop","run_id":"r","data":{"signal":"hup"}}`,
			"schema.violation", "/data/signal", Error},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := findOne(t, feed(t, "hostd", []step{c2s("x", tc.json)}), tc.rule)
			if f.Pointer != tc.ptr || f.Severity != tc.sev || (f.Severity == Error && f.Quote == "") {
				t.Errorf("%s at %s (%s, quote %q), want at %s (%s)", f.Rule, f.Pointer, f.Severity, f.Quote, tc.ptr, tc.sev)
			}
		})
	}
	// Loosened: the spec sets no lower bound on seq or last_seq and names
	// no letter case for the sha256 hex; a prompt null twice is one warning.
	upper := strings.Replace(hdInput(4, hdIn1), hdSHA, strings.ToUpper(hdSHA), 1)
	fs := feedWith(t, "hostd", hdURLs, Options{}, []step{
		c2s("h1", hdStarted(0)), c2s("h1", upper),
		c2s("h1", hdEvent("run.awaiting_input", 5, `{"reason":"prompt","prompt":null}`)),
		c2s("h1", hdEvent("run.awaiting_input", 6, `{"reason":"prompt","prompt":null}`)),
		s2c("h1", `{"type":"run.ack","data":{"run_id":"other","last_seq":-1}}`),
	})
	nulls := 0
	for _, f := range fs {
		if f.Rule == "schema.null-optional" && f.Pointer == "/data/prompt" && f.Severity == Warning {
			nulls++
			continue
		}
		t.Errorf("unexpected %s at %s", f, f.Pointer)
	}
	if nulls != 1 {
		t.Errorf("prompt null reported %d times, want once per session", nulls)
	}
}
