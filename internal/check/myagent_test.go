package check

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// maBody is the content (and other members) of a schema-valid event of each
// type used in the tests.
var maBody = map[string]string{
	"system.connected":     `"content":{"server_version":"1.0.0","capabilities":["replay"]}`,
	"system.notice":        `"content":{"message":"Server will restart in 5 minutes"}`,
	"system.heartbeat":     `"content":{"timestamp":"2025-01-15T10:30:30Z"}`,
	"system.error":         `"content":{"error":"boom"}`,
	"plan.start":           `"content":{"question":"Make slides"}`,
	"plan.completed":       `"content":{"tasks":[{"id":1,"title":"Generate PPT"}]},"metadata":{"task_count":1,"plan_summary":"one slide"}`,
	"plan.cancelled":       `"content":null,"metadata":{"reason":"cancelled"}`,
	"agent.user_confirm":   `"step_id":"plan_confirm_1","content":"请确认规划（1 个任务）","metadata":{"scope":"plan"}`,
	"solver.start":         `"content":{"task":{"id":1,"title":"Generate PPT"}}`,
	"solver.cancelled":     `"content":{"task":{"id":1}}`,
	"agent.thinking":       `"content":"Processing query..."`,
	"agent.tool_call":      `"content":"calling make_slide","metadata":{"tool":"make_slide"}`,
	"agent.tool_result":    `"content":"slide made"`,
	"solver.completed":     `"content":{"task":{"id":1,"title":"Generate PPT"},"result":{"slides":5,"status":"success"}}`,
	"aggregate.start":      `"content":"aggregating"`,
	"aggregate.completed":  `"content":"aggregated"`,
	"pipeline.completed":   `"content":"done"`,
	"agent.final_answer":   `"content":"Here are your slides"`,
	"agent.state_exported": `"metadata":{"session_state":{}}`,
	"error.timeout":        `"content":"Task execution exceeded 30 second timeout"`,
}

// maEv is a server event on connection conn (its connection_id) with seq
// (none when seq < 0).
func maEv(conn, typ string, seq int) string {
	body, ok := maBody[typ]
	if !ok {
		panic("no test body for " + typ)
	}
	s := fmt.Sprintf(`{"event":%q,"timestamp":"2025-01-15T10:30:00Z","session_id":"sess_123","connection_id":%q,%s`, typ, conn, body)
	if seq >= 0 {
		s += fmt.Sprintf(`,"seq":%d`, seq)
	}
	return s + "}"
}

// maS is a server step: event typ with seq on conn.
func maS(conn, typ string, seq int) step { return s2c(conn, maEv(conn, typ, seq)) }

func maConnected(conn string) step { return maS(conn, "system.connected", -1) }

func maC(conn, typ, rest string) step {
	s := fmt.Sprintf(`{"event":%q,"timestamp":"2025-01-15T10:30:00Z","session_id":"sess_123"`, typ)
	if rest != "" {
		s += "," + rest
	}
	return c2s(conn, s+"}")
}

func maAck(conn string, seq int) step { return maC(conn, "user.ack", fmt.Sprintf(`"seq":%d`, seq)) }

func maReconnect(conn string, last int) step {
	return maC(conn, "user.reconnect_with_state", fmt.Sprintf(`"last_seq":%d`, last))
}

func maMessage(conn string) step { return maC(conn, "user.message", `"content":"Make slides"`) }

func maResponse(conn, stepID string, approved bool) step {
	return maC(conn, "user.response", fmt.Sprintf(`"step_id":%q,"content":{"approved":%t}`, stepID, approved))
}

// maNotice lists events (already JSON) in a system.notice, with its own
// seq unless seq < 0.
func maNotice(conn string, seq int, events ...string) step {
	s := fmt.Sprintf(`{"event":"system.notice","timestamp":"2025-01-15T10:30:00Z","session_id":"sess_123","connection_id":%q,"content":{"message":"Replaying %d events","events":[%s]}`,
		conn, len(events), strings.Join(events, ","))
	if seq >= 0 {
		s += fmt.Sprintf(`,"seq":%d`, seq)
	}
	return s2c(conn, s+"}")
}

// maPipelineTypes is the clean pipeline, seq 1..12.
var maPipelineTypes = []string{"plan.start", "plan.completed", "agent.user_confirm", "solver.start",
	"agent.thinking", "agent.tool_call", "agent.tool_result", "solver.completed", "aggregate.start",
	"aggregate.completed", "pipeline.completed", "agent.final_answer"}

// maPipeline is a full clean run on conn c1, every event acknowledged, the
// confirmation answered, up to seq upto, then the connection closes.
func maPipeline(upto int) []step {
	steps := []step{maConnected("c1"), maMessage("c1")}
	for i, typ := range maPipelineTypes[:upto] {
		seq := i + 1
		steps = append(steps, maS("c1", typ, seq), maAck("c1", seq))
		if typ == "agent.user_confirm" {
			steps = append(steps, maResponse("c1", "plan_confirm_1", true))
		}
	}
	return append(steps, closeConn("c1"))
}

// maThree is a connection that saw events 1..3 (plan.start, plan.completed,
// agent.thinking) without acknowledging them.
var maThree = []step{
	maConnected("c1"), maMessage("c1"),
	maS("c1", "plan.start", 1), maS("c1", "plan.completed", 2), maS("c1", "agent.thinking", 3),
}

func maItem(typ string, seq int) string { return maEv("c1", typ, seq) }

// maConnectedSeq is system.connected as a server numbering per connection
// sends it: with seq, its own connection in metadata and event_id, as
// JasonDZS/myagent does (whose content is a string; see
// TestMyagentRealServerShapes).
func maConnectedSeq(conn string, seq int) step {
	return s2c(conn, fmt.Sprintf(`{"event":"system.connected","timestamp":"2025-01-15T10:30:00.%06d","connection_id":%q,`+
		`"content":{"server_version":"0.1","capabilities":["seq_ack"]},"metadata":{"connection_id":%q},"event_id":"%s-%d","seq":%d}`,
		seq, conn, conn, conn, seq, seq))
}

// maPerConn is two connections of one session, each numbered from 1 by
// the server, each acknowledging its own seqs.
var maPerConn = []step{
	maConnectedSeq("c1", 1), maMessage("c1"),
	maS("c1", "plan.start", 2), maS("c1", "plan.completed", 3), maAck("c1", 3), maS("c1", "agent.thinking", 4),
	maConnectedSeq("c2", 1), maMessage("c2"),
	maS("c2", "agent.thinking", 2), maS("c2", "agent.final_answer", 3), maAck("c2", 3),
	maS("c1", "agent.final_answer", 5), maAck("c1", 5),
}

func TestMyagentRules(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "myagent", []ruleCase{
		{name: "clean pipeline with acks then reconnect with replay", steps: then(maPipeline(8),
			maConnected("c2"), maReconnect("c2", 6),
			maS("c2", "agent.tool_result", 7), maS("c2", "solver.completed", 8), maAck("c2", 8),
			maS("c2", "aggregate.start", 9), maS("c2", "aggregate.completed", 10),
			maS("c2", "pipeline.completed", 11), maS("c2", "agent.final_answer", 12), maAck("c2", 12))},
		{name: "clean full pipeline", steps: maPipeline(12)},
		{name: "clean full pipeline then reconnect with top-level replay", steps: then(maPipeline(12),
			maConnected("c2"), maReconnect("c2", 10),
			maS("c2", "pipeline.completed", 11), maS("c2", "agent.final_answer", 12), maAck("c2", 12),
			maMessage("c2"), s2c("c2", strings.Replace(maEv("c2", "plan.start", 13), "Make slides", "More slides", 1)), maAck("c2", 13))},
		{name: "clean full pipeline then reconnect with replay in a system.notice list", steps: then(maPipeline(12),
			maConnected("c2"), maReconnect("c2", 9),
			maNotice("c2", -1, maItem("aggregate.completed", 10), maItem("pipeline.completed", 11), maItem("agent.final_answer", 12)),
			maAck("c2", 12))},
		{name: "notice list with its own seq, last_seq in content", steps: then(maThree,
			closeConn("c1"), maConnected("c2"), maC("c2", "user.reconnect_with_state", `"content":{"last_seq":1}`),
			maNotice("c2", 4, maItem("plan.completed", 2), maItem("agent.thinking", 3)), maAck("c2", 4))},
		{name: "notice list out of order is not a gap", steps: then(maThree,
			maConnected("c2"), maC("c2", "user.reconnect_with_state", `"metadata":{"last_seq":1}`),
			maNotice("c2", -1, maItem("agent.thinking", 3), maItem("plan.completed", 2)))},

		// seq-order
		{name: "seq goes backwards", want: []string{"myagent.seq-order", "myagent.seq-gap"},
			steps: then(maThree, maS("c1", "agent.tool_call", 10), maS("c1", "agent.tool_result", 4))},
		{name: "seq reused for another event", want: []string{"myagent.retry-mismatch"},
			steps: then(maThree, maS("c1", "agent.tool_call", 2))},
		{name: "seq skips numbers on the session's only connection", want: []string{"myagent.seq-gap"},
			steps: then(maThree, maS("c1", "agent.tool_call", 10))},
		{name: "seq skips numbers while two connections share the session", steps: then(maThree,
			maConnected("c3"), maS("c1", "agent.tool_call", 10))},
		{name: "partial answers dropped and one sent late (JasonDZS/myagent's coalescer)",
			want:  []string{"myagent.seq-gap", "myagent.seq-order"},
			steps: then(maThree, maS("c1", "solver.completed", 9), maS("c1", "agent.tool_call", 8))},
		{name: "events without seq are not ordered", steps: then(maThree,
			maS("c1", "system.heartbeat", -1), maS("c1", "agent.tool_call", -1), maS("c1", "agent.tool_call", 4))},
		{name: "retry of an unacknowledged event", steps: then(maThree,
			maAck("c1", 1), maS("c1", "plan.completed", 2), maS("c1", "agent.tool_call", 4))},
		{name: "a copy for a second client out of order", want: []string{"myagent.seq-order"}, steps: then(maThree,
			maConnected("c3"), maS("c3", "plan.completed", 2), maS("c3", "plan.start", 1))},
		{name: "copies for a second client differ only in connection_id", steps: then(maThree,
			maConnected("c3"), maS("c3", "plan.start", 1), maS("c3", "plan.completed", 2), maS("c3", "agent.thinking", 3))},
		{name: "a plain second connection is not compared as a replay", steps: then(maThree,
			maConnected("c3"), maS("c3", "plan.start", 1),
			s2c("c3", strings.Replace(maEv("c3", "plan.completed", 2), "Generate PPT", "Other", 1)), maAck("c3", 2))},

		// scope of seq: a server numbering per connection (JasonDZS/myagent)
		{name: "two plain connections numbered per connection", steps: maPerConn},
		{name: "per-connection numbering, reconnect_with_state with a renumbered replay", steps: then(maPerConn[:6],
			closeConn("c1"), maConnectedSeq("c2", 1), maReconnect("c2", 3),
			maS("c2", "agent.thinking", 2), maS("c2", "agent.tool_call", 3), maAck("c2", 3)),
			// agent.thinking was seq 4 on c1: a replay re-stamped with the new
			// connection's numbers (a warning, once)
			want: []string{"myagent.replay-restamped"}},
		{name: "reconnect_with_state starts the connection's order afresh", steps: then(maThree,
			maConnected("c2"), maS("c2", "agent.tool_call", 5), maReconnect("c2", 1),
			maS("c2", "plan.completed", 2), maS("c2", "agent.thinking", 3), maS("c2", "agent.tool_call", 5), maS("c2", "solver.start", 6))},

		// heartbeats (frames of these tests carry no wall time: never judged)
		{name: "heartbeats without times are not judged", steps: then(maThree,
			maS("c1", "system.heartbeat", -1), maS("c1", "system.heartbeat", -1))},

		// an approved plan confirmation
		{name: "approved plan, the run solves", steps: []step{maConnected("c1"), maMessage("c1"),
			maS("c1", "plan.start", 1), maS("c1", "plan.completed", 2), maS("c1", "agent.user_confirm", 3),
			maResponse("c1", "plan_confirm_1", true), maS("c1", "solver.start", 4), maS("c1", "solver.completed", 5),
			maS("c1", "pipeline.completed", 6), maS("c1", "agent.final_answer", 7)}},
		{name: "approved plan answered as if declined", want: []string{"myagent.confirm-ignored"}, steps: []step{
			maConnected("c1"), maMessage("c1"),
			maS("c1", "plan.start", 1), maS("c1", "plan.completed", 2), maS("c1", "agent.user_confirm", 3),
			maResponse("c1", "plan_confirm_1", true), maS("c1", "agent.final_answer", 4)}},
		{name: "declined plan ends the run", steps: []step{maConnected("c1"), maMessage("c1"),
			maS("c1", "plan.start", 1), maS("c1", "plan.completed", 2), maS("c1", "agent.user_confirm", 3),
			maResponse("c1", "plan_confirm_1", false), maS("c1", "plan.cancelled", 4)}},
		{name: "approved plan, then the client cancels", steps: []step{maConnected("c1"), maMessage("c1"),
			maS("c1", "plan.start", 1), maS("c1", "plan.completed", 2), maS("c1", "agent.user_confirm", 3),
			maResponse("c1", "plan_confirm_1", true), maC("c1", "user.cancel", ""), maS("c1", "plan.cancelled", 4)}},

		// acks
		{name: "ack of a seq never sent", want: []string{"myagent.ack-unsent"}, steps: then(maThree, maAck("c1", 4))},
		{name: "ack before any event", want: []string{"myagent.ack-unsent"}, steps: []step{
			maConnected("c1"), maAck("c1", 1)}},
		{name: "ack of a seq sent to another client", steps: then(maThree,
			maConnected("c3"), maS("c3", "plan.start", 1), maAck("c3", 3))},
		{name: "ack of what the client had before the recording", steps: []step{
			maConnected("c2"), maReconnect("c2", 40), maAck("c2", 40)}},
		{name: "ack goes backwards", want: []string{"myagent.ack-regress"}, steps: then(maThree,
			maAck("c1", 3), maAck("c1", 2))},
		{name: "ack repeated", steps: then(maThree, maAck("c1", 3), maAck("c1", 3))},
		{name: "reconnect_with_state from the last seq seen", steps: then(maThree, closeConn("c1"), maConnected("c2"), maReconnect("c2", 3))},
		{name: "reconnect_with_state from a seq never sent", want: []string{"myagent.reconnect-unseen"},
			steps: then(maThree, closeConn("c1"), maConnected("c2"), maReconnect("c2", 9))},
		{name: "a reconnect refused with system.error replays nothing", steps: then(maThree, closeConn("c1"),
			maConnectedSeq("c2", 1), maReconnect("c2", 3),
			s2c("c2", `{"event":"system.error","timestamp":"2025-01-15T10:30:00Z","content":{"error":"Missing signed_state in reconnect request"},"seq":2}`),
			maS("c2", "agent.thinking", 3))},
		{name: "a reconnect to an unknown session refused with system.error", want: []string{"myagent.reconnect-unseen"}, steps: []step{
			maConnectedSeq("c1", 1), maReconnect("c1", 3),
			s2c("c1", `{"event":"system.error","timestamp":"2025-01-15T10:30:00Z","content":{"error":"Missing signed_state in reconnect request"},"seq":2}`)}},
		{name: "reconnect_with_state before any event was seen", steps: []step{maConnected("c1"), maReconnect("c1", 40)}},
		{name: "ack rewinds after reconnect_with_state", steps: then(maThree,
			maAck("c1", 3), maReconnect("c1", 1), maS("c1", "plan.completed", 2), maAck("c1", 2))},

		// replay-mismatch
		{name: "replay alters an event", want: []string{"myagent.replay-mismatch"}, steps: then(maThree,
			maConnected("c2"), maReconnect("c2", 1), maS("c2", "plan.completed", 2),
			s2c("c2", strings.Replace(maEv("c2", "agent.thinking", 3), "Processing", "Thinking", 1)))},
		{name: "notice item alters an event", want: []string{"myagent.replay-mismatch"}, steps: then(maThree,
			maConnected("c2"), maReconnect("c2", 1),
			maNotice("c2", -1, maItem("plan.completed", 2), strings.Replace(maItem("agent.thinking", 3), "Processing", "Thinking", 1)))},
		{name: "retry alters an event", want: []string{"myagent.retry-mismatch"}, steps: then(maThree,
			s2c("c1", strings.Replace(maEv("c1", "agent.thinking", 3), `"seq":3`, `"seq":3,"show_content":"x"`, 1)))},

		// replay-gap, replay-truncated
		{name: "replay skips an event", want: []string{"myagent.replay-gap"}, steps: then(maPipeline(6),
			maConnected("c2"), maReconnect("c2", 2), maS("c2", "agent.user_confirm", 3), maS("c2", "agent.thinking", 5))},
		{name: "notice list skips an event", want: []string{"myagent.replay-gap"}, steps: then(maPipeline(6),
			maConnected("c2"), maReconnect("c2", 2),
			maNotice("c2", -1, maItem("agent.user_confirm", 3), maItem("agent.thinking", 5), maItem("agent.tool_call", 6)))},
		{name: "replay starts late", want: []string{"myagent.replay-truncated"}, steps: then(maPipeline(6),
			maConnected("c2"), maReconnect("c2", 2), maS("c2", "solver.start", 4), maS("c2", "agent.thinking", 5))},
		{name: "no replay at all before a new event", want: []string{"myagent.replay-truncated"}, steps: then(maPipeline(6),
			maConnected("c2"), maReconnect("c2", 2), maS("c2", "agent.tool_result", 7))},
		{name: "state export covers a truncated buffer", steps: then(maPipeline(6),
			maConnected("c2"), maReconnect("c2", 2), maS("c2", "agent.state_exported", -1), maS("c2", "agent.tool_result", 7))},
		{name: "recovery failed is no silent gap", steps: then(maPipeline(6),
			maConnected("c2"), maReconnect("c2", 2),
			s2c("c2", `{"event":"error.recovery_failed","timestamp":"2025-01-15T10:30:00Z","content":"Session expired"}`),
			maS("c2", "agent.tool_result", 7))},
		{name: "refused claim of a future last_seq does not make later seqs look repeated",
			want: []string{"myagent.reconnect-unseen"}, // the claim itself is the client's bug
			steps: then(maThree,
				maReconnect("c1", 40),
				s2c("c1", `{"event":"error.recovery_failed","timestamp":"2025-01-15T10:30:00Z","content":"last_seq ahead"}`),
				maS("c1", "agent.tool_call", 4), maS("c1", "agent.tool_result", 5))},
		{name: "connection-level system events are not replayed", steps: then(maThree,
			maS("c1", "system.heartbeat", 4), maS("c1", "agent.tool_call", 5), closeConn("c1"),
			maConnected("c2"), maReconnect("c2", 2), maS("c2", "agent.thinking", 3), maS("c2", "agent.tool_call", 5))},
		{name: "reconnect without last_seq resumes after the last ack", steps: then(maThree,
			maAck("c1", 2), closeConn("c1"), maConnected("c2"), maC("c2", "user.reconnect_with_state", ""),
			maS("c2", "agent.thinking", 3), maS("c2", "agent.tool_call", 4))},
		{name: "reconnect without last_seq skips after the last ack", want: []string{"myagent.replay-gap"}, steps: then(maThree,
			maAck("c1", 1), maS("c1", "solver.start", 4), closeConn("c1"), maConnected("c2"), maC("c2", "user.reconnect_with_state", ""),
			maS("c2", "plan.completed", 2), maS("c2", "solver.start", 4))},
		{name: "reconnect without last_seq nor ack is not judged for gaps", steps: then(maThree,
			closeConn("c1"), maConnected("c2"), maC("c2", "user.reconnect_with_state", ""), maS("c2", "agent.tool_call", 4))},

		// replay-duplicate, redelivery-after-ack
		{name: "replay re-sends what the client had", want: []string{"myagent.replay-duplicate"}, steps: then(maThree,
			maConnected("c2"), maReconnect("c2", 2), maS("c2", "plan.start", 1), maS("c2", "agent.thinking", 3))},
		{name: "notice list re-sends what the client had", want: []string{"myagent.replay-duplicate"}, steps: then(maThree,
			maConnected("c2"), maReconnect("c2", 2), maNotice("c2", -1, maItem("plan.start", 1), maItem("agent.thinking", 3)))},
		{name: "replay from last_seq inclusive", steps: then(maThree,
			maConnected("c2"), maReconnect("c2", 2), maS("c2", "plan.completed", 2), maS("c2", "agent.thinking", 3))},
		{name: "replay on the same connection", steps: then(maThree,
			maAck("c1", 3), maReconnect("c1", 1), maS("c1", "plan.completed", 2), maS("c1", "agent.thinking", 3))},
		{name: "acknowledged event delivered again", want: []string{"myagent.redelivery-after-ack"}, steps: then(maThree,
			maAck("c1", 3), maS("c1", "agent.thinking", 3))},
		{name: "event below the ack delivered again", want: []string{"myagent.redelivery-after-ack"}, steps: then(maThree,
			maAck("c1", 3), maS("c1", "plan.completed", 2))},
		{name: "unacknowledged event retried after an ack of a lower seq", steps: then(maThree,
			maAck("c1", 2), maS("c1", "agent.thinking", 3))},

		// step_id pairing
		{name: "response to an unknown step", want: []string{"myagent.response-step"}, steps: then(maThree,
			maResponse("c1", "plan_confirm_9", true))},
		{name: "response before the confirmation", want: []string{"myagent.response-step"}, steps: then(maThree,
			maResponse("c1", "plan_confirm_1", true), maS("c1", "agent.user_confirm", 4))},
		{name: "response answered twice", want: []string{"myagent.response-repeat"}, steps: then(maPipeline(3),
			maConnected("c2"), maResponse("c2", "plan_confirm_1", true))},
		{name: "response from a second client to an open step", steps: then(maThree,
			maS("c1", "agent.user_confirm", 4), maConnected("c3"), maResponse("c3", "plan_confirm_1", false))},
		{name: "confirmation asked again after an answer", steps: then(maPipeline(3),
			maConnected("c2"), maS("c2", "agent.user_confirm", 13), maResponse("c2", "plan_confirm_1", true))},

		// connected-first
		{name: "first server event is not system.connected", want: []string{"myagent.connected-first"}, steps: []step{
			maC("c1", "user.create_session", ""), maS("c1", "plan.start", 1)}},
		{name: "system.connected first, before any client message", steps: []step{
			maConnected("c1"), maC("c1", "user.create_session", ""),
			s2c("c1", `{"event":"agent.session_created","timestamp":"2025-01-15T10:30:00Z","session_id":"sess_123","seq":1}`)}},

		// pipeline-order
		{name: "pipeline.completed during aggregation", want: []string{"myagent.pipeline-order"}, steps: []step{
			maConnected("c1"), maMessage("c1"), maS("c1", "plan.start", 1), maS("c1", "solver.start", 2),
			maS("c1", "aggregate.start", 3), maS("c1", "pipeline.completed", 4)}},
		{name: "a replayed run is judged on the new connection", want: []string{"myagent.pipeline-order"}, steps: then(maThree,
			maS("c1", "solver.start", 4), closeConn("c1"), maConnected("c2"), maReconnect("c2", 0),
			maS("c2", "plan.start", 1), maS("c2", "plan.completed", 2), maS("c2", "agent.thinking", 3),
			maS("c2", "solver.start", 4), maS("c2", "agent.final_answer", 5))},
		{name: "final answer before pipeline.completed", want: []string{"myagent.pipeline-order"}, steps: []step{
			maConnected("c1"), maMessage("c1"), maS("c1", "plan.start", 1), maS("c1", "solver.start", 2),
			maS("c1", "solver.completed", 3), maS("c1", "agent.final_answer", 4)}},
		{name: "pipeline without an aggregator", steps: []step{
			maConnected("c1"), maMessage("c1"), maS("c1", "plan.start", 1), maS("c1", "solver.start", 2),
			maS("c1", "solver.completed", 3), maS("c1", "pipeline.completed", 4), maS("c1", "agent.final_answer", 5)}},
		{name: "plain agent run without a pipeline", steps: []step{
			maConnected("c1"), maMessage("c1"), maS("c1", "agent.thinking", 1), maS("c1", "agent.final_answer", 2)}},
		{name: "declined plan ends the run", steps: []step{
			maConnected("c1"), maMessage("c1"), maS("c1", "plan.start", 1), maS("c1", "agent.user_confirm", 2),
			maResponse("c1", "plan_confirm_1", false), maS("c1", "agent.final_answer", 3)}},
		{name: "cancelled plan ends the run", steps: []step{
			maConnected("c1"), maMessage("c1"), maS("c1", "plan.start", 1), maS("c1", "plan.cancelled", 2),
			maS("c1", "agent.final_answer", 3)}},
		{name: "cancelled solver ends the run", steps: []step{
			maConnected("c1"), maMessage("c1"), maS("c1", "plan.start", 1), maS("c1", "solver.start", 2),
			maS("c1", "solver.cancelled", 3), maS("c1", "agent.final_answer", 4)}},
		{name: "timeout ends the run", steps: []step{
			maConnected("c1"), maMessage("c1"), maS("c1", "plan.start", 1), maS("c1", "solver.start", 2),
			maS("c1", "error.timeout", 3), maS("c1", "agent.final_answer", 4)}},
		{name: "user.cancel ends the run", steps: []step{
			maConnected("c1"), maMessage("c1"), maS("c1", "plan.start", 1), maS("c1", "aggregate.start", 2),
			maC("c1", "user.cancel", ""), maS("c1", "pipeline.completed", 3)}},
		{name: "two clients see the pipeline interleaved", steps: []step{
			maConnected("a"), maConnected("b"), maMessage("a"),
			maS("a", "plan.start", -1), maS("b", "plan.start", -1), maS("a", "solver.start", -1), maS("b", "solver.start", -1),
			maS("a", "aggregate.start", -1), maS("a", "aggregate.completed", -1), maS("b", "aggregate.start", -1),
			maS("a", "pipeline.completed", -1), maS("b", "aggregate.completed", -1), maS("a", "agent.final_answer", -1),
			maS("b", "pipeline.completed", -1), maS("b", "agent.final_answer", -1)}},
		{name: "a retried aggregate.start does not reopen the aggregation", steps: []step{
			maConnected("c1"), maMessage("c1"), maS("c1", "plan.start", 1), maS("c1", "solver.start", 2),
			maS("c1", "aggregate.start", 3), maS("c1", "aggregate.completed", 4), maS("c1", "aggregate.start", 3),
			maS("c1", "pipeline.completed", 5), maS("c1", "agent.final_answer", 6)}},
	})
}

func TestMyagentFindingDetails(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                      string
		steps                     []step
		rule                      string
		pointer, expected, actual string
	}{
		{"seq-order", then(maThree, maS("c1", "agent.tool_call", 10), maS("c1", "agent.tool_result", 4)),
			"myagent.seq-order", "/seq", "> 10", "4"},
		{"ack-unsent", then(maThree, maAck("c1", 7)),
			"myagent.ack-unsent", "/seq", "<= 3 (the highest seq sent)", "7"},
		{"ack-regress", then(maThree, maAck("c1", 3), maAck("c1", 1)),
			"myagent.ack-regress", "/seq", ">= 3", "1"},
		{"replay-gap", then(maPipeline(6), maConnected("c2"), maReconnect("c2", 2),
			maS("c2", "agent.user_confirm", 3), maS("c2", "agent.thinking", 5)),
			"myagent.replay-gap", "/seq", "seq 4 next", "5"},
		{"replay-gap in a notice list", then(maPipeline(6), maConnected("c2"), maReconnect("c2", 2),
			maNotice("c2", -1, maItem("agent.thinking", 5), maItem("agent.user_confirm", 3))),
			"myagent.replay-gap", "/content/events/0/seq", "seq 4 next", "5"},
		{"replay-truncated", then(maPipeline(6), maConnected("c2"), maReconnect("c2", 2), maS("c2", "solver.start", 4)),
			"myagent.replay-truncated", "/seq", "seq 3 next", "4"},
		{"replay-duplicate", then(maThree, maConnected("c2"), maReconnect("c2", 2), maS("c2", "plan.start", 1)),
			"myagent.replay-duplicate", "/seq", ">= 2", "1"},
		{"redelivery-after-ack", then(maThree, maAck("c1", 3), maS("c1", "plan.completed", 2)),
			"myagent.redelivery-after-ack", "/seq", "> 3", "2"},
		{"retry-mismatch", then(maThree, s2c("c1", strings.Replace(maEv("c1", "agent.thinking", 3), "Processing", "Thinking", 1))),
			"myagent.retry-mismatch", "/content", `"Processing query..."`, `"Thinking query..."`},
		{"response-step", then(maPipeline(3), maConnected("c2"), maS("c2", "agent.user_confirm", 4), maResponse("c2", "nope", true)),
			"myagent.response-step", "/step_id", `one of "plan_confirm_1"`, `"nope"`},
		{"response-repeat", then(maPipeline(3), maConnected("c2"), maResponse("c2", "plan_confirm_1", true)),
			"myagent.response-repeat", "/step_id", "the step_id of an open agent.user_confirm", `"plan_confirm_1"`},
		{"connected-first", []step{maS("c1", "plan.start", 1)},
			"myagent.connected-first", "/event", "system.connected", "plan.start"},
		{"pipeline-order", []step{maConnected("c1"), maS("c1", "plan.start", 1), maS("c1", "solver.start", 2),
			maS("c1", "agent.final_answer", 3)},
			"myagent.pipeline-order", "/event", "pipeline.completed before agent.final_answer", "agent.final_answer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := findOne(t, feed(t, "myagent", tc.steps), tc.rule)
			if f.Pointer != tc.pointer || f.Expected != tc.expected || f.Actual != tc.actual {
				t.Errorf("pointer %q expected %q actual %q; want %q %q %q", f.Pointer, f.Expected, f.Actual, tc.pointer, tc.expected, tc.actual)
			}
			if f.Severity != registry[tc.rule].Severity || f.Spec == "" || f.Message == "" {
				t.Errorf("finding does not carry its rule: %+v", f)
			}
		})
	}
}

func TestMyagentReplayMismatchShowsDiff(t *testing.T) {
	t.Parallel()
	altered := strings.Replace(maEv("c2", "agent.thinking", 3), "Processing query...", "Thinking", 1)
	fs := feed(t, "myagent", then(maThree, maConnected("c2"), maReconnect("c2", 2), s2c("c2", altered)))
	f := findOne(t, fs, "myagent.replay-mismatch")
	if !strings.Contains(f.Diff, `- /content: "Processing query..."`) || !strings.Contains(f.Diff, `+ /content: "Thinking"`) {
		t.Errorf("diff does not show the altered member:\n%s", f.Diff)
	}
	if strings.Contains(f.Diff, "connection_id") {
		t.Errorf("diff shows connection_id, which may differ:\n%s", f.Diff)
	}
	if f.Pointer != "/content" || f.Expected != `"Processing query..."` || f.Actual != `"Thinking"` {
		t.Errorf("pointer %q expected %q actual %q", f.Pointer, f.Expected, f.Actual)
	}
	if len(f.Related) != 1 || f.Related[0] != 4 {
		t.Errorf("related = %v, want the original frame 4", f.Related)
	}

	item := strings.Replace(maItem("plan.completed", 2), `"task_count":1`, `"task_count":2`, 1)
	fs = feed(t, "myagent", then(maThree, maConnected("c2"), maReconnect("c2", 1),
		maNotice("c2", -1, maItem("agent.thinking", 3), item)))
	f = findOne(t, fs, "myagent.replay-mismatch")
	if f.Pointer != "/content/events/1/metadata/task_count" || f.Expected != "1" || f.Actual != "2" {
		t.Errorf("notice item: pointer %q expected %q actual %q\n%s", f.Pointer, f.Expected, f.Actual, f.Diff)
	}
	if len(f.Related) != 1 || f.Related[0] != 3 {
		t.Errorf("related = %v, want the original frame 3", f.Related)
	}
}

// TestMyagentMemoryFollowsWindow feeds a long session through a small
// window: what the rules remember stays within it, and a retry of a seq
// the window forgot is not mistaken for an order violation.
func TestMyagentMemoryFollowsWindow(t *testing.T) {
	t.Parallel()
	d, err := dialect.Get("myagent")
	if err != nil {
		t.Fatal(err)
	}
	const window = 8
	s := NewSession(d, Options{ReplayWindow: window})
	steps := []step{maConnected("c1")}
	for i := 1; i <= 200; i++ {
		steps = append(steps, maS("c1", "agent.thinking", i), maAck("c1", i))
	}
	steps = append(steps, maS("c1", "agent.thinking", 150)) // a retry of a forgotten seq, after its ack
	for i := 0; i < 20; i++ {
		steps = append(steps, s2c("c1", fmt.Sprintf(`{"event":"agent.user_confirm","timestamp":"2025-01-15T10:30:00Z","step_id":"step_%d","seq":%d}`, i, 201+i)))
	}
	steps = append(steps, maResponse("c1", "step_0", true)) // a step the window forgot
	var fs []Finding
	for i, st := range steps {
		f := wire.Frame{Conn: st.conn, Dir: st.dir, Index: int64(i), Op: wire.OpText, Payload: []byte(st.json)}
		fs = append(fs, s.Observe(f)...)
	}
	for _, f := range fs {
		if f.Rule == "myagent.seq-order" || f.Severity == Error {
			t.Errorf("unexpected %s", f)
		}
	}
	r := s.rules.(*myagent)
	if n := len(r.known.s); n > window {
		t.Errorf("session remembers %d seqs, window %d", n, window)
	}
	if n := len(r.conns["c1"].delivered.s); n > window {
		t.Errorf("connection remembers %d seqs, window %d", n, window)
	}
	if n := r.conns["c1"].log.byKey.len(); n > window {
		t.Errorf("connection's event log holds %d events, window %d", n, window)
	}
	if n := r.steps.len(); n > window {
		t.Errorf("%d steps remembered, window %d", n, window)
	}
	if n := r.log.byKey.len(); n > window {
		t.Errorf("event log holds %d events, window %d", n, window)
	}
}

// count tallies findings by rule and reports whether any is an error.
func count(fs []Finding) (map[string]int, []Finding) {
	n := map[string]int{}
	var errs []Finding
	for _, f := range fs {
		n[f.Rule]++
		if f.Severity == Error {
			errs = append(errs, f)
		}
	}
	return n, errs
}

// TestMyagentStepIDNull: a step_id null in every event (a Pydantic
// `step_id: str | None = None` serialized; the spec's `step_id?: string`)
// is one warning per member in a session, not an error per frame.
func TestMyagentStepIDNull(t *testing.T) {
	t.Parallel()
	withNull := func(conn, typ string, seq int) step {
		return s2c(conn, strings.Replace(maEv(conn, typ, seq), `"event":`, `"step_id":null,"event":`, 1))
	}
	fs := feed(t, "myagent", []step{maConnected("c1"), maMessage("c1"),
		withNull("c1", "agent.thinking", 1), withNull("c1", "agent.thinking", 2), maAck("c1", 2)})
	n, errs := count(fs)
	if n["schema.null-optional"] != 1 || len(errs) > 0 || len(fs) != 1 {
		t.Errorf("want exactly one schema.null-optional, got %v", fs)
	}
	if f := findOne(t, fs, "schema.null-optional"); f.Pointer != "/step_id" || f.Severity != Warning {
		t.Errorf("finding at %q with severity %s", f.Pointer, f.Severity)
	}
	// a confirmation request needs its step_id: there a null is an error
	fs = feed(t, "myagent", []step{maConnected("c1"),
		s2c("c1", `{"event":"agent.user_confirm","timestamp":"2025-01-15T10:30:00Z","step_id":null,"content":"ok?","seq":1}`)})
	if f := findOne(t, fs, "schema.violation"); f.Pointer != "/step_id" {
		t.Errorf("schema.violation at %q, want /step_id", f.Pointer)
	}
}

// TestMyagentRealServerShapes feeds a session shaped like JasonDZS/myagent's
// (field trial): seq per connection from system.connected on, a string
// system.connected content, heartbeats with metadata only, step_id null,
// acks carrying content.last_seq. Nothing in it breaks a stated
// requirement, so there is no error; the shapes the spec only shows are
// warnings, and the deviation of system.connected is still reported.
func TestMyagentRealServerShapes(t *testing.T) {
	t.Parallel()
	ev := func(conn, typ string, seq int, rest string) step {
		return s2c(conn, fmt.Sprintf(`{"event":%q,"timestamp":"2025-01-15T10:30:%02d.123456","session_id":"sess_1","step_id":null,`+
			`"metadata":{"connection_id":%q},"event_id":"%s-%d","seq":%d%s}`, typ, seq, conn, conn, seq, seq, rest))
	}
	ack := func(conn string, last int) step {
		return maC(conn, "user.ack", fmt.Sprintf(`"content":{"last_seq":%d}`, last))
	}
	session := func(conn string) []step {
		return []step{
			ev(conn, "system.connected", 1, `,"content":"Connected to MyAgent WebSocket Server"`),
			maMessage(conn),
			ev(conn, "plan.start", 2, `,"content":{"question":"Make slides"}`),
			ev(conn, "agent.thinking", 3, `,"content":"Processing..."`),
			ack(conn, 3),
			ev(conn, "system.heartbeat", 4, ``),
			ev(conn, "agent.final_answer", 5, `,"content":"Done"`),
			ack(conn, 5),
		}
	}
	fs := feed(t, "myagent", then(session("a"), session("b")...))
	n, errs := count(fs)
	if len(errs) > 0 {
		t.Errorf("errors on a server that breaks no stated requirement: %v", errs)
	}
	// system.connected's string content and the heartbeat's missing one,
	// on each connection; user.ack's missing seq (shown only), per ack
	if n["schema.shown"] != 2*2+4 {
		t.Errorf("schema.shown: %d, want 8: %v", n["schema.shown"], fs)
	}
	// step_id null: once per member and session, whatever types carry it
	if n["schema.null-optional"] != 1 {
		t.Errorf("schema.null-optional: %d, want 1 (one per member): %v", n["schema.null-optional"], fs)
	}
	for rule := range n {
		if strings.HasPrefix(rule, "myagent.") {
			t.Errorf("unexpected %s: %v", rule, fs)
		}
	}
}

// TestMyagentHeartbeatInterval: the pause between two heartbeats of a
// connection is judged by the frames' wall time, never the pause from the
// connection's start (a server's heartbeat loop may be anywhere).
func TestMyagentHeartbeatInterval(t *testing.T) {
	t.Parallel()
	d, err := dialect.Get("myagent")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2025, 1, 15, 10, 30, 0, 0, time.UTC)
	run := func(at ...time.Duration) []Finding {
		s := NewSession(d, Options{})
		var out []Finding
		out = append(out, s.Observe(wire.Frame{Conn: "c1", Dir: wire.ServerToClient, Index: 1, Op: wire.OpText, Time: t0,
			Payload: []byte(maEv("c1", "system.connected", -1))})...)
		for i, a := range at {
			out = append(out, s.Observe(wire.Frame{Conn: "c1", Dir: wire.ServerToClient, Index: int64(i + 2), Op: wire.OpText,
				Time: t0.Add(a), Payload: []byte(maEv("c1", "system.heartbeat", -1))})...)
		}
		noteFired(out)
		return out
	}
	if n, _ := count(run(59*time.Second, 89*time.Second, 123*time.Second)); n["myagent.heartbeat-interval"] != 0 {
		t.Errorf("a first heartbeat 59 s after connecting, then every 30–34 s: %v", n)
	}
	fs := run(10*time.Second, 70*time.Second, 130*time.Second)
	if n, _ := count(fs); n["myagent.heartbeat-interval"] != 2 {
		t.Fatalf("heartbeats 60 s apart: want 2 heartbeat-interval warnings, got %v", fs)
	}
	f := findOne(t, fs, "myagent.heartbeat-interval")
	if f.Severity != Warning || f.Actual != "1m0s" {
		t.Errorf("finding %+v: want a warning with actual 1m0s", f)
	}
}

// TestMyagentReplayAcrossConnectionsWarns: a replay the server renumbers on
// the new connection, with no seq before the request to show that it
// numbers per connection, is compared with the session's seqs; that
// comparison is our reading of seq as per session, so only warnings.
func TestMyagentReplayAcrossConnectionsWarns(t *testing.T) {
	t.Parallel()
	fs := feed(t, "myagent", then(maThree, closeConn("c1"), maConnected("c2"), maReconnect("c2", 3),
		maS("c2", "agent.tool_call", 1), maS("c2", "agent.tool_result", 2), maAck("c2", 2)))
	n, errs := count(fs)
	if len(errs) > 0 {
		t.Errorf("a comparison of two connections' numbers gave errors: %v", errs)
	}
	if n["myagent.replay-duplicate"] == 0 || n["myagent.replay-mismatch"] == 0 {
		t.Errorf("want replay-duplicate and replay-mismatch warnings, got %v", fs)
	}
}

// TestMyagentReplayRestamped: JasonDZS/myagent answers
// user.reconnect_with_state on a new connection, numbers it on its own
// (system.connected seq 1, as every connection) and replays the old
// connection's events under new seqs, naming the old one in
// metadata.orig_seq. The replay is matched with its originals (by
// content, or by orig_seq): re-stamping is one warning per replay, and
// the new numbers are not judged as duplicates of the session's.
func TestMyagentReplayRestamped(t *testing.T) {
	t.Parallel()
	// ev is an event of the real server's shape; orig >= 0 marks a replay.
	ev := func(conn, sid, typ string, seq, orig int, content string) step {
		extra := ""
		if orig >= 0 {
			extra = fmt.Sprintf(`,"orig_seq":%d,"orig_event_id":"c1-%d"`, orig, orig)
		}
		return s2c(conn, fmt.Sprintf(`{"event":%q,"timestamp":"2025-01-15T10:30:%02d.5","session_id":%q,"content":%s,`+
			`"metadata":{"connection_id":%q%s},"step_id":null,"event_id":"%s-%d","seq":%d}`,
			typ, max(orig, seq), sid, content, conn, extra, conn, seq, seq))
	}
	first := []step{
		maConnectedSeq("c1", 1), maMessage("c1"),
		ev("c1", "old", "plan.start", 2, -1, `{"question":"Make slides"}`),
		ev("c1", "old", "agent.thinking", 3, -1, `"Processing..."`),
		ev("c1", "old", "solver.start", 4, -1, `{"task":{"id":1,"title":"Generate PPT"}}`),
		ev("c1", "old", "agent.final_answer", 5, -1, `"Done"`),
		maC("c1", "user.ack", `"seq":5`),
		closeConn("c1"),
		maConnectedSeq("c2", 1),
		maC("c2", "user.reconnect_with_state", `"signed_state":{"state":{"session_id":"old"}},"last_seq":3`),
		s2c("c2", `{"event":"agent.state_restored","timestamp":"2025-01-15T10:31:00Z","session_id":"new","content":"restored","metadata":{"original_session_id":"old","connection_id":"c2"},"seq":2}`),
	}
	t.Run("re-stamped, same content", func(t *testing.T) {
		fs := feed(t, "myagent", then(first,
			ev("c2", "new", "solver.start", 3, 4, `{"task":{"id":1,"title":"Generate PPT"}}`),
			ev("c2", "new", "agent.final_answer", 4, 5, `"Done"`),
			maC("c2", "user.ack", `"seq":4`)))
		n, errs := count(fs)
		if len(errs) > 0 {
			t.Errorf("errors: %v", errs)
		}
		if n["myagent.replay-restamped"] != 1 {
			t.Errorf("want one replay-restamped per replay, got %v", fs)
		}
		for _, r := range []string{"myagent.replay-duplicate", "myagent.replay-mismatch", "myagent.reconnect-unseen", "myagent.replay-gap", "myagent.replay-truncated"} {
			if n[r] > 0 {
				t.Errorf("%s on a re-stamped replay: %v", r, fs)
			}
		}
		f := findOne(t, fs, "myagent.replay-restamped")
		if f.Severity != Warning || f.Expected != "4 (its seq when first delivered)" || f.Actual != "3" || f.Pointer != "/seq" {
			t.Errorf("finding %+v", f)
		}
	})
	t.Run("re-stamped by content alone", func(t *testing.T) {
		fs := feed(t, "myagent", then(first,
			s2c("c2", `{"event":"agent.final_answer","timestamp":"2025-01-15T10:30:05.5","session_id":"new","content":"Done","metadata":{"connection_id":"c2"},"step_id":null,"event_id":"c2-3","seq":3}`)))
		if n, _ := count(fs); n["myagent.replay-restamped"] != 1 {
			t.Errorf("want replay-restamped, got %v", fs)
		}
	})
	t.Run("orig_seq names an original with other content", func(t *testing.T) {
		fs := feed(t, "myagent", then(first,
			ev("c2", "new", "agent.final_answer", 3, 5, `"Something else"`)))
		n, _ := count(fs)
		if n["myagent.replay-restamped"] != 1 || n["myagent.replay-mismatch"] != 1 {
			t.Errorf("want replay-restamped and replay-mismatch, got %v", fs)
		}
		f := findOne(t, fs, "myagent.replay-mismatch")
		if f.Pointer != "/content" || f.Severity != Warning {
			t.Errorf("mismatch %+v", f)
		}
	})
	// With a fixed clock two events can be identical but for their seq
	// (the same partial answer in two runs): content alone does not say
	// which one a replay delivers.
	same := func(conn string, seq, orig int) step {
		extra := ""
		if orig >= 0 {
			extra = fmt.Sprintf(`,"orig_seq":%d`, orig)
		}
		return s2c(conn, fmt.Sprintf(`{"event":"agent.partial_answer","timestamp":"2025-01-15T10:30:00Z","session_id":"s","content":"Hello",`+
			`"metadata":{"connection_id":%q%s},"step_id":null,"event_id":"%s-%d","seq":%d}`, conn, extra, conn, seq, seq))
	}
	twice := []step{
		maConnectedSeq("c1", 1), maMessage("c1"),
		same("c1", 2, -1),
		ev("c1", "s", "agent.thinking", 3, -1, `"Processing..."`),
		same("c1", 4, -1),
		closeConn("c1"),
		maConnectedSeq("c2", 1),
		maC("c2", "user.reconnect_with_state", `"signed_state":{"state":{"session_id":"s"}},"last_seq":1`),
	}
	quiet := func(t *testing.T, fs []Finding) {
		t.Helper()
		for _, f := range fs {
			if strings.HasPrefix(f.Rule, "myagent.replay") {
				t.Errorf("unexpected %v", f)
			}
		}
	}
	t.Run("identical events at two seqs, faithful replay", func(t *testing.T) {
		quiet(t, feed(t, "myagent", then(twice,
			same("c2", 2, -1), ev("c2", "s", "agent.thinking", 3, -1, `"Processing..."`), same("c2", 4, -1))))
	})
	t.Run("identical events at two seqs, faithful replay of the later one first", func(t *testing.T) {
		// the order is replay-gap's business, not re-stamping's
		fs := feed(t, "myagent", then(twice, same("c2", 4, -1), same("c2", 2, -1)))
		if n, _ := count(fs); n["myagent.replay-restamped"] != 0 {
			t.Errorf("replay-restamped on a faithful replay: %v", fs)
		}
	})
	t.Run("identical event again after a faithful replay is a new one", func(t *testing.T) {
		fs := feed(t, "myagent", then(twice[:2], same("c1", 2, -1), closeConn("c1"), maConnectedSeq("c2", 1),
			maC("c2", "user.reconnect_with_state", `"signed_state":{"state":{"session_id":"s"}},"last_seq":1`),
			same("c2", 2, -1), same("c2", 3, -1)))
		quiet(t, fs)
	})
	t.Run("identical events at two seqs, replay under a third seq", func(t *testing.T) {
		// ambiguous by content: not reported
		fs := feed(t, "myagent", then(twice, same("c2", 7, -1)))
		if n, _ := count(fs); n["myagent.replay-restamped"] != 0 {
			t.Errorf("replay-restamped on an ambiguous match: %v", fs)
		}
	})
	t.Run("identical events at two seqs, orig_seq names one of them", func(t *testing.T) {
		fs := feed(t, "myagent", then(twice, same("c2", 7, 4)))
		if n, _ := count(fs); n["myagent.replay-restamped"] != 1 {
			t.Errorf("want replay-restamped, got %v", fs)
		}
		if f := findOne(t, fs, "myagent.replay-restamped"); f.Expected != "4 (its seq when first delivered)" || f.Actual != "7" {
			t.Errorf("finding %+v", f)
		}
	})
	t.Run("a replay that keeps its seqs is not re-stamped", func(t *testing.T) {
		fs := feed(t, "myagent", then(maThree, maS("c1", "agent.tool_call", 4), closeConn("c1"), maConnected("c2"),
			maReconnect("c2", 2), maS("c2", "agent.thinking", 3), maS("c2", "agent.tool_call", 4)))
		for _, f := range fs {
			if strings.HasPrefix(f.Rule, "myagent.") {
				t.Errorf("unexpected %v", f)
			}
		}
	})
}

// TestMyagentSystemContentReadings: the spec's rule ("Use `content` for
// simple text messages") and its event table ({error: "..."}, {message:
// "..."}) disagree on system.error and system.notice; both readings pass
// without a finding, and content that is neither is still reported.
func TestMyagentSystemContentReadings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		typ, content string
		quiet        bool
	}{
		{"system.error", `"boom"`, true},
		{"system.error", `{"error":"boom"}`, true},
		{"system.error", `42`, false},
		{"system.error", `{"message":"boom"}`, false},
		{"system.notice", `"restarting soon"`, true},
		{"system.notice", `{"message":"restarting soon"}`, true},
		{"system.notice", `[1,2]`, false},
	}
	for _, tc := range cases {
		t.Run(tc.typ+" "+tc.content, func(t *testing.T) {
			t.Parallel()
			ev := fmt.Sprintf(`{"event":%q,"timestamp":"2025-01-15T10:30:00Z","session_id":"sess_123","content":%s}`, tc.typ, tc.content)
			fs := feed(t, "myagent", []step{maConnected("a"), s2c("a", ev)})
			var schema []string
			for _, f := range fs {
				if strings.HasPrefix(f.Rule, "schema.") && f.Type == tc.typ {
					schema = append(schema, f.Rule+": "+f.Message)
				}
			}
			if tc.quiet && len(schema) > 0 {
				t.Errorf("a reading the spec gives was reported: %v", schema)
			}
			if !tc.quiet && len(schema) == 0 {
				t.Errorf("content that is neither reading passed unreported")
			}
		})
	}
}
