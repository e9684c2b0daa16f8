package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

const (
	cwSID   = "550e8400-e29b-41d4-a716-446655440000"
	cwSID2  = "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
	cwCfg   = `{"provider":"openai","model":"gpt-5.2","workingDirectory":"/p","outputDirectory":"/p/out"}`
	cwCHell = `{"type":"client_hello","client":"my-ui","version":"0.1.0"}`
)

// cwHelloCap is server_hello for session sid with the given capabilities.
func cwHelloCap(sid, caps string) string {
	return fmt.Sprintf(`{"type":"server_hello","sessionId":%q,"protocolVersion":"3.0","capabilities":%s,"config":%s}`, sid, caps, cwCfg)
}

func cwHello(sid string) string { return cwHelloCap(sid, `{"modelStreamChunk":"v1"}`) }

// cwMsg builds a message of type t with sessionId sid and extra members.
func cwMsg(t, sid, extra string) string {
	if extra != "" {
		extra = "," + extra
	}
	return fmt.Sprintf(`{"type":%q,"sessionId":%q%s}`, t, sid, extra)
}

func cwUser(sid, text string) string {
	return cwMsg("user_message", sid, fmt.Sprintf(`"text":%q`, text))
}
func cwBusyMsg(sid string, b bool) string {
	return cwMsg("session_busy", sid, fmt.Sprintf(`"busy":%t`, b))
}
func cwAssistant(sid, text string) string {
	return cwMsg("assistant_message", sid, fmt.Sprintf(`"text":%q`, text))
}

func cwChunk(sid, turn string, idx int) string {
	return cwMsg("model_stream_chunk", sid, fmt.Sprintf(
		`"turnId":%q,"index":%d,"provider":"openai","model":"gpt-5.2","partType":"text_delta","part":{"id":"txt_1","text":"t%d"}`, turn, idx, idx))
}

func cwAsk(sid, id string) string {
	return cwMsg("ask", sid, fmt.Sprintf(`"requestId":%q,"question":"Which database?","options":["PostgreSQL","MySQL"]`, id))
}

func cwApproval(sid, id string) string {
	return cwMsg("approval", sid, fmt.Sprintf(`"requestId":%q,"command":"rm -rf /tmp/old","dangerous":true,"reasonCode":"matches_dangerous_pattern"`, id))
}

func cwAskResp(sid, id string) string {
	return cwMsg("ask_response", sid, fmt.Sprintf(`"requestId":%q,"answer":"PostgreSQL"`, id))
}

func cwApprovalResp(sid, id string) string {
	return cwMsg("approval_response", sid, fmt.Sprintf(`"requestId":%q,"approved":true`, id))
}

func cwErr(sid, code string) string {
	return cwMsg("error", sid, fmt.Sprintf(`"message":"Agent is busy","code":%q,"source":"session"`, code))
}

// cwStart is a connection up to an idle session.
func cwStart(conn string) []step {
	return []step{
		s2c(conn, cwHello(cwSID)),
		s2c(conn, cwMsg("session_settings", cwSID, `"enableMcp":true`)),
		c2s(conn, cwCHell),
	}
}

// cwBusyTurn is cwStart plus a user_message, its echo and busy: true.
func cwBusyTurn(conn string) []step {
	return then(cwStart(conn),
		c2s(conn, cwUser(cwSID, "hello")), s2c(conn, cwUser(cwSID, "hello")), s2c(conn, cwBusyMsg(cwSID, true)))
}

// cwClean is a full conversation that a correct server and client produce.
func cwClean(conn, sid string) []step {
	return []step{
		s2c(conn, cwHello(sid)),
		s2c(conn, cwMsg("session_settings", sid, `"enableMcp":true`)),
		c2s(conn, cwCHell),
		// a streamed turn
		c2s(conn, cwMsg("user_message", sid, `"text":"Hello","clientMessageId":"abc-123"`)),
		s2c(conn, cwMsg("user_message", sid, `"text":"Hello","clientMessageId":"abc-123"`)),
		s2c(conn, cwBusyMsg(sid, true)),
		s2c(conn, cwMsg("model_stream_chunk", sid, `"turnId":"turn-1","index":0,"provider":"openai","model":"gpt-5.2","partType":"start","part":{}`)),
		s2c(conn, cwChunk(sid, "turn-1", 1)),
		s2c(conn, cwChunk(sid, "turn-1", 2)),
		s2c(conn, cwMsg("reasoning", sid, `"kind":"reasoning","text":"thinking"`)),
		s2c(conn, cwMsg("model_stream_chunk", sid, `"turnId":"turn-1","index":3,"provider":"openai","model":"gpt-5.2","partType":"finish","part":{"finishReason":"stop"}`)),
		s2c(conn, cwAssistant(sid, "Hi!")),
		s2c(conn, cwBusyMsg(sid, false)),
		// an approval round trip
		c2s(conn, cwUser(sid, "delete the temp files")),
		s2c(conn, cwUser(sid, "delete the temp files")),
		s2c(conn, cwBusyMsg(sid, true)),
		s2c(conn, cwChunk(sid, "turn-2", 0)),
		s2c(conn, cwApproval(sid, "r1")),
		c2s(conn, cwApprovalResp(sid, "r1")),
		s2c(conn, cwChunk(sid, "turn-2", 1)),
		s2c(conn, cwAssistant(sid, "Done, deleted temp files.")),
		s2c(conn, cwBusyMsg(sid, false)),
		// an ask round trip
		c2s(conn, cwUser(sid, "set up a database")),
		s2c(conn, cwUser(sid, "set up a database")),
		s2c(conn, cwBusyMsg(sid, true)),
		s2c(conn, cwAsk(sid, "r2")),
		c2s(conn, cwAskResp(sid, "r2")),
		s2c(conn, cwAssistant(sid, "Using PostgreSQL.")),
		s2c(conn, cwBusyMsg(sid, false)),
		// a cancelled turn with an ask left pending
		c2s(conn, cwUser(sid, "Refactor the entire codebase")),
		s2c(conn, cwUser(sid, "Refactor the entire codebase")),
		s2c(conn, cwBusyMsg(sid, true)),
		s2c(conn, cwAsk(sid, "r3")),
		c2s(conn, cwMsg("cancel", sid, "")),
		s2c(conn, cwBusyMsg(sid, false)),
		// keepalive
		c2s(conn, cwMsg("ping", sid, "")),
		s2c(conn, cwMsg("pong", sid, "")),
	}
}

func TestCoworkerRules(t *testing.T) {
	t.Parallel()
	runRuleCases(t, "coworker", []ruleCase{
		{name: "clean conversation", steps: cwClean("c1", cwSID)},
		{name: "two connections interleaved keep their own state", steps: cwInterleave(cwClean("a", cwSID), cwClean("b", cwSID2))},
		{name: "a closed connection's id starts afresh", steps: then(cwClean("c1", cwSID), closeConn("c1"),
			s2c("c1", cwHello(cwSID2)), c2s("c1", cwUser(cwSID2, "hi")), s2c("c1", cwUser(cwSID2, "hi")),
			s2c("c1", cwBusyMsg(cwSID2, true)), s2c("c1", cwChunk(cwSID2, "turn-1", 0)))},

		// hello-first
		{name: "first server message is not server_hello", want: []string{"coworker.hello-first"}, steps: []step{
			s2c("c1", cwMsg("session_settings", cwSID, `"enableMcp":true`)), s2c("c1", cwHello(cwSID))}},
		{name: "client speaks first, server_hello still first server message", steps: []step{
			c2s("c1", cwCHell), s2c("c1", cwHello(cwSID)), s2c("c1", cwMsg("session_settings", cwSID, `"enableMcp":false`))}},

		// session-id
		{name: "client message with another sessionId", want: []string{"coworker.session-id"},
			steps: then(cwStart("c1"), c2s("c1", cwMsg("list_tools", cwSID2, "")))},
		{name: "server event with another sessionId", want: []string{"coworker.session-id"},
			steps: then(cwStart("c1"), s2c("c1", cwMsg("log", cwSID2, `"line":"x"`)))},
		{name: "pong not echoing the connection's sessionId", want: []string{"coworker.session-id"},
			steps: then(cwStart("c1"), c2s("c1", cwMsg("ping", cwSID, "")), s2c("c1", cwMsg("pong", cwSID2, "")))},
		{name: "ping with another sessionId", want: []string{"coworker.session-id"},
			steps: then(cwStart("c1"), c2s("c1", cwMsg("ping", cwSID2, "")), s2c("c1", cwErr(cwSID, "unknown_session")))},
		{name: "server_hello without sessionId is the server's fault alone", want: []string{"schema.violation"}, steps: []step{
			s2c("c1", `{"type":"server_hello","protocolVersion":"3.0","capabilities":{"modelStreamChunk":"v1"},"config":`+cwCfg+`}`),
			c2s("c1", cwMsg("list_tools", cwSID, "")), s2c("c1", cwMsg("log", cwSID, `"line":"x"`))}},
		{name: "before server_hello nothing is judged", steps: []step{
			c2s("c1", cwMsg("list_tools", cwSID2, "")), s2c("c1", cwHello(cwSID)), c2s("c1", cwMsg("list_tools", cwSID, ""))}},
		{name: "client_hello is exempt", steps: then(cwStart("c1"),
			c2s("c1", fmt.Sprintf(`{"type":"client_hello","client":"ui","sessionId":%q}`, cwSID2)))},
		{name: "missing sessionId is only the schema's", want: []string{"schema.violation"},
			steps: then(cwStart("c1"), c2s("c1", `{"type":"list_tools"}`))},

		// no-resumption: the field trial's agent-coworker kept the session of
		// a closed connection and gave it to a reconnect that asked for it
		// with ?resumeSessionId=: same sessionId, the old turn's chunks went
		// on at index 6 and the old ask was answered on the new connection.
		{name: "server_hello repeats a closed connection's sessionId", want: []string{"coworker.no-resumption"},
			steps: then(cwStart("c1"), closeConn("c1"), s2c("c2", cwHello(cwSID)), c2s("c2", cwMsg("ping", cwSID, "")), s2c("c2", cwMsg("pong", cwSID, "")))},
		{name: "a resumed session is named once, not as the client's stray answer or a chunk out of order",
			want: []string{"coworker.no-resumption"}, urls: cwResumeURL, steps: then(cwBusyTurn("c1"),
				s2c("c1", cwChunk(cwSID, "t1", 0)), s2c("c1", cwChunk(cwSID, "t1", 1)), s2c("c1", cwAsk(cwSID, "r1")), closeConn("c1"),
				s2c("c2", cwHello(cwSID)), c2s("c2", cwAskResp(cwSID, "r1")),
				s2c("c2", cwChunk(cwSID, "t1", 6)), s2c("c2", cwChunk(cwSID, "t1", 7)), s2c("c2", cwAssistant(cwSID, "You answered: yes")))},
		{name: "a resumed session seen alone (the proxy's session per connection): the URL named it",
			want: []string{"coworker.no-resumption"}, urls: cwResumeURL, steps: []step{
				s2c("c2", cwHello(cwSID)), c2s("c2", cwAskResp(cwSID, "r1")), s2c("c2", cwChunk(cwSID, "t1", 6))}},
		{name: "a reconnect that asks to resume and gets a new session is clean", urls: cwResumeURL,
			steps: append(then(cwClean("c1", cwSID), closeConn("c1")), cwClean("c2", cwSID2)...)},
		{name: "a new session's chunks and answers are still judged after a refused resumption",
			want: []string{"coworker.request-id", "coworker.chunk-index"}, urls: cwResumeURL, steps: then(cwBusyTurn("c1"),
				s2c("c1", cwAsk(cwSID, "r1")), closeConn("c1"),
				s2c("c2", cwHello(cwSID2)), c2s("c2", cwAskResp(cwSID2, "r1")), s2c("c2", cwChunk(cwSID2, "t1", 6)))},

		// chunk-index and chunk-gap
		{name: "chunk index does not start at 0", want: []string{"coworker.chunk-index"},
			steps: then(cwBusyTurn("c1"), s2c("c1", cwChunk(cwSID, "t1", 1)))},
		{name: "chunk index repeats", want: []string{"coworker.chunk-index"}, steps: then(cwBusyTurn("c1"),
			s2c("c1", cwChunk(cwSID, "t1", 0)), s2c("c1", cwChunk(cwSID, "t1", 1)), s2c("c1", cwChunk(cwSID, "t1", 1)))},
		{name: "chunk index goes back", want: []string{"coworker.chunk-index"}, steps: then(cwBusyTurn("c1"),
			s2c("c1", cwChunk(cwSID, "t1", 0)), s2c("c1", cwChunk(cwSID, "t1", 1)), s2c("c1", cwChunk(cwSID, "t1", 0)),
			s2c("c1", cwChunk(cwSID, "t1", 2)))},
		{name: "negative index is only the schema's", want: []string{"schema.violation"},
			steps: then(cwBusyTurn("c1"), s2c("c1", cwChunk(cwSID, "t1", -1)))},
		{name: "chunk index skips", want: []string{"coworker.chunk-gap"}, steps: then(cwBusyTurn("c1"),
			s2c("c1", cwChunk(cwSID, "t1", 0)), s2c("c1", cwChunk(cwSID, "t1", 2)), s2c("c1", cwChunk(cwSID, "t1", 3)))},
		{name: "each turn restarts at 0, turns may interleave", steps: then(cwBusyTurn("c1"),
			s2c("c1", cwChunk(cwSID, "t1", 0)), s2c("c1", cwChunk(cwSID, "t1", 1)),
			s2c("c1", cwChunk(cwSID, "t2", 0)), s2c("c1", cwChunk(cwSID, "t1", 2)), s2c("c1", cwChunk(cwSID, "t2", 1)))},
		{name: "same turnId on two connections is two turns", steps: then(cwBusyTurn("a"),
			s2c("a", cwChunk(cwSID, "t1", 0)), s2c("a", cwChunk(cwSID, "t1", 1)),
			s2c("b", cwHello(cwSID2)), s2c("b", cwChunk(cwSID2, "t1", 0)), s2c("b", cwChunk(cwSID2, "t1", 1)))},

		// chunk-capability
		{name: "chunk without the capability", want: []string{"coworker.chunk-capability"}, steps: []step{
			s2c("c1", cwHelloCap(cwSID, `{}`)), s2c("c1", cwChunk(cwSID, "t1", 0)), s2c("c1", cwChunk(cwSID, "t1", 1))}},
		{name: "no chunks without the capability", steps: []step{
			s2c("c1", cwHelloCap(cwSID, `{}`)), c2s("c1", cwUser(cwSID, "hi")), s2c("c1", cwUser(cwSID, "hi")),
			s2c("c1", cwBusyMsg(cwSID, true)), s2c("c1", cwAssistant(cwSID, "hello")), s2c("c1", cwBusyMsg(cwSID, false))}},

		// request-id, request-duplicate, request-cancelled
		{name: "ask_response to an unknown requestId", want: []string{"coworker.request-id"},
			steps: then(cwBusyTurn("c1"), s2c("c1", cwAsk(cwSID, "r1")), c2s("c1", cwAskResp(cwSID, "r9")))},
		{name: "approval_response naming an ask", want: []string{"coworker.request-id"},
			steps: then(cwBusyTurn("c1"), s2c("c1", cwAsk(cwSID, "r1")), c2s("c1", cwApprovalResp(cwSID, "r1")))},
		{name: "requestId of another connection", want: []string{"coworker.request-id"}, steps: then(cwBusyTurn("a"),
			s2c("a", cwApproval(cwSID, "r1")), s2c("b", cwHello(cwSID2)), c2s("b", cwApprovalResp(cwSID2, "r1")))},
		{name: "approval answered twice", want: []string{"coworker.request-duplicate"}, steps: then(cwBusyTurn("c1"),
			s2c("c1", cwApproval(cwSID, "r1")), c2s("c1", cwApprovalResp(cwSID, "r1")), c2s("c1", cwApprovalResp(cwSID, "r1")))},
		{name: "ask answered after cancel", want: []string{"coworker.request-cancelled"}, steps: then(cwBusyTurn("c1"),
			s2c("c1", cwAsk(cwSID, "r1")), c2s("c1", cwMsg("cancel", cwSID, "")), c2s("c1", cwAskResp(cwSID, "r1")))},
		{name: "ask announced after cancel is pending", steps: then(cwBusyTurn("c1"),
			s2c("c1", cwAsk(cwSID, "r1")), c2s("c1", cwMsg("cancel", cwSID, "")), s2c("c1", cwBusyMsg(cwSID, false)),
			c2s("c1", cwUser(cwSID, "again")), s2c("c1", cwUser(cwSID, "again")), s2c("c1", cwBusyMsg(cwSID, true)),
			s2c("c1", cwAsk(cwSID, "r2")), c2s("c1", cwAskResp(cwSID, "r2")))},

		// busy and busy-error
		{name: "user_message while busy, refused", want: []string{"coworker.busy"}, steps: then(cwBusyTurn("c1"),
			c2s("c1", cwUser(cwSID, "again")), s2c("c1", cwErr(cwSID, "busy")))},
		{name: "execute_command while busy", want: []string{"coworker.busy"}, steps: then(cwBusyTurn("c1"),
			c2s("c1", cwMsg("execute_command", cwSID, `"name":"review"`)), s2c("c1", cwErr(cwSID, "busy")))},
		{name: "user_message after busy false", steps: then(cwBusyTurn("c1"),
			s2c("c1", cwBusyMsg(cwSID, false)), c2s("c1", cwUser(cwSID, "again")), s2c("c1", cwUser(cwSID, "again")))},
		{name: "user_message while busy, echoed", want: []string{"coworker.busy", "coworker.busy-error"}, steps: then(cwBusyTurn("c1"),
			c2s("c1", cwUser(cwSID, "again")), s2c("c1", cwChunk(cwSID, "t1", 0)), s2c("c1", cwUser(cwSID, "again")))},
		{name: "user_message while busy, busy false raced it", want: []string{"coworker.busy"}, steps: then(cwBusyTurn("c1"),
			c2s("c1", cwUser(cwSID, "again")), s2c("c1", cwBusyMsg(cwSID, false)), s2c("c1", cwUser(cwSID, "again")))},
		{name: "echo of an earlier message is not the answer", want: []string{"coworker.busy"}, steps: then(cwStart("c1"),
			c2s("c1", cwUser(cwSID, "first")), s2c("c1", cwBusyMsg(cwSID, true)),
			c2s("c1", cwUser(cwSID, "second")), s2c("c1", cwUser(cwSID, "first")), s2c("c1", cwErr(cwSID, "busy")))},
		{name: "echo matched by clientMessageId", want: []string{"coworker.busy", "coworker.busy-error"}, steps: then(cwBusyTurn("c1"),
			c2s("c1", cwMsg("user_message", cwSID, `"text":"x","clientMessageId":"m2"`)),
			s2c("c1", cwMsg("user_message", cwSID, `"text":"x","clientMessageId":"m1"`)),
			s2c("c1", cwMsg("user_message", cwSID, `"text":"x","clientMessageId":"m2"`)))},
	})
}

// cwResumeURL is the URL of the field trial's reconnect: connection c2 asks
// to resume session cwSID.
func cwResumeURL(conn string) string {
	if conn == "c2" {
		return "ws://127.0.0.1:7337/ws?resumeSessionId=" + cwSID
	}
	return "ws://127.0.0.1:7337/ws"
}

// cwInterleave alternates the frames of two sequences.
func cwInterleave(a, b []step) []step {
	var out []step
	for i := 0; i < len(a) || i < len(b); i++ {
		if i < len(a) {
			out = append(out, a[i])
		}
		if i < len(b) {
			out = append(out, b[i])
		}
	}
	return out
}

func TestCoworkerFindingDetails(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, rule                string
		steps                     []step
		pointer, expected, actual string
		frame                     int64
		related                   []int64
		dir                       wire.Direction
	}{
		{name: "hello-first", rule: "coworker.hello-first",
			steps:   []step{s2c("c1", cwMsg("log", cwSID, `"line":"x"`))},
			pointer: "/type", expected: `"server_hello"`, actual: `"log"`, frame: 0, dir: wire.ServerToClient},
		{name: "session-id", rule: "coworker.session-id",
			steps:   then(cwStart("c1"), c2s("c1", cwMsg("reset", cwSID2, ""))),
			pointer: "/sessionId", expected: `"` + cwSID + `"`, actual: `"` + cwSID2 + `"`, frame: 3, dir: wire.ClientToServer},
		{name: "chunk-index first", rule: "coworker.chunk-index",
			steps:   then(cwBusyTurn("c1"), s2c("c1", cwChunk(cwSID, "t1", 3))),
			pointer: "/index", expected: "0", actual: "3", frame: 6, dir: wire.ServerToClient},
		{name: "chunk-index repeat", rule: "coworker.chunk-index",
			steps:   then(cwBusyTurn("c1"), s2c("c1", cwChunk(cwSID, "t1", 0)), s2c("c1", cwChunk(cwSID, "t1", 0))),
			pointer: "/index", expected: "1", actual: "0", frame: 7, dir: wire.ServerToClient},
		{name: "chunk-gap", rule: "coworker.chunk-gap",
			steps:   then(cwBusyTurn("c1"), s2c("c1", cwChunk(cwSID, "t1", 0)), s2c("c1", cwChunk(cwSID, "t1", 4))),
			pointer: "/index", expected: "1", actual: "4", frame: 7, dir: wire.ServerToClient},
		{name: "chunk-capability", rule: "coworker.chunk-capability",
			steps:   []step{s2c("c1", cwHelloCap(cwSID, `{}`)), s2c("c1", cwChunk(cwSID, "t1", 0))},
			pointer: "/type", expected: `server_hello.capabilities.modelStreamChunk "v1"`, actual: "absent", frame: 1, dir: wire.ServerToClient},
		{name: "request-id", rule: "coworker.request-id",
			steps:   then(cwBusyTurn("c1"), s2c("c1", cwApproval(cwSID, "r1")), c2s("c1", cwApprovalResp(cwSID, "r2"))),
			pointer: "/requestId", expected: `one of r1`, actual: `"r2"`, frame: 7, dir: wire.ClientToServer},
		{name: "request-duplicate", rule: "coworker.request-duplicate",
			steps: then(cwBusyTurn("c1"), s2c("c1", cwAsk(cwSID, "r1")), c2s("c1", cwAskResp(cwSID, "r1")),
				c2s("c1", cwAskResp(cwSID, "r1"))),
			pointer: "/requestId", expected: "a pending ask requestId", actual: `"r1" (answered)`, frame: 8, related: []int64{7},
			dir: wire.ClientToServer},
		{name: "request-cancelled", rule: "coworker.request-cancelled",
			steps: then(cwBusyTurn("c1"), s2c("c1", cwAsk(cwSID, "r1")), c2s("c1", cwMsg("cancel", cwSID, "")),
				c2s("c1", cwAskResp(cwSID, "r1"))),
			pointer: "/requestId", expected: "a pending ask requestId", actual: `"r1" (rejected by cancel)`, frame: 8, related: []int64{7},
			dir: wire.ClientToServer},
		{name: "busy", rule: "coworker.busy",
			steps:   then(cwBusyTurn("c1"), c2s("c1", cwUser(cwSID, "again"))),
			pointer: "/type", expected: "session_busy {busy: false} before a new user_message", actual: "busy: true since frame 5",
			frame: 6, related: []int64{5}, dir: wire.ClientToServer},
		{name: "busy-error", rule: "coworker.busy-error",
			steps:   then(cwBusyTurn("c1"), c2s("c1", cwUser(cwSID, "again")), s2c("c1", cwUser(cwSID, "again"))),
			pointer: "/type", expected: `error {code: "busy"}`, actual: "user_message echo", frame: 7, related: []int64{6},
			dir: wire.ServerToClient},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := findOne(t, feed(t, "coworker", tc.steps), tc.rule)
			if f.Pointer != tc.pointer || f.Expected != tc.expected || f.Actual != tc.actual {
				t.Errorf("pointer/expected/actual = %q/%q/%q, want %q/%q/%q",
					f.Pointer, f.Expected, f.Actual, tc.pointer, tc.expected, tc.actual)
			}
			if f.Frame != tc.frame || f.Dir != tc.dir || f.Conn != "c1" {
				t.Errorf("frame/dir/conn = %d/%s/%s, want %d/%s/c1", f.Frame, f.Dir, f.Conn, tc.frame, tc.dir)
			}
			if fmt.Sprint(f.Related) != fmt.Sprint(tc.related) {
				t.Errorf("related = %v, want %v", f.Related, tc.related)
			}
			r, ok := Lookup(tc.rule)
			if !ok || f.Severity != r.Severity || f.Spec != r.Spec || !strings.HasPrefix(r.Spec, "coworker-v3.md §") {
				t.Errorf("finding severity/spec %s/%q do not match rule %+v", f.Severity, f.Spec, r)
			}
		})
	}
}

// TestCoworkerCapabilityOncePerConnection keeps a long stream from flooding
// the report with one finding per chunk.
func TestCoworkerCapabilityOncePerConnection(t *testing.T) {
	t.Parallel()
	steps := []step{s2c("c1", cwHelloCap(cwSID, `{}`))}
	for i := 0; i < 5; i++ {
		steps = append(steps, s2c("c1", cwChunk(cwSID, "t1", i)))
	}
	n := 0
	for _, f := range feed(t, "coworker", steps) {
		if f.Rule == "coworker.chunk-capability" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("chunk-capability fired %d times, want once", n)
	}
}

// TestCoworkerMemoryBounded feeds more turns and requests than the window
// holds: memory stays within the window and forgotten ids are not judged.
func TestCoworkerMemoryBounded(t *testing.T) {
	t.Parallel()
	d, err := dialect.Get("coworker")
	if err != nil {
		t.Fatal(err)
	}
	const window = 4
	s := NewSession(d, Options{ReplayWindow: window})
	var idx int64
	send := func(st step) []Finding {
		idx++
		return s.Observe(wire.Frame{Conn: st.conn, Dir: st.dir, Index: idx, Op: wire.OpText, Payload: []byte(st.json)})
	}
	var fs []Finding
	fs = append(fs, send(s2c("c1", cwHello(cwSID)))...)
	for i := 0; i < 20; i++ {
		turn := fmt.Sprintf("t%d", i)
		fs = append(fs, send(s2c("c1", cwChunk(cwSID, turn, 0)))...)
		fs = append(fs, send(s2c("c1", cwAsk(cwSID, fmt.Sprintf("r%d", i))))...)
	}
	// a chunk of a forgotten turn and an answer to a forgotten ask
	fs = append(fs, send(s2c("c1", cwChunk(cwSID, "t0", 1)))...)
	fs = append(fs, send(c2s("c1", cwAskResp(cwSID, "r0")))...)
	// still judged: a remembered ask
	fs = append(fs, send(c2s("c1", cwAskResp(cwSID, "r19")))...)
	for _, f := range fs {
		if f.Severity >= Warning {
			t.Errorf("unexpected %s", f)
		}
	}
	c := s.rules.(*coworker).conns["c1"]
	if len(c.turns) > window || len(c.turnsOrder) > window || len(c.reqs) > window {
		t.Errorf("state beyond the window: %d turns, %d order, %d requests", len(c.turns), len(c.turnsOrder), len(c.reqs))
	}
	s.Closed("c1")
	if len(s.rules.(*coworker).conns) != 0 {
		t.Errorf("closed connection's state kept")
	}
}

// TestCoworkerRuleEvidence pins each coworker rule's evidence and severity
// (DESIGN.md, the evidence policy): only the spec's words make an error.
func TestCoworkerRuleEvidence(t *testing.T) {
	t.Parallel()
	want := map[string]struct {
		ev  Evidence
		sev Severity
	}{
		"coworker.hello-first":       {Stated, Error},
		"coworker.session-id":        {Stated, Error},
		"coworker.no-resumption":     {Stated, Error},
		"coworker.chunk-index":       {Stated, Error},
		"coworker.chunk-gap":         {Interpretation, Warning},
		"coworker.chunk-capability":  {Stated, Error},
		"coworker.request-id":        {Interpretation, Warning},
		"coworker.request-duplicate": {Interpretation, Warning},
		"coworker.request-cancelled": {Interpretation, Warning},
		"coworker.busy":              {Stated, Warning},
		"coworker.busy-error":        {Stated, Error},
	}
	n := 0
	for _, r := range Rules("coworker") {
		if r.Dialect != "coworker" {
			continue
		}
		n++
		w, ok := want[r.ID]
		if !ok {
			t.Errorf("rule %s: no expectation in this test", r.ID)
			continue
		}
		if r.Evidence != w.ev || r.Severity != w.sev {
			t.Errorf("rule %s: evidence/severity %s/%s, want %s/%s", r.ID, r.Evidence, r.Severity, w.ev, w.sev)
		}
		if strings.TrimSpace(r.Quote) == "" || !strings.HasPrefix(r.Quote, "§") {
			t.Errorf("rule %s: quote %q does not cite a section of the spec", r.ID, r.Quote)
		}
		if err := checkPolicy(r); err != nil {
			t.Error(err)
		}
	}
	if n != len(want) {
		t.Errorf("%d coworker rules, want %d", n, len(want))
	}
}

// TestCoworkerSchemaEvidence: a schema finding lands as hard as the spec's
// words at its pointer, and the nulls real servers send for members the
// spec gives "where available" (or that have no value) are no finding.
func TestCoworkerSchemaEvidence(t *testing.T) {
	t.Parallel()
	status := func(account string) string {
		return cwMsg("provider_status", cwSID, `"providers":[{"provider":"openai","authorized":false,"verified":false,`+
			`"mode":"missing","account":`+account+`,"message":"No API key configured.","checkedAt":"2026-02-09T21:37:00.000Z"}]`)
	}
	slo := cwMsg("harness_slo_result", cwSID, `"result":{"reportOnly":true,"strictMode":false,"passed":false,"fromMs":1,"toMs":2,`+
		`"checks":[{"id":"e","type":"custom","queryType":"promql","query":"up","op":"<=","threshold":0,"windowSec":300,`+
		`"actual":null,"pass":false,"reason":"Failed to run observability query"}]}`)
	runRuleCases(t, "coworker", []ruleCase{
		// quiet: what real servers send
		{name: "provider_status account null", steps: then(cwStart("c1"), s2c("c1", status("null")), s2c("c1", status("null")))},
		{name: "harness_slo_result actual null", steps: then(cwStart("c1"), s2c("c1", slo))},
		{name: "observability_status without a configuration", steps: then(cwStart("c1"),
			s2c("c1", cwMsg("observability_status", cwSID, `"enabled":false`)))},
		{name: "failed observability query", steps: then(cwStart("c1"), s2c("c1", cwMsg("observability_query_result", cwSID,
			`"result":{"queryType":"promql","query":"up","fromMs":1,"toMs":2,"status":"error","data":null,"error":"ECONNREFUSED"}`)))},
		{name: "part members are not typed by the table", steps: then(cwBusyTurn("c1"), s2c("c1", cwMsg("model_stream_chunk", cwSID,
			`"turnId":"t1","index":0,"provider":"openai","model":"m","partType":"tool_result","part":{"toolCallId":"c","toolName":"bash","output":null}`)))},
		{name: "TypeScript numbers need not be integers", steps: then(cwStart("c1"), c2s("c1", cwMsg("harness_slo_evaluate", cwSID,
			`"checks":[{"id":"e","type":"latency","queryType":"promql","query":"up","op":"<","threshold":0.8,"windowSec":90.5}]`)))},

		// stated: an error
		{name: "error code outside the spec's list", want: []string{"schema.violation"},
			steps: then(cwStart("c1"), s2c("c1", cwErr(cwSID, "agent_failure")))},
		{name: "todo status outside the TodoItem union", want: []string{"schema.violation"}, steps: then(cwStart("c1"),
			s2c("c1", cwMsg("todos", cwSID, `"todos":[{"content":"x","status":"done","activeForm":"x-ing"}]`)))},
		{name: "model_stream_chunk part without a required member", want: []string{"schema.violation"}, steps: then(cwBusyTurn("c1"),
			s2c("c1", cwMsg("model_stream_chunk", cwSID, `"turnId":"t1","index":0,"provider":"openai","model":"m","partType":"text_delta","part":{"id":"x"}`)))},
		// shown: a warning
		{name: "session_busy busy not a boolean", want: []string{"schema.shown"}, steps: then(cwStart("c1"),
			s2c("c1", cwMsg("session_busy", cwSID, `"busy":"yes"`)))},
		{name: "provider_status without verified", want: []string{"schema.shown"}, steps: then(cwStart("c1"),
			s2c("c1", cwMsg("provider_status", cwSID, `"providers":[{"provider":"openai","authorized":true}]`)))},
		{name: "harness_context without updatedAt", want: []string{"schema.shown"}, steps: then(cwStart("c1"), s2c("c1", cwMsg("harness_context", cwSID,
			`"context":{"runId":"r","objective":"o","acceptanceCriteria":[],"constraints":[]}`)))},
		// interpretation: a warning
		{name: "client_hello with a non-string sessionId", want: []string{"schema.interpretation"},
			steps: then(cwStart("c1"), c2s("c1", `{"type":"client_hello","client":"ui","sessionId":7}`))},
		// an optional member the spec's prose calls optional may be null
		{name: "client's clientMessageId null (\"// optional\")", steps: then(cwStart("c1"),
			c2s("c1", cwMsg("user_message", cwSID, `"text":"a","clientMessageId":null`)))},
		{name: "skill interface null (\"Optional UI metadata\")", steps: then(cwStart("c1"), s2c("c1", cwMsg("skills_list", cwSID,
			`"skills":[{"name":"pdf","path":"/p","source":"project","enabled":true,"triggers":[],"description":"d","interface":null}]`)))},
		// any other member the schema lets be absent, sent as null: a warning, once
		{name: "echo's clientMessageId null", want: []string{"schema.null-optional"}, steps: then(cwStart("c1"),
			s2c("c1", cwMsg("user_message", cwSID, `"text":"a","clientMessageId":null`)))},
	})
}

// TestCoworkerAccountNull is the field trial's false alarm: agent-coworker
// sends providers[].account: null when it knows no identity (the spec gives
// it "where available"). Two such frames of one session make no error and
// at most one warning.
func TestCoworkerAccountNull(t *testing.T) {
	t.Parallel()
	msg := cwMsg("provider_status", cwSID, `"providers":[{"provider":"codex-cli","authorized":true,"verified":false,`+
		`"mode":"oauth","account":null,"message":"verification failed","checkedAt":"2026-02-09T21:37:00.000Z"}]`)
	fs := feed(t, "coworker", then(cwStart("c1"), s2c("c1", msg), c2s("c1", cwMsg("refresh_provider_status", cwSID, "")), s2c("c1", msg)))
	warnings := 0
	for _, f := range fs {
		switch {
		case f.Severity >= Error:
			t.Errorf("error finding: %s at %q", f, f.Pointer)
		case f.Severity == Warning:
			warnings++
		}
	}
	if warnings > 1 {
		t.Errorf("%d warnings over two frames, want at most one: %v", warnings, fs)
	}
}

// TestCoworkerNullOptionalOnce: a TypeScript optional member sent as null
// on every frame is one warning per session, not one per frame.
func TestCoworkerNullOptionalOnce(t *testing.T) {
	t.Parallel()
	echo := cwMsg("user_message", cwSID, `"text":"a","clientMessageId":null`)
	fs := feed(t, "coworker", then(cwStart("c1"), s2c("c1", echo), s2c("c1", cwBusyMsg(cwSID, false)), s2c("c1", echo)))
	n := 0
	for _, f := range fs {
		if f.Severity >= Error {
			t.Errorf("error finding: %s", f)
		}
		if f.Rule == "schema.null-optional" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("schema.null-optional fired %d times, want once", n)
	}
}

// TestCoworkerSchemaQuotes: a finding carries the words of the spec at its
// pointer, so a reader sees what it rests on.
func TestCoworkerSchemaQuotes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, rule, pointer, quote string
		steps                      []step
	}{
		{"error code", "schema.violation", "/code", "`code` values:", then(cwStart("c1"), s2c("c1", cwErr(cwSID, "agent_failure")))},
		{"approval reasonCode", "schema.violation", "/reasonCode", "`reasonCode` values:", then(cwBusyTurn("c1"),
			s2c("c1", cwMsg("approval", cwSID, `"requestId":"r1","command":"ls","dangerous":false,"reasonCode":"looks_fine"`)))},
		{"session_busy", "schema.shown", "/busy", "(example only)", then(cwStart("c1"), s2c("c1", cwMsg("session_busy", cwSID, `"busy":1`)))},
		{"server_hello protocolVersion", "schema.violation", "/protocolVersion", `protocolVersion === "3.0"`, []step{
			s2c("c1", strings.Replace(cwHello(cwSID), `"3.0"`, `"2.0"`, 1))}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := findOne(t, feed(t, "coworker", tc.steps), tc.rule)
			if f.Pointer != tc.pointer || !strings.Contains(f.Quote, tc.quote) {
				t.Errorf("pointer %q quote %q, want %q and a quote with %q", f.Pointer, f.Quote, tc.pointer, tc.quote)
			}
		})
	}
}
