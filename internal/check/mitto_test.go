package check

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// mtStoredDocs are the stored forms of the events of the test session, by
// seq, so that every events_loaded re-delivers them identically.
var mtStoredDocs = map[int]string{
	1:  `{"type":"user_prompt","seq":1,"data":{"sender_id":"c-old","prompt_id":"p0","message":"Add a test"}}`,
	2:  `{"type":"agent_message","seq":2,"data":{"html":"<p>Sure.</p>"}}`,
	3:  `{"type":"tool_call","seq":3,"data":{"id":"t1","title":"Read parser.go","status":"pending"}}`,
	4:  `{"type":"tool_update","seq":4,"data":{"id":"t1","status":"completed"}}`,
	5:  `{"type":"user_prompt","seq":5,"data":{"sender_id":"cA","prompt_id":"p1","message":"go"}}`,
	6:  `{"type":"agent_thought","seq":6,"data":{"text":"thinking"}}`,
	7:  `{"type":"agent_message","seq":7,"data":{"html":"<p>Hello world</p>"}}`,
	8:  `{"type":"tool_call","seq":8,"data":{"id":"t2","title":"Run tests","status":"pending"}}`,
	9:  `{"type":"tool_update","seq":9,"data":{"id":"t2","status":"completed"}}`,
	10: `{"type":"agent_message","data":{"seq":10,"html":"<p>Done.</p>"}}`,
}

func mtStored(seq int) string {
	if d, ok := mtStoredDocs[seq]; ok {
		return d
	}
	return fmt.Sprintf(`{"type":"file_read","seq":%d,"data":{"path":"f%d.go"}}`, seq, seq)
}

// mtPage is an events_loaded holding the stored events seqs (in that order).
func mtPage(seqs []int, hasMore bool, max, total int, prepend bool) string {
	docs := make([]string, len(seqs))
	for i, s := range seqs {
		docs[i] = mtStored(s)
	}
	first, last := 0, 0
	if len(seqs) > 0 {
		first, last = seqs[0], seqs[len(seqs)-1]
	}
	return fmt.Sprintf(`{"type":"events_loaded","data":{"events":[%s],"has_more":%t,"first_seq":%d,"last_seq":%d,"max_seq":%d,"total_count":%d,"prepend":%t,"is_prompting":false}}`,
		strings.Join(docs, ","), hasMore, first, last, max, total, prepend)
}

func mtSeqs(from, to int) []int {
	var out []int
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

func mtConnected(client string) string {
	return fmt.Sprintf(`{"type":"connected","data":{"session_id":"20240610-061320-a1b2c3d4","client_id":%q,"acp_server":"claude-code","is_running":true}}`, client)
}

func mtLoadReq(fields string) string { return `{"type":"load_events","data":{` + fields + `}}` }

func mtPrompt(id string) string {
	return fmt.Sprintf(`{"type":"prompt","data":{"message":"go","prompt_id":%q}}`, id)
}

func mtUserPrompt(seq, max int, sender, pid string, mine bool) string {
	return fmt.Sprintf(`{"type":"user_prompt","data":{"seq":%d,"max_seq":%d,"sender_id":%q,"prompt_id":%q,"message":"go","is_mine":%t}}`, seq, max, sender, pid, mine)
}

func mtMessage(seq, max int, html string) string {
	return fmt.Sprintf(`{"type":"agent_message","data":{"seq":%d,"max_seq":%d,"html":%q,"is_prompting":true}}`, seq, max, html)
}

func mtThought(seq, max int) string {
	return fmt.Sprintf(`{"type":"agent_thought","data":{"seq":%d,"max_seq":%d,"text":"thinking","is_prompting":true}}`, seq, max)
}

func mtToolCall(seq, max int, title string) string {
	return fmt.Sprintf(`{"type":"tool_call","data":{"seq":%d,"max_seq":%d,"id":"t2","title":%q,"status":"pending","is_prompting":true}}`, seq, max, title)
}

func mtToolUpdate(seq, max int) string {
	return fmt.Sprintf(`{"type":"tool_update","data":{"seq":%d,"max_seq":%d,"id":"t2","status":"completed","is_prompting":true}}`, seq, max)
}

func mtComplete(max int) string {
	return fmt.Sprintf(`{"type":"prompt_complete","data":{"event_count":%d,"max_seq":%d}}`, max, max)
}

func mtAck(max int) string {
	return fmt.Sprintf(`{"type":"keepalive_ack","data":{"client_time":1718000000123,"server_time":1718000000140,"max_seq":%d,"is_prompting":false,"is_running":true,"queue_length":0,"status":"active"}}`, max)
}

const (
	mtKeepalive = `{"type":"keepalive","data":{"client_time":1718000000123}}`
	mtAsk1      = `{"type":"ui_prompt","data":{"request_id":"q1","prompt_type":"yes_no","question":"Overwrite?","options":[{"id":"yes","label":"Yes"},{"id":"no","label":"No"}],"blocking":true}}`
	mtAnswerYes = `{"type":"ui_prompt_answer","data":{"request_id":"q1","option_id":"yes","label":"Yes"}}`
	mtDismiss1  = `{"type":"ui_prompt_dismiss","data":{"request_id":"q1"}}`
	mtPerm1     = `{"type":"permission","data":{"request_id":"perm-1","title":"Run: npm install","description":"shell","options":["allow_once","reject_once"]}}`
)

// mtHistory: A and B connect to a session holding events 1..4; A loads the
// last two then pages back, B loads everything at once.
var mtHistory = []step{
	s2c("A", mtConnected("cA")), s2c("B", mtConnected("cB")),
	c2s("A", mtLoadReq(`"limit":2`)), s2c("A", mtPage([]int{3, 4}, true, 4, 4, false)),
	c2s("A", mtLoadReq(`"limit":2,"before_seq":3`)), s2c("A", mtPage([]int{1, 2}, false, 4, 4, true)),
	c2s("B", mtLoadReq(``)), s2c("B", mtPage(mtSeqs(1, 4), false, 4, 4, false)),
}

// mtTurn: A prompts, both clients see the broadcast and the agent's answer.
var mtTurn = then(mtHistory,
	c2s("A", mtPrompt("p1")), s2c("A", `{"type":"prompt_received","data":{"prompt_id":"p1"}}`),
	s2c("A", mtUserPrompt(5, 5, "cA", "p1", true)), s2c("B", mtUserPrompt(5, 5, "cA", "p1", false)),
	s2c("A", mtThought(6, 6)), s2c("B", mtThought(6, 6)),
	s2c("A", mtMessage(7, 7, "<p>Hello")), s2c("B", mtMessage(7, 7, "<p>Hello")),
	s2c("A", mtMessage(7, 7, " world</p>")), s2c("B", mtMessage(7, 8, " world</p>")),
	s2c("A", mtToolCall(8, 8, "Run tests")), s2c("B", mtToolCall(8, 8, "Run tests")),
	s2c("A", mtToolUpdate(9, 9)), s2c("B", mtToolUpdate(9, 9)),
	s2c("A", mtMessage(10, 10, "<p>Done.</p>")), s2c("B", mtMessage(10, 10, "<p>Done.</p>")),
	s2c("A", mtComplete(10)), s2c("B", mtComplete(10)),
)

func TestMittoRules(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "mitto", []ruleCase{
		{name: "clean multi-client session", steps: then(mtTurn,
			c2s("A", mtKeepalive), s2c("A", mtAck(10)),
			s2c("A", mtAsk1), s2c("B", mtAsk1), c2s("A", mtAnswerYes), s2c("B", mtDismiss1),
			s2c("A", mtPerm1), c2s("B", `{"type":"permission_answer","data":{"request_id":"perm-1","approved":true}}`),
			closeConn("B"),
			s2c("B2", mtConnected("cB2")), c2s("B2", mtLoadReq(`"after_seq":7`)),
			s2c("B2", mtPage([]int{8, 9, 10}, true, 10, 10, false)),
			s2c("B2", mtAck(10)),
		)},

		// seq order on a connection
		{name: "agent event goes back in seq", want: []string{"mitto.seq-order"},
			steps: then(mtTurn[:20], s2c("A", mtThought(6, 8)))},
		{name: "seq may skip numbers", steps: then(mtTurn[:16], s2c("A", mtToolCall(20, 20, "Run tests")))},
		{name: "seq 0 is no sequence number", steps: then(mtTurn, s2c("A", mtMessage(0, 10, "<p>late</p>")))},
		{name: "user_prompt overtaken by the agent stream", want: []string{"mitto.seq-order-prompt"}, steps: []step{
			s2c("A", mtConnected("cA")), s2c("A", mtToolCall(8, 8, "Run tests")), s2c("A", mtUserPrompt(7, 8, "cX", "px", false))}},
		{name: "tool_call delivered twice", want: []string{"mitto.seq-duplicate"},
			steps: then(mtTurn[:20], s2c("A", mtToolCall(8, 8, "Run tests")))},
		{name: "agent_message chunks share a seq", steps: []step{
			s2c("A", mtMessage(7, 7, "<p>")), s2c("A", mtMessage(7, 7, "<p>")), s2c("A", mtMessage(7, 7, "x"))}},

		// replay: the same seq is the same event
		{name: "broadcast copy differs", want: []string{"mitto.replay-mismatch"}, steps: []step{
			s2c("A", mtToolCall(8, 8, "Run tests")), s2c("B", mtToolCall(8, 8, "Run lint"))}},
		{name: "broadcast copies differ only in max_seq, is_prompting, is_mine", steps: []step{
			s2c("A", mtUserPrompt(5, 5, "cA", "p1", true)),
			s2c("B", `{"type":"user_prompt","data":{"seq":5,"max_seq":6,"sender_id":"cA","prompt_id":"p1","message":"go","is_mine":false,"is_prompting":true}}`)}},
		{name: "live and stored copies differ in shape only", steps: then(mtTurn,
			c2s("A", mtLoadReq(`"after_seq":4`)), s2c("A", mtPage(mtSeqs(5, 10), true, 10, 10, false)))},
		{name: "live and stored copies differ in type", want: []string{"mitto.replay-mismatch"}, steps: []step{
			s2c("A", mtToolCall(2, 2, "Run tests")),
			c2s("B", mtLoadReq(``)), s2c("B", mtPage([]int{1, 2}, false, 2, 2, false))}},
		{name: "a later page alters a stored event", want: []string{"mitto.replay-mismatch"}, steps: then(mtHistory,
			c2s("B2", mtLoadReq(``)),
			s2c("B2", strings.Replace(mtPage(mtSeqs(1, 4), false, 4, 4, false), "Read parser.go", "Read lexer.go", 1)))},
		{name: "seq shared by two types", want: []string{"mitto.replay-mismatch"}, steps: []step{
			s2c("A", mtToolCall(8, 8, "Run tests")), s2c("A", mtToolUpdate(8, 8))}},

		// max_seq
		{name: "live max_seq below its seq", want: []string{"mitto.max-seq"}, steps: []step{
			s2c("A", mtMessage(7, 6, "<p>x</p>"))}},
		{name: "events_loaded max_seq below last_seq", want: []string{"mitto.max-seq"}, steps: []step{
			c2s("A", mtLoadReq(``)), s2c("A", mtPage(mtSeqs(1, 4), false, 3, 4, false))}},
		{name: "keepalive_ack max_seq below a delivered seq", want: []string{"mitto.max-seq-regress"}, steps: then(mtTurn,
			c2s("A", mtKeepalive), s2c("A", mtAck(9)))},
		{name: "prompt_complete max_seq goes down", want: []string{"mitto.max-seq-regress"}, steps: []step{
			s2c("A", mtAck(12)), s2c("A", mtComplete(11))}},
		{name: "max_seq is per connection", steps: then(mtTurn[:12], s2c("C", mtAck(4)))},

		// events_loaded consistency
		{name: "events out of order", want: []string{"mitto.events-loaded-order"}, steps: []step{
			c2s("A", mtLoadReq(``)), s2c("A", mtPage([]int{4, 3}, false, 4, 4, false))}},
		{name: "event repeated in a page", want: []string{"mitto.events-loaded-order"}, steps: []step{
			c2s("A", mtLoadReq(``)), s2c("A", mtPage([]int{3, 3, 4}, false, 4, 4, false))}},
		{name: "coalesced chunks share a seq in a page", steps: []step{
			c2s("A", mtLoadReq(``)),
			s2c("A", `{"type":"events_loaded","data":{"events":[{"type":"agent_message","seq":7,"data":{"html":"<p>a"}},{"type":"agent_message","seq":7,"data":{"html":"b</p>"}}],"has_more":true,"first_seq":7,"last_seq":7,"max_seq":7,"total_count":5,"prepend":false,"is_prompting":false}}`)}},
		{name: "first_seq is not the first event's seq", want: []string{"mitto.events-loaded-bounds"}, steps: []step{
			c2s("A", mtLoadReq(``)), s2c("A", strings.Replace(mtPage([]int{3, 4}, true, 4, 4, false), `"first_seq":3`, `"first_seq":1`, 1))}},
		{name: "empty page has no bounds to check", steps: []step{
			c2s("A", mtLoadReq(``)), s2c("A", mtPage(nil, false, 0, 0, false))}},
		{name: "more events than the default limit", want: []string{"mitto.events-loaded-limit"}, steps: []step{
			c2s("A", mtLoadReq(``)), s2c("A", mtPage(mtSeqs(1, 51), false, 51, 51, false))}},
		{name: "exactly the default limit", steps: []step{
			c2s("A", mtLoadReq(``)), s2c("A", mtPage(mtSeqs(2, 51), true, 51, 51, false))}},
		{name: "more events than the requested limit", want: []string{"mitto.events-loaded-limit"}, steps: []step{
			c2s("A", mtLoadReq(`"limit":2,"before_seq":4`)), s2c("A", mtPage([]int{1, 2, 3}, false, 4, 4, true))}},
		{name: "limit above the maximum on both sides", want: []string{"mitto.load-events-limit", "mitto.events-loaded-limit"}, steps: []step{
			c2s("A", mtLoadReq(`"limit":1000`)), s2c("A", mtPage(mtSeqs(1, 501), false, 501, 501, false))}},
		{name: "server caps an excessive limit at 500", want: []string{"mitto.load-events-limit"}, steps: []step{
			c2s("A", mtLoadReq(`"limit":1000`)), s2c("A", mtPage(mtSeqs(2, 501), true, 501, 501, false))}},
		{name: "sync returns more than the limit", want: []string{"mitto.events-loaded-sync-limit"}, steps: []step{
			c2s("A", mtLoadReq(`"after_seq":1`)), s2c("A", mtPage(mtSeqs(2, 52), true, 52, 52, false))}},
		{name: "before_seq page reaches before_seq", want: []string{"mitto.events-loaded-range"}, steps: []step{
			c2s("A", mtLoadReq(`"limit":2,"before_seq":3`)), s2c("A", mtPage([]int{2, 3}, true, 4, 4, true))}},
		{name: "after_seq sync repeats after_seq", want: []string{"mitto.events-loaded-range"}, steps: []step{
			c2s("A", mtLoadReq(`"after_seq":2`)), s2c("A", mtPage([]int{2, 3, 4}, true, 4, 4, false))}},
		{name: "stale after_seq answered by an initial load", steps: []step{
			c2s("A", mtLoadReq(`"after_seq":20`)), s2c("A", mtPage([]int{3, 4}, true, 4, 4, false))}},
		{name: "unsolicited events_loaded is judged on its own", steps: then(mtHistory,
			s2c("A", mtPage(mtSeqs(5, 60), false, 60, 60, false)))},
		{name: "answers matched by kind, not only by order", steps: []step{
			c2s("A", mtLoadReq(`"limit":2`)), c2s("A", mtLoadReq(`"limit":2,"before_seq":3`)),
			s2c("A", mtPage([]int{1, 2}, false, 4, 4, true)), s2c("A", mtPage([]int{3, 4}, true, 4, 4, false))}},
		{name: "overlapping load dropped by the server", steps: []step{
			c2s("A", mtLoadReq(`"limit":2`)), c2s("A", mtLoadReq(`"limit":2`)),
			s2c("A", mtPage([]int{3, 4}, true, 4, 4, false)),
			c2s("A", mtLoadReq(`"limit":2,"before_seq":3`)), s2c("A", mtPage([]int{1, 2}, false, 4, 4, true))}},
		{name: "has_more although every event was returned", want: []string{"mitto.events-loaded-has-more"}, steps: []step{
			c2s("A", mtLoadReq(``)), s2c("A", mtPage(mtSeqs(1, 4), true, 4, 4, false))}},
		{name: "has_more with older events left", steps: []step{
			c2s("A", mtLoadReq(`"limit":2`)), s2c("A", mtPage([]int{3, 4}, true, 4, 4, false))}},

		// load_events
		{name: "before_seq and after_seq together", want: []string{"mitto.load-events-exclusive"}, steps: []step{
			c2s("A", mtLoadReq(`"before_seq":3,"after_seq":1`)),
			s2c("A", `{"type":"error","data":{"message":"before_seq and after_seq are mutually exclusive"}}`)}},
		{name: "limit of 500 is allowed", steps: []step{c2s("A", mtLoadReq(`"limit":500`))}},

		// UI prompts
		{name: "answer to an unknown prompt", want: []string{"mitto.ui-prompt-answer-unknown"}, steps: []step{
			c2s("A", mtAnswerYes)}},
		{name: "answer with an unknown option", want: []string{"mitto.ui-prompt-answer"}, steps: []step{
			s2c("A", mtAsk1), c2s("A", `{"type":"ui_prompt_answer","data":{"request_id":"q1","option_id":"maybe","label":"Maybe"}}`)}},
		{name: "free-text answer is not held to the options", steps: []step{
			s2c("A", mtAsk1), c2s("A", `{"type":"ui_prompt_answer","data":{"request_id":"q1","option_id":"other","label":"Other","free_text":"only the tests"}}`)}},
		{name: "permission answered through ui_prompt_answer", steps: []step{
			s2c("A", mtPerm1), c2s("A", `{"type":"ui_prompt_answer","data":{"request_id":"perm-1","option_id":"allow_once","label":"Allow"}}`)}},
		{name: "legacy answer to an unknown permission", want: []string{"mitto.ui-prompt-answer-unknown"}, steps: []step{
			c2s("A", `{"type":"permission_answer","data":{"request_id":"perm-9","approved":false}}`)}},
		{name: "answer crossing a dismiss", want: []string{"mitto.ui-prompt-answer-late"}, steps: []step{
			s2c("A", mtAsk1), s2c("A", mtDismiss1), c2s("A", mtAnswerYes)}},
		{name: "second client answers an answered prompt", want: []string{"mitto.ui-prompt-answer-late"}, steps: []step{
			s2c("A", mtAsk1), s2c("B", mtAsk1), c2s("A", mtAnswerYes), c2s("B", mtAnswerYes)}},
		{name: "prompt re-sent after reconnect is open again", steps: []step{
			s2c("A", mtAsk1), s2c("A", mtDismiss1), s2c("A2", mtAsk1), c2s("A2", mtAnswerYes)}},
		{name: "dismiss of an unknown prompt", want: []string{"mitto.dismiss-unknown"}, steps: []step{
			s2c("A", mtDismiss1)}},

		{name: "answer to a prompt announced on another connection", steps: []step{
			s2c("A", mtAsk1), c2s("B", mtAnswerYes)}},

		// values the spec's tables list without closing the type
		{name: "prompt type the table does not list", want: []string{"mitto.value-unlisted"}, steps: []step{
			s2c("A", `{"type":"ui_prompt","data":{"request_id":"tb","prompt_type":"textbox","question":"Edit","options":[],"blocking":true}}`)}},
		{name: "more options than the prompt type allows", want: []string{"mitto.value-unlisted"}, steps: []step{
			s2c("A", `{"type":"ui_prompt","data":{"request_id":"ob","prompt_type":"options_buttons","question":"Pick","options":[{"id":"1","label":"1"},{"id":"2","label":"2"},{"id":"3","label":"3"},{"id":"4","label":"4"},{"id":"5","label":"5"}],"blocking":true}}`)}},
		{name: "three options on a two-button question", want: []string{"mitto.value-unlisted"}, steps: []step{
			s2c("A", strings.Replace(mtAsk1, `]`, `,{"id":"maybe","label":"Maybe"}]`, 1))}},
		{name: "option style the table does not list", want: []string{"mitto.value-unlisted"}, steps: []step{
			s2c("A", strings.Replace(mtAsk1, `"label":"Yes"`, `"label":"Yes","style":"warning"`, 1))}},
		{name: "listed prompt types, counts and styles", steps: []step{
			s2c("A", strings.Replace(mtAsk1, `"label":"Yes"`, `"label":"Yes","style":"success"`, 1)),
			s2c("A", `{"type":"ui_prompt","data":{"request_id":"s","prompt_type":"select","question":"Pick","options":[{"id":"1","label":"1"},{"id":"2","label":"2"},{"id":"3","label":"3"},{"id":"4","label":"4"},{"id":"5","label":"5"},{"id":"6","label":"6"},{"id":"7","label":"7"},{"id":"8","label":"8"},{"id":"9","label":"9"},{"id":"10","label":"10"}],"blocking":true}}`),
			s2c("A", `{"type":"ui_prompt","data":{"request_id":"h","prompt_type":"action_buttons","question":"Next","options":[{"id":"1","label":"1"},{"id":"2","label":"2"},{"id":"3","label":"3"},{"id":"4","label":"4"},{"id":"5","label":"5"}],"blocking":false}}`)}},
		{name: "keepalive_ack status the table does not list", want: []string{"mitto.value-unlisted"}, steps: []step{
			c2s("A", mtKeepalive), s2c("A", strings.Replace(mtAck(0), `"active"`, `"archived"`, 1))}},
		{name: "stored event type the table does not list", want: []string{"mitto.value-unlisted"}, steps: []step{
			c2s("A", mtLoadReq(``)),
			s2c("A", `{"type":"events_loaded","data":{"events":[{"type":"session_start","seq":1,"data":{}},{"type":"tool_call_update","seq":2,"data":{"id":"t1"}}],"has_more":false,"first_seq":1,"last_seq":2,"max_seq":2,"total_count":2,"prepend":false,"is_prompting":false}}`)}},

		// prompts and ownership
		{name: "prompt_received for a prompt nobody sent", want: []string{"mitto.prompt-received"}, steps: []step{
			c2s("A", mtPrompt("p1")), s2c("A", `{"type":"prompt_received","data":{"prompt_id":"p2"}}`)}},
		{name: "prompt_received after a reconnect", steps: []step{
			c2s("A", mtPrompt("p1")), closeConn("A"), s2c("A2", `{"type":"prompt_received","data":{"prompt_id":"p1"}}`)}},
		{name: "is_mine on a client that did not send the prompt", want: []string{"mitto.is-mine"}, steps: then(mtHistory,
			c2s("A", mtPrompt("p1")), s2c("A", mtUserPrompt(5, 5, "cA", "p1", true)), s2c("B", mtUserPrompt(5, 5, "cA", "p1", true)))},
		{name: "is_mine false on the sender", want: []string{"mitto.is-mine"}, steps: then(mtHistory,
			c2s("A", mtPrompt("p1")), s2c("A", mtUserPrompt(5, 5, "cA", "p1", false)))},
		{name: "client_id kept across a reconnect", steps: []step{
			s2c("A", mtConnected("cA")), c2s("A", mtPrompt("p1")), closeConn("A"),
			s2c("A2", mtConnected("cA")), s2c("A2", mtUserPrompt(5, 5, "cA", "p1", true))}},
		{name: "retried prompt taken from the dead connection", steps: []step{
			s2c("A", mtConnected("cA")), c2s("A", mtPrompt("p1")), closeConn("A"),
			s2c("A2", mtConnected("cA2")), c2s("A2", mtPrompt("p1")), s2c("A2", mtUserPrompt(5, 5, "cA", "p1", false))}},
		{name: "prompt from outside the websocket", steps: then(mtHistory,
			s2c("A", mtUserPrompt(5, 5, "loop-runner", "p9", false)), s2c("B", mtUserPrompt(5, 5, "loop-runner", "p9", false)))},
	})
}

// TestMittoEvidence pins the audit of the mitto rules against mitto.md
// (issue #11): what the spec states is an error with its words quoted;
// what we read into its silence is a warning at most.
func TestMittoEvidence(t *testing.T) {
	t.Parallel()
	want := map[string]Evidence{
		"mitto.seq-order": Stated, "mitto.max-seq": Stated, "mitto.events-loaded-limit": Stated,
		"mitto.events-loaded-range": Stated, "mitto.load-events-exclusive": Stated, "mitto.load-events-limit": Stated,
		"mitto.ui-prompt-answer": Stated,
		"mitto.seq-order-prompt": Interpretation, "mitto.seq-duplicate": Interpretation, "mitto.replay-mismatch": Interpretation,
		"mitto.max-seq-regress": Interpretation, "mitto.events-loaded-order": Interpretation, "mitto.events-loaded-bounds": Interpretation,
		"mitto.events-loaded-sync-limit": Interpretation, "mitto.events-loaded-has-more": Interpretation,
		"mitto.ui-prompt-answer-unknown": Interpretation, "mitto.ui-prompt-answer-late": Interpretation,
		"mitto.dismiss-unknown": Interpretation, "mitto.prompt-received": Interpretation, "mitto.is-mine": Interpretation,
		"mitto.value-unlisted": Shown,
	}
	n := 0
	for _, r := range Rules("mitto") {
		if r.Dialect != "mitto" || strings.Contains(r.ID, ".ambiguous.") {
			continue
		}
		n++
		ev, ok := want[r.ID]
		switch {
		case !ok:
			t.Errorf("rule %s is not in the audit table", r.ID)
		case r.Evidence != ev:
			t.Errorf("rule %s: evidence %s, want %s", r.ID, r.Evidence, ev)
		case ev == Stated && (r.Severity != Error || !strings.Contains(r.Quote, "mitto.md §")):
			t.Errorf("rule %s: a stated rule is an error quoting mitto.md, got %s %q", r.ID, r.Severity, r.Quote)
		case ev != Stated && r.Severity != Warning:
			t.Errorf("rule %s: %s evidence makes a warning, got %s", r.ID, ev, r.Severity)
		}
	}
	if n != len(want) {
		t.Errorf("%d mitto rules, the audit table has %d", n, len(want))
	}
}

// TestMittoValueUnlistedOnce: a value the tables do not list is one reading,
// reported once per member and value in a session, not on every frame.
func TestMittoValueUnlistedOnce(t *testing.T) {
	t.Parallel()
	ack := func(status string) step {
		return s2c("A", strings.Replace(mtAck(0), `"active"`, strconv.Quote(status), 1))
	}
	fs := feed(t, "mitto", []step{ack("archived"), ack("archived"), ack("paused"), ack("archived")})
	var got []string
	for _, f := range fs {
		if f.Rule == "mitto.value-unlisted" {
			got = append(got, f.Actual)
			if f.Severity != Warning || f.Pointer != "/data/status" || f.Evidence != Shown {
				t.Errorf("finding %+v: want a shown warning at /data/status", f)
			}
		}
	}
	if fmt.Sprint(got) != `["archived" "paused"]` {
		t.Errorf("value-unlisted reported %v, want archived and paused once each", got)
	}
}

// TestMittoRealServerShapes feeds shapes a real mitto server sends that the
// spec does not forbid: undocumented types and members, null in members the
// spec does not list, stored event types beyond the table, ids that are not
// strings. None of them is an error.
func TestMittoRealServerShapes(t *testing.T) {
	t.Parallel()
	fs := feed(t, "mitto", []step{
		s2c("A", `{"type":"connected","data":{"session_id":"s","client_id":"cA","acp_server":"claude-code","is_running":true,"is_attached":true,"queue_config":{"enabled":true}}}`),
		s2c("A", `{"type":"acp_started","data":{"session_id":"s"}}`),
		c2s("A", mtLoadReq(`"limit":50`)),
		s2c("A", `{"type":"events_loaded","data":{"events":[{"seq":1,"type":"session_start","timestamp":"t","data":{}},{"seq":2,"type":"user_prompt","timestamp":"t","data":{"message":"hi"}}],"has_more":false,"first_seq":1,"last_seq":2,"max_seq":2,"total_count":2,"prepend":false,"is_running":true,"is_prompting":false}}`),
		s2c("A", `{"type":"user_prompt","data":{"seq":3,"max_seq":3,"session_id":"s","sender_id":"cA","prompt_id":7,"message":"go","image_ids":null,"file_ids":null,"is_mine":true,"is_prompting":true}}`),
		s2c("A", `{"type":"keepalive_ack","data":{"client_time":1,"server_time":2,"max_seq":3,"server_max_seq":3,"is_prompting":true,"is_running":true,"queue_length":0,"status":"active","processor_count":0}}`),
	})
	for _, f := range fs {
		if f.Severity >= Error {
			t.Errorf("unexpected error %s", f)
		}
	}
	f := findOne(t, fs, "mitto.value-unlisted")
	if f.Pointer != "/data/events/0/type" || f.Actual != `"session_start"` {
		t.Errorf("value-unlisted at %q for %s, want /data/events/0/type for session_start", f.Pointer, f.Actual)
	}
	findOne(t, fs, "frame.type-undocumented")
}

func TestMittoFindingDetails(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, rule          string
		steps               []step
		pointer, exp, act   string
		related             []int64
		messageMustContains string
	}{
		{name: "seq-order", rule: "mitto.seq-order",
			steps:   []step{s2c("A", mtToolCall(8, 8, "Run tests")), s2c("A", mtThought(6, 8))},
			pointer: "/data/seq", exp: ">= 8", act: "6", messageMustContains: "after tool_call seq 8"},
		{name: "max-seq live", rule: "mitto.max-seq",
			steps:   []step{s2c("A", mtMessage(7, 6, "<p>x</p>"))},
			pointer: "/data/max_seq", exp: ">= 7 (data.seq)", act: "6"},
		{name: "max-seq events_loaded", rule: "mitto.max-seq",
			steps:   []step{c2s("A", mtLoadReq(``)), s2c("A", mtPage(mtSeqs(1, 4), false, 3, 4, false))},
			pointer: "/data/max_seq", exp: ">= 4 (last_seq)", act: "3"},
		{name: "range after_seq", rule: "mitto.events-loaded-range",
			steps:   []step{c2s("A", mtLoadReq(`"after_seq":2`)), s2c("A", mtPage([]int{2, 3}, true, 4, 4, false))},
			pointer: "/data/events/0/seq", exp: "> 2 (after_seq)", act: "2", related: []int64{0}},
		{name: "range on data.seq", rule: "mitto.events-loaded-range",
			steps:   []step{c2s("A", mtLoadReq(`"before_seq":10`)), s2c("A", mtPage([]int{9, 10}, true, 10, 10, true))},
			pointer: "/data/events/1/data/seq", exp: "< 10 (before_seq)", act: "10", related: []int64{0}},
		{name: "limit", rule: "mitto.events-loaded-limit",
			steps:   []step{c2s("A", mtLoadReq(`"limit":2`)), s2c("A", mtPage([]int{2, 3, 4}, true, 4, 4, false))},
			pointer: "/data/events", exp: "at most 2 events", act: "3 events", related: []int64{0},
			messageMustContains: "load_events{limit: 2} (frame 0)"},
		{name: "bounds", rule: "mitto.events-loaded-bounds",
			steps:   []step{c2s("A", mtLoadReq(``)), s2c("A", strings.Replace(mtPage([]int{3, 4}, true, 4, 4, false), `"last_seq":4`, `"last_seq":5`, 1))},
			pointer: "/data/last_seq", exp: "4", act: "5"},
		{name: "exclusive", rule: "mitto.load-events-exclusive",
			steps:   []step{c2s("A", mtLoadReq(`"before_seq":3,"after_seq":1`))},
			pointer: "/data/after_seq", exp: "before_seq or after_seq, not both", act: "before_seq 3 and after_seq 1"},
		{name: "answer option", rule: "mitto.ui-prompt-answer",
			steps:   []step{s2c("A", mtAsk1), c2s("A", `{"type":"ui_prompt_answer","data":{"request_id":"q1","option_id":"maybe","label":"Maybe"}}`)},
			pointer: "/data/option_id", exp: "one of yes; no", act: `"maybe"`},
		{name: "answer unknown", rule: "mitto.ui-prompt-answer-unknown",
			steps:   []step{s2c("A", mtAsk1), c2s("A", `{"type":"ui_prompt_answer","data":{"request_id":"q7","option_id":"yes","label":"Yes"}}`)},
			pointer: "/data/request_id", exp: "one of the open request_ids: q1", act: `"q7"`},
		{name: "late answer", rule: "mitto.ui-prompt-answer-late",
			steps:   []step{s2c("A", mtAsk1), s2c("A", mtDismiss1), c2s("A", mtAnswerYes)},
			pointer: "/data/request_id", exp: "an open prompt", act: "dismissed", related: []int64{1}},
		{name: "is_mine", rule: "mitto.is-mine",
			steps:   []step{s2c("B", mtConnected("cB")), s2c("B", mtUserPrompt(5, 5, "cA", "p1", true))},
			pointer: "/data/is_mine", exp: "false", act: "true"},
		{name: "max_seq regress", rule: "mitto.max-seq-regress",
			steps:   []step{s2c("A", mtMessage(7, 7, "x")), s2c("A", mtAck(6))},
			pointer: "/data/max_seq", exp: ">= 7", act: "6"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := findOne(t, feed(t, "mitto", tc.steps), tc.rule)
			if f.Pointer != tc.pointer || f.Expected != tc.exp || f.Actual != tc.act {
				t.Errorf("pointer/expected/actual = %q/%q/%q, want %q/%q/%q", f.Pointer, f.Expected, f.Actual, tc.pointer, tc.exp, tc.act)
			}
			if fmt.Sprint(f.Related) != fmt.Sprint(tc.related) {
				t.Errorf("related = %v, want %v", f.Related, tc.related)
			}
			if !strings.Contains(f.Message, tc.messageMustContains) {
				t.Errorf("message %q does not contain %q", f.Message, tc.messageMustContains)
			}
			if f.Spec == "" || f.Dir == "" {
				t.Errorf("finding lacks spec or direction: %+v", f)
			}
		})
	}
}

func TestMittoReplayMismatchShowsDiff(t *testing.T) {
	t.Parallel()
	t.Run("stored", func(t *testing.T) {
		t.Parallel()
		fs := feed(t, "mitto", then(mtHistory,
			c2s("B2", mtLoadReq(``)),
			s2c("B2", strings.Replace(mtPage(mtSeqs(1, 4), false, 4, 4, false), "Read parser.go", "Read lexer.go", 1))))
		f := findOne(t, fs, "mitto.replay-mismatch")
		if !strings.Contains(f.Diff, `- /data/title: "Read parser.go"`) || !strings.Contains(f.Diff, `+ /data/title: "Read lexer.go"`) {
			t.Errorf("diff does not show the altered member:\n%s", f.Diff)
		}
		if f.Pointer != "/data/events/2/data/title" {
			t.Errorf("pointer = %q, want the altered member of the event", f.Pointer)
		}
		if len(f.Related) != 1 || f.Related[0] != 3 {
			t.Errorf("related = %v, want frame 3 (A's first page)", f.Related)
		}
	})
	t.Run("live", func(t *testing.T) {
		t.Parallel()
		fs := feed(t, "mitto", []step{s2c("A", mtToolCall(8, 8, "Run tests")), s2c("B", mtToolCall(8, 9, "Run lint"))})
		f := findOne(t, fs, "mitto.replay-mismatch")
		if f.Diff != "- /data/title: \"Run tests\"\n+ /data/title: \"Run lint\"" {
			t.Errorf("diff should name only the title (max_seq is ignored):\n%s", f.Diff)
		}
		if f.Pointer != "/data/title" || f.Expected != `"Run tests"` || f.Actual != `"Run lint"` {
			t.Errorf("pointer/expected/actual = %q/%q/%q", f.Pointer, f.Expected, f.Actual)
		}
	})
	t.Run("type", func(t *testing.T) {
		t.Parallel()
		fs := feed(t, "mitto", []step{s2c("A", mtToolCall(2, 2, "x")),
			c2s("B", mtLoadReq(``)), s2c("B", mtPage([]int{1, 2}, false, 2, 2, false))})
		f := findOne(t, fs, "mitto.replay-mismatch")
		if f.Pointer != "/data/events/1/type" || !strings.Contains(f.Diff, `+ /type: "agent_message"`) {
			t.Errorf("pointer %q diff:\n%s", f.Pointer, f.Diff)
		}
	})
}

// TestMittoBoundedMemory feeds a session with a tiny replay window: ids that
// fell out of the window are no longer judged as never announced.
func TestMittoBoundedMemory(t *testing.T) {
	t.Parallel()
	d, err := dialect.Get("mitto")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(d, Options{ReplayWindow: 2})
	steps := []step{s2c("A", mtAsk1)}
	for i := 0; i < 3; i++ {
		steps = append(steps, s2c("A", strings.Replace(mtAsk1, `"q1"`, fmt.Sprintf(`"r%d"`, i), 1)))
	}
	steps = append(steps, c2s("A", mtAnswerYes), s2c("A", mtDismiss1))
	for i, st := range steps {
		fs := s.Observe(wire.Frame{Conn: st.conn, Dir: st.dir, Index: int64(i), Op: wire.OpText, Payload: []byte(st.json)})
		for _, f := range fs {
			if f.Severity >= Warning {
				t.Errorf("frame %d: unexpected %s", i, f)
			}
		}
	}
	r := s.rules.(*mitto)
	if r.asks.len() != 2 || r.types.byKey.len() > 2 {
		t.Errorf("memory not bounded: %d asks, %d types", r.asks.len(), r.types.byKey.len())
	}
}

func TestMittoRulesRegistered(t *testing.T) {
	t.Parallel()
	for _, r := range Rules("mitto") {
		if r.Dialect != "mitto" || strings.Contains(r.ID, ".ambiguous.") {
			continue
		}
		if !strings.HasPrefix(r.ID, "mitto.") || !strings.HasPrefix(r.Spec, "mitto.md §") || r.Summary == "" {
			t.Errorf("rule %s lacks an id prefix, a spec citation or a summary", r.ID)
		}
		if strings.Contains(r.Spec, "interpretation") && r.Severity == Error {
			t.Errorf("rule %s is an interpretation but an error", r.ID)
		}
	}
}

// TestMittoMalformedMessages feeds schema-invalid shapes of every type: the
// stateful rules read them defensively and never panic.
func TestMittoMalformedMessages(t *testing.T) {
	t.Parallel()
	var steps []step
	shapes := []string{`"x"`, `null`, `[]`, `{}`, `{"seq":"1","max_seq":-1,"events":{"0":1},"request_id":7,"options":"a","prompt_id":[],"is_mine":"yes","client_id":1,"limit":1.5,"before_seq":"3","after_seq":null}`,
		`{"seq":3,"max_seq":1,"events":[1,"x",null,{"seq":"2"},{"type":7,"data":"x"},{"type":"tool_call","seq":2},{"type":"tool_call","seq":1}],"first_seq":"a","last_seq":9,"has_more":"no","total_count":-5,"prepend":1,"request_id":"q","options":[1,{"id":2},{"id":"a"}],"option_id":5,"sender_id":3,"prompt_id":"p","is_mine":true}`}
	for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
		d, _ := dialect.Get("mitto")
		for _, typ := range d.Messages[dir] {
			for _, data := range shapes {
				steps = append(steps, step{"A", dir, fmt.Sprintf(`{"type":%q,"data":%s}`, typ, data)})
			}
			steps = append(steps, step{"A", dir, fmt.Sprintf(`{"type":%q}`, typ)})
		}
	}
	_ = feed(t, "mitto", steps)
}
