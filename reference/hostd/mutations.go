package hostd

import "github.com/wsconform/wsconform/reference/server"

// Mutation names: each is a deliberate spec violation, committed only when
// asked for (--mutate NAME), at the one place the server would otherwise
// behave.
const (
	mutFanoutReorders    = "hostd-fanout-reorders"
	mutAckRegresses      = "hostd-ack-regresses"
	mutAckAhead          = "hostd-ack-ahead"
	mutReplayDuplicates  = "hostd-replay-duplicates"
	mutForwardAlters     = "hostd-forward-alters"
	mutInputReforwarded  = "hostd-input-reforwarded"
	mutAckNoLastSeq      = "hostd-ack-no-last-seq"
	mutAckToApps         = "hostd-ack-to-apps"
	mutLoginRefusesAll   = "hostd-login-refuses-all"
	mutAppRefusesAll     = "hostd-app-refuses-all"
	mutInputEndpointGone = "hostd-input-endpoint-missing"
	mutHostRefusesAll    = "hostd-host-refuses-all"
)

// Mutations are the deliberate spec violations this server can commit
// (--mutate NAME). Read-only.
var Mutations = []server.Mutation{
	{Name: mutFanoutReorders, Rule: "hostd.seq-order",
		Summary: "the first event of each run reaches the apps after the second, so an app sees seq 2 then seq 1"},
	{Name: mutAckRegresses, Rule: "hostd.ack-regress",
		Summary: "an event the host replays is acknowledged with its own seq instead of the run's last persisted seq, so last_seq goes down"},
	{Name: mutAckAhead, Rule: "hostd.ack-unsent",
		Summary: "run.ack acknowledges last_seq one beyond the event it answers, a seq the host never sent"},
	{Name: mutReplayDuplicates, Rule: "hostd.app-duplicate",
		Summary: "an event the host replays after a reconnect is forwarded to the apps again, though they already have it"},
	{Name: mutForwardAlters, Rule: "hostd.replay-mismatch",
		Summary: "run.output reaches the apps with text the host did not send"},
	{Name: mutInputReforwarded, Rule: "hostd.input-reforwarded",
		Summary: "a repeated input_id is answered as a duplicate but forwarded to the host again"},
	{Name: mutAckNoLastSeq, Rule: "schema.violation",
		Summary: "run.ack leaves out data.last_seq"},
	{Name: mutAckToApps, Rule: "hostd.wrong-endpoint",
		Summary: "run.ack is sent to the app connections as well as to the host"},
	// Not violations a check rule sees: fakes of a vacuous pass (issue
	// 24). A refusal proves nothing when the server refuses the valid
	// request too (it reads the credential from elsewhere, say), or has no
	// such endpoint (a target at the wrong base path: the runner already
	// calls a WebSocket handshake answered 404 an environment error, but
	// not an HTTP 404); the refusal scenarios' controls make them
	// inconclusive.
	{Name: mutLoginRefusesAll,
		Summary: "POST /auth/login answers 401 whatever the credentials"},
	{Name: mutAppRefusesAll,
		Summary: "every /ws/app connection is closed with 4401, whatever its token"},
	{Name: mutInputEndpointGone,
		Summary: "POST /runs/:run_id/input answers 404 page not found, with or without a token"},
	{Name: mutHostRefusesAll,
		Summary: "every /ws/host connection is closed with 4401, whatever its host token"},
}
