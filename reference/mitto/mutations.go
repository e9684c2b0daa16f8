package mitto

import "github.com/wsconform/wsconform/reference/server"

// The mutations: deliberate spec violations, one check rule each. The
// server asks env.Mutations.Has(name) where it would otherwise behave.
const (
	mutMaxSeqBelowSeq   = "mitto-max-seq-below-seq"
	mutSeqSwapped       = "mitto-seq-swapped"
	mutToolUpdateTwice  = "mitto-tool-update-twice"
	mutIsMineInverted   = "mitto-is-mine-inverted"
	mutPageOverlaps     = "mitto-page-overlaps-before-seq"
	mutPageOverLimit    = "mitto-page-over-limit"
	mutFirstSeqOff      = "mitto-first-seq-off"
	mutNewestFirst      = "mitto-loaded-newest-first"
	mutReplayRetyped    = "mitto-replay-retyped"
	mutHasMoreAlways    = "mitto-has-more-always"
	mutKeepaliveStale   = "mitto-keepalive-max-seq-zero"
	mutCompleteNoCount  = "mitto-prompt-complete-no-count"
	mutDismissWrongID   = "mitto-dismiss-wrong-id"
	mutAckWrongPromptID = "mitto-ack-wrong-prompt-id"
	mutLiveAfterLoad    = "mitto-live-after-load"
	mutPromptBusy       = "mitto-prompt-busy"
	mutRenameIgnored    = "mitto-rename-ignored"
	mutAnswersDeclined  = "mitto-answers-declined"
)

// Mutations are the deliberate spec violations this server can commit
// (--mutate NAME). Each changes one behaviour and names the check rule it
// must make fire.
var Mutations = []server.Mutation{
	{Name: mutMaxSeqBelowSeq, Rule: "mitto.max-seq",
		Summary: "live events carry max_seq one below their own seq"},
	{Name: mutSeqSwapped, Rule: "mitto.seq-order",
		Summary: "the first two chunks of a reply are sent in reverse seq order"},
	{Name: mutToolUpdateTwice, Rule: "mitto.seq-duplicate",
		Summary: "the tool_update that completes a tool call is sent twice with the same seq"},
	{Name: mutIsMineInverted, Rule: "mitto.is-mine",
		Summary: "user_prompt.is_mine is true for every client except the sender"},
	{Name: mutPageOverlaps, Rule: "mitto.events-loaded-range",
		Summary: "a before_seq page also holds the event at before_seq"},
	{Name: mutPageOverLimit, Rule: "mitto.events-loaded-limit",
		Summary: "events_loaded holds one event more than the limit when the session has it"},
	{Name: mutFirstSeqOff, Rule: "mitto.events-loaded-bounds",
		Summary: "events_loaded.first_seq is one below the seq of its first event"},
	{Name: mutNewestFirst, Rule: "mitto.events-loaded-order",
		Summary: "events_loaded lists its events newest first"},
	{Name: mutReplayRetyped, Rule: "mitto.replay-mismatch",
		Summary: "events_loaded reports stored tool_update events as tool_call"},
	{Name: mutHasMoreAlways, Rule: "mitto.events-loaded-has-more",
		Summary: "events_loaded.has_more is always true, even when it holds every event"},
	{Name: mutKeepaliveStale, Rule: "mitto.max-seq-regress",
		Summary: "keepalive_ack reports max_seq 0 whatever the session holds"},
	{Name: mutCompleteNoCount, Rule: "schema.violation",
		Summary: "prompt_complete lacks its required event_count"},
	{Name: mutDismissWrongID, Rule: "mitto.dismiss-unknown",
		Summary: "ui_prompt_dismiss names a request_id that no ui_prompt announced"},
	{Name: mutAckWrongPromptID, Rule: "mitto.prompt-received",
		Summary: "prompt_received names a prompt_id that no client sent"},
	// Not a violation: the spec does not say when a connection starts to
	// get live events. A real mitto server sends none before the
	// connection's first load_events, which its UI always sends first
	// ("Load events (initial, pagination, or sync)"); the runner's
	// openings must make the suite pass against it.
	{Name: mutLiveAfterLoad, Allowed: true,
		Summary: "a connection gets no live events (not even its own prompt's user_prompt) until its first load_events"},
	// Fakes of a vacuous pass (issue 24), seen on a real mitto server. The
	// first refuses every prompt as the real one does while another
	// client's prompt runs, before it looks at the prompt's id: a refusal,
	// but not of a missing prompt_id. The second drops rename_session
	// without a word, as the real server (whose handler has no case for
	// it) does: mitto.md shows a session's name nowhere, so only a rename
	// the server must refuse can tell.
	{Name: mutPromptBusy,
		Summary: "every prompt is refused with \"Failed to send prompt: prompt already in progress\", before its prompt_id is looked at"},
	{Name: mutRenameIgnored,
		Summary: "rename_session is dropped without a word: its name is neither checked nor kept"},
	// A server that declines every answer (issue 24 saw one): a deny test
	// passes on it unless a control shows an allowed call completes.
	{Name: mutAnswersDeclined,
		Summary: "every permission answer counts as a denial and every question's answer is lost (\"You answered: None\")"},
}
