package runner

import (
	"regexp"
	"sync"

	"github.com/cucumber/godog"
)

// The shared step vocabulary. Every dialect uses the same steps; what
// differs (the type member, the endpoints, the ordering field) is data from
// the dialect's manifest. A client is named ("client "host"") or the
// default one ("the client", "a client").
const who = `(?:the client|a client|client "([^"]+)")`

// Step is one step of the vocabulary, with an example, for --steps and the
// features README.
type Step struct {
	Pattern string
	Example string
	handler any
}

// Steps is the vocabulary in the order godog matches it.
var Steps = []Step{
	{`^` + who + ` connects(?: to "([^"]*)")?$`, `Given client "A" connects to "/ws?session_id={sid}"`, stepConnect},
	{`^` + who + ` connecting(?: to "([^"]*)")? is rejected(?: with (?:close code|HTTP status) (\d+))?$`, `Then a client connecting to "/ws/app?token=bad" is rejected`, stepRejected},
	{`^` + who + ` disconnects$`, `When the client disconnects`, stepDisconnect},
	{`^` + who + ` drops the connection$`, `When client "A" drops the connection`, stepDrop},
	{`^` + who + ` reconnects(?: to "([^"]*)")?$`, `When the client reconnects to "/ws?session_id={sid}"`, stepReconnect},
	{`^` + who + ` sends:$`, `When the client sends: (a JSON docstring)`, stepSend},
	{`^` + who + ` sends the text:$`, `When the client sends the text: (a docstring sent as is)`, stepSendText},
	{`^` + who + ` sends a binary frame of (\d+) bytes$`, `When the client sends a binary frame of 16 bytes`, stepSendBinary},
	{`^` + who + ` sends a text frame of (\d+) bytes$`, `When the client sends a text frame of 2000000 bytes`, stepSendBig},
	{`^` + who + ` receives (?:an? )?"([^"]+)"(?: within (\S+))?$`, `Then the client receives a "welcome" within 2s`, stepReceive},
	{`^` + who + ` receives (?:an? )?"([^"]+)"(?: within (\S+))? with:$`, `Then the client receives "error" with: {"code":"BAD_REQUEST"}`, stepReceiveWith},
	{`^` + who + ` receives, in order:$`, `Then the client receives, in order: (a table of types)`, stepReceiveInOrder},
	{`^` + who + ` receives no "([^"]+)"(?: within (\S+))?$`, `Then client "B" receives no "error" within 1s`, stepReceiveNo},
	{`^` + who + ` receives nothing(?: within (\S+))?$`, `Then the client receives nothing within 500ms`, stepReceiveNothing},
	{`^` + who + ` has received (at least |at most |)(\d+|no) "([^"]+)"(?: messages?)?(?: within (\S+))?(?: where "([^"]+)" (.+))?$`, `Then client "B" has received at least 1 "user_message" within 2s where "client_msg_id" is "m1"`, stepHasReceived},
	{`^the first message ` + who + ` received (?:is|was) (?:an? )?"([^"]+)"$`, `Then the first message the client received is "system.connected"`, stepFirstReceived},
	{`^` + who + ` is closed(?: with code (\d+))?(?: within (\S+))?$`, `Then the client is closed with code 4401`, stepIsClosed},
	{`^` + who + ` stays connected(?: for (\S+))?$`, `Then the client stays connected for 500ms`, stepStaysConnected},
	{`^its "([^"]*)" (.+)$`, `And its "run_state.status" is "running"`, stepIts},
	{`^I remember its "([^"]*)" as "([^"]+)"$`, `And I remember its "session_state.session_id" as "sid"`, stepRememberIts},
	{`^I remember "([^"]*)" as "([^"]+)"$`, `Given I remember "run-{unique}" as "run"`, stepRemember},
	{`^I use the header "([^"]+)" with "([^"]*)"$`, `Given I use the header "Authorization" with "Bearer {token}"`, stepHeader},
	{`^I (GET|POST|PUT|PATCH|DELETE) "([^"]+)"$`, `When I GET "/health"`, stepHTTP},
	{`^I (GET|POST|PUT|PATCH|DELETE) "([^"]+)" with:$`, `When I POST "/auth/login" with: (a JSON docstring)`, stepHTTPWith},
	{`^the HTTP status is (\d+)$`, `Then the HTTP status is 200`, stepStatus},
	{`^the HTTP status is ([1-5])xx$`, `Then the HTTP status is 2xx`, stepStatusClass},
	{`^the refusal names (?:one of )?("[^"]*"(?:(?:, | or )"[^"]*")*)$`, `And the refusal names one of "prompt_id", "prompt id"`, stepRefusalNames},
	{`^the effect cannot be observed: (.+)$`, `And the effect cannot be observed: no message carries the session's name`, stepNotObservable},
	{`^I wait (\S+)$`, `And I wait 200ms`, stepWait},
	{`^` + who + ` skips what it receives within (\S+)$`, `And the client skips what it receives within 300ms`, stepSkip},
}

// register adds the vocabulary to a scenario. The patterns are compiled
// once: godog compiles a pattern given as a string for every scenario,
// which was a fifth of a whole run's CPU.
func register(sc *godog.ScenarioContext) {
	for i, re := range compiledSteps() {
		sc.Step(re, Steps[i].handler)
	}
}

// compiledSteps are the patterns of Steps, compiled (a Regexp is safe for
// concurrent use).
var compiledSteps = sync.OnceValue(func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(Steps))
	for i, s := range Steps {
		out[i] = regexp.MustCompile(s.Pattern)
	}
	return out
})
