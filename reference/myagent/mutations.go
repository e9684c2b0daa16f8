package myagent

import "github.com/wsconform/wsconform/reference/server"

// The mutations: deliberate spec violations, each committed at exactly one
// point of the server (grep for its constant) and changing nothing else.
const (
	mutSeqRegresses       = "myagent-seq-regresses"
	mutReplaySkips        = "myagent-replay-skips-event"
	mutReplayAlters       = "myagent-replay-alters-payload"
	mutReplayDuplicates   = "myagent-replay-resends-acknowledged"
	mutRedeliveryAfterAck = "myagent-redelivers-acked-event"
	mutConfirmNoStep      = "myagent-confirm-without-step-id"
	mutNoTimestamp        = "myagent-timestamp-omitted"
	mutConnectedLate      = "myagent-connected-not-first"
	mutFinalEarly         = "myagent-final-answer-before-pipeline"
	mutDeclinesAll        = "myagent-declines-every-answer"
	mutAnswerLost         = "myagent-question-answer-lost"
	mutIgnoresAcks        = "myagent-ignores-acks"
	mutNoReplayNoLastSeq  = "myagent-no-replay-without-last-seq"
	mutRefusesAsBusy      = "myagent-refuses-as-busy"
	mutBeatOvertakes      = "myagent-heartbeat-overtakes-partial"
)

// Mutations are the deliberate spec violations this server can commit
// (--mutate NAME). A read-only table. The last five have no rule: no check
// of the frames can see them (the check engine cannot know what an answer
// or an ack should have changed); they fake the vacuous passes of issue 24,
// and the scenarios listed in internal/runner/mutations_myagent_test.go
// must fail or be inconclusive on them.
var Mutations = []server.Mutation{
	{Name: mutSeqRegresses, Rule: "myagent.seq-order",
		Summary: "solver.start skips a seq and the event after it gets the skipped, lower one"},
	{Name: mutReplaySkips, Rule: "myagent.replay-gap",
		Summary: "the replay after user.reconnect_with_state leaves out its second event"},
	{Name: mutReplayAlters, Rule: "myagent.replay-mismatch",
		Summary: "the replay after user.reconnect_with_state re-encodes its first event with a different show_content"},
	{Name: mutReplayDuplicates, Rule: "myagent.replay-duplicate",
		Summary: "the replay after user.reconnect_with_state{last_seq: N} starts at seq N-1, which the client already had"},
	{Name: mutRedeliveryAfterAck, Rule: "myagent.redelivery-after-ack",
		Summary: "user.ack{seq: N} makes the server send event N to that connection again"},
	{Name: mutConfirmNoStep, Rule: "schema.violation",
		Summary: "agent.user_confirm carries no step_id, so no user.response can be paired with it"},
	{Name: mutNoTimestamp, Rule: "myagent.ambiguous.timestamp-required",
		Summary: "server events omit timestamp, which the EventProtocol interface declares required"},
	{Name: mutConnectedLate, Rule: "myagent.connected-first",
		Summary: "a new connection receives a system.notice before system.connected"},
	{Name: mutFinalEarly, Rule: "myagent.pipeline-order",
		Summary: "agent.final_answer is sent before pipeline.completed"},
	{Name: mutDeclinesAll,
		Summary: "every answer to a tool's agent.user_confirm is taken as a denial, whatever it says (JasonDZS/myagent reads content.confirmed, so the spec's {approved: true} declines there)"},
	{Name: mutAnswerLost,
		Summary: "a question's user.response closes the step but its answer is lost: the reply is \"You answered: None\" (as JasonDZS/myagent answered {approved: true})"},
	{Name: mutIgnoresAcks,
		Summary: "user.ack is accepted but not recorded: nothing is pruned and a reconnect without last_seq replays the acknowledged events too"},
	{Name: mutNoReplayNoLastSeq,
		Summary: "user.reconnect_with_state without last_seq replays nothing (it resumes at the session's last seq), so no ack can be seen to change a replay"},
	{Name: mutRefusesAsBusy,
		Summary: "every refused client event is answered with the right error event but the busy reason (RUN_IN_PROGRESS, \"a pipeline is already running\"), whatever was wrong with it"},
	{Name: mutBeatOvertakes, Rule: "myagent.seq-order",
		Summary: "every agent.partial_answer is followed by a system.heartbeat numbered after it and sent before it, as JasonDZS/myagent's heartbeat overtakes the partial answers its outbound channel holds for 75 ms: where a real server's tick lands, at every chunk"},
}
