package minicodex

import "github.com/wsconform/wsconform/reference/server"

// Names of the deliberate spec violations (--mutate NAME).
const (
	mutEventIDRepeats        = "minicodex-event-id-repeats"
	mutReplaySkips           = "minicodex-replay-skips-event"
	mutReplayAlters          = "minicodex-replay-alters-payload"
	mutReplayDuplicates      = "minicodex-replay-duplicates"
	mutDecisionUnknown       = "minicodex-decision-unknown-call"
	mutStatusWithoutRunState = "minicodex-run-status-without-state"
	mutApprovalsDeclined     = "minicodex-approvals-declined"
	mutSendBusy              = "minicodex-send-busy"
	mutNoReplay              = "minicodex-no-replay"
)

// Mutations are the deliberate spec violations this server can commit.
// Each changes one thing at one place and makes the named check rule fire.
// Read-only.
var Mutations = []server.Mutation{
	{Name: mutEventIDRepeats, Rule: "minicodex.event-id-order",
		Summary: "every run's first run_status (starting) is sent twice, so its event_id repeats on the connection"},
	{Name: mutReplaySkips, Rule: "minicodex.replay-gap",
		Summary: "the replay after resume leaves out the first event after last_seen_event_id"},
	{Name: mutReplayAlters, Rule: "minicodex.replay-mismatch",
		Summary: "the first event of a replay after resume carries a different ts than the original"},
	{Name: mutReplayDuplicates, Rule: "minicodex.replay-duplicate",
		Summary: "the replay after resume starts with the event the client last saw (event_id == last_seen_event_id)"},
	{Name: mutDecisionUnknown, Rule: "minicodex.decision-unknown-call",
		Summary: "approval_decision names a call_id that no approval_pending announced (the real one with \"-x\" appended)"},
	{Name: mutStatusWithoutRunState, Rule: "schema.violation",
		Summary: "run_status events leave out the required run_state"},
	// Not a message the check engine can fault: a fake of a vacuous pass
	// (issue 24 saw a server that declines every answer). A deny test
	// passes on it unless a control shows an approved call runs.
	{Name: mutApprovalsDeclined,
		Summary: "every approve counts as a deny: approval_decision deny_continue, and the tool does not run"},
	// The same kind of fake: a refusal, but for another reason than the
	// malformed send a scenario tests (a server that checks for a running
	// run before it reads the command's members).
	{Name: mutSendBusy,
		Summary: "every send on an attached connection is refused BUSY (\"a run is already active\") before its members are looked at"},
	// A server that never replays passes a "resume from the last event
	// replays nothing" test unless a control shows a replay first.
	{Name: mutNoReplay,
		Summary: "a resume replays nothing: welcome, then only new events"},
}
