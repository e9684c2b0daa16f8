package proxy

import (
	"fmt"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// The proxy's own findings. They are not check-engine rules (no spec
// requires them): they say what the proxy itself did to a connection or
// could not do, so a reader of the log or the report is never left
// guessing why frames are missing or a connection ended.
//
// Every one is an interpretation (a warning at most, by the evidence
// policy of internal/check): none of them is a requirement a spec states
// for the peers. proxy.upstream-refused is the exception in effect, not
// in severity: a refused handshake is no broken MUST (RFC 6455 lets a
// server answer with any HTTP status), but nothing was tested either, so
// when nothing else was judged (or it refused a judged session's
// reconnection) its session's verdict is error (the harness could not
// test), decided by the report (sessionLog.verdict), never passed.
var (
	// RuleValidationGap: frames were relayed and recorded but not checked
	// because the validator fell behind.
	RuleValidationGap = check.Rule{ID: "proxy.validation-gap", Severity: check.Warning, Evidence: check.Interpretation,
		Spec:    "interpretation: wsproxy's bounded validation queue (--validation-queue), not a spec rule",
		Summary: "Every relayed frame is checked; when the validator falls behind, frames are relayed and recorded but not checked, and the gap is reported."}
	// RuleFrameTooLarge: a peer sent a message over --max-frame.
	RuleFrameTooLarge = check.Rule{ID: "proxy.frame-too-large", Severity: check.Warning, Evidence: check.Interpretation,
		Spec:    "interpretation: wsproxy's message size limit (--max-frame), not a spec rule",
		Summary: "A message larger than the proxy's limit is not relayed; the connection is closed with 1009 (message too big) on both legs."}
	// RuleSlowPeer: a peer read so slowly that its relay queue stayed full.
	RuleSlowPeer = check.Rule{ID: "proxy.slow-peer", Severity: check.Warning, Evidence: check.Interpretation,
		Spec:    "interpretation: wsproxy's bounded relay queues and write deadline (--write-timeout), not a spec rule",
		Summary: "A peer that does not accept messages within the write timeout is disconnected rather than buffered without bound."}
	// RuleUpstreamRefused: the upstream refused a WebSocket handshake or an
	// HTTP request (4xx, 5xx), or the proxy could not reach it, or the
	// proxy itself refused the client (--max-conns).
	RuleUpstreamRefused = check.Rule{ID: "proxy.upstream-refused", Severity: check.Warning, Evidence: check.Interpretation,
		Spec:  "RFC 6455 §4.1, §4.2.2; interpretation: wsproxy tests nothing on a connection it could not make",
		Quote: "If the status code received from the server is not 101, the client handles the response per HTTP [RFC2616] procedures.",
		Summary: "A WebSocket handshake the upstream answered with another status than 101, or that could not reach it, is nothing tested: " +
			"when no connection was judged (or it was a judged session's reconnection) the report's verdict is error, never passed; " +
			"next to judged sessions it is a warning. HTTP requests the upstream answered with 5xx (or could not answer) count the same; " +
			"4xx answers to plain HTTP requests are warnings (an app's 401 before login is normal); a 4xx answer to one of the dialect's own HTTP requests " +
			"(hostd's login and input) is judged by the dialect's rules instead."}
	// RuleOriginRefused: the proxy refused a WebSocket handshake from a
	// browser page of another site (--allow-origin).
	RuleOriginRefused = check.Rule{ID: "proxy.origin-refused", Severity: check.Warning, Evidence: check.Interpretation,
		Spec: "RFC 6455 §10.2; interpretation: wsproxy's --allow-origin",
		Quote: "Servers that are not intended to process input from any web page but only for certain sites SHOULD verify the |Origin| field is an origin they expect. " +
			"If the origin indicated is unacceptable to the server, then it SHOULD respond to the WebSocket handshake with a reply containing HTTP 403 Forbidden status code.",
		Summary: "A WebSocket handshake from a browser page that is not of this machine (nor listed by --allow-origin) is refused with 403 before the upstream is dialled, " +
			"so that a site the developer visits cannot read an agent session through the proxy. Nothing is tested on it; it counts as a refused handshake."}
	// RuleBadClose: a peer's close frame could not be passed on as sent: its
	// reason is not UTF-8, or its code is one no endpoint may send.
	RuleBadClose = check.Rule{ID: "proxy.bad-close", Severity: check.Warning, Evidence: check.Interpretation,
		Spec: "RFC 6455 §5.5.1, §7.4.1, §8.1; interpretation: what wsproxy passes on",
		Quote: "If there is a body, the first two bytes of the body MUST be a 2-byte unsigned integer (in network byte order) representing a status code with value /code/ defined in Section 7.4. " +
			"Following the 2-byte integer, the body MAY contain UTF-8-encoded data with value /reason/",
		Summary: "A close reason that is not UTF-8 is passed on with U+FFFD for the invalid bytes, with the peer's code; a close code no endpoint may send " +
			"(1004-1006, 1015, outside 1000-2999's assigned codes and 3000-4999) closes both legs with 1002. Either way the recording has the frame as sent."}
	// RuleMemoryBudget: the relay queues of all connections together
	// reached --memory-budget; the connection that pushed past it was
	// closed with 1013.
	RuleMemoryBudget = check.Rule{ID: "proxy.memory-budget", Severity: check.Warning, Evidence: check.Interpretation,
		Spec:    "interpretation: wsproxy's global memory budget (--memory-budget), not a spec rule",
		Summary: "Messages buffered for slow peers across all connections stay under the budget; the connection that would exceed it is closed with 1013 (try again later)."}
	// RuleIdle: an upgraded connection on which neither peer sent anything
	// within --idle-timeout was closed.
	RuleIdle = check.Rule{ID: "proxy.idle-timeout", Severity: check.Info, Evidence: check.Interpretation,
		Spec:    "interpretation: wsproxy's idle timeout for connections that never speak (--idle-timeout), not a spec rule",
		Summary: "A connection on which neither peer sends a single frame within the idle timeout is closed with 1001, so that silent sockets do not hold connection slots."}
)

// Rules lists the proxy's own finding rules, for documentation and tests.
func Rules() []check.Rule {
	return []check.Rule{RuleValidationGap, RuleFrameTooLarge, RuleSlowPeer, RuleUpstreamRefused, RuleOriginRefused, RuleBadClose, RuleMemoryBudget, RuleIdle}
}

// of starts a finding of rule r.
func of(r check.Rule) check.Finding {
	return check.Finding{Rule: r.ID, Severity: r.Severity, Evidence: r.Evidence, Spec: r.Spec, Quote: r.Quote}
}

func gapFinding(conn string, frame int64, n int) check.Finding {
	f := of(RuleValidationGap)
	f.Message = fmt.Sprintf("%d frame(s) on %s were relayed and recorded but not checked: the validator fell behind (queue full); "+
		"findings that depend on them may be missing or spurious; `wsconform validate` of the recording checks every frame", n, conn)
	f.Expected, f.Actual = "every frame checked", fmt.Sprintf("%d not checked", n)
	f.Conn, f.Frame = conn, frame
	return f
}

func tooLargeFinding(conn string, dir wire.Direction, limit int64) check.Finding {
	f := of(RuleFrameTooLarge)
	f.Message = fmt.Sprintf("the %s sent a message larger than --max-frame; the connection was closed with 1009", sender(dir))
	f.Expected, f.Actual = fmt.Sprintf("at most %d bytes", limit), "more"
	f.Conn, f.Dir = conn, dir
	return f
}

// slowFinding blames the slow peer: dir is the direction that peer sends,
// so the finding's direction says whom it is about, as for rule findings.
func slowFinding(conn string, dir wire.Direction, why string) check.Finding {
	f := of(RuleSlowPeer)
	f.Message = fmt.Sprintf("the %s did not accept messages in time (%s); the connection was closed", sender(dir), why)
	f.Expected, f.Actual = "messages accepted within the write timeout", why
	f.Conn, f.Dir = conn, dir
	return f
}

// budgetFinding: the queue towards the peer that sends dir grew past the
// global budget.
func budgetFinding(conn string, dir wire.Direction, budget int64) check.Finding {
	f := of(RuleMemoryBudget)
	f.Message = fmt.Sprintf("messages waiting for the %s brought the proxy's buffers over --memory-budget; the connection was closed with 1013", sender(dir))
	f.Expected, f.Actual = fmt.Sprintf("at most %d bytes buffered across all connections", budget), "more"
	f.Conn, f.Dir = conn, dir
	return f
}

func idleFinding(conn string, after string) check.Finding {
	f := of(RuleIdle)
	f.Message = fmt.Sprintf("neither peer sent a frame within --idle-timeout (%s); the connection was closed with 1001", after)
	f.Expected, f.Actual = "a frame within "+after, "none"
	f.Conn = conn
	return f
}

// badCloseFinding: the peer that sends dir sent a close frame the proxy
// could not pass on as it was (why; actual says what the frame held).
func badCloseFinding(conn string, dir wire.Direction, why, actual string) check.Finding {
	f := of(RuleBadClose)
	f.Message = why
	f.Expected, f.Actual = "a close code of 1000-1003, 1007-1014 or 3000-4999 and a UTF-8 reason", actual
	f.Conn, f.Dir = conn, dir
	return f
}

// refusedFinding describes a refusal (see refusal).
func refusedFinding(rf refusal) check.Finding {
	f := of(RuleUpstreamRefused)
	if rf.origin != "" {
		f = of(RuleOriginRefused)
	}
	what := "WebSocket handshake"
	expected := "101 Switching Protocols"
	if rf.http {
		what = "HTTP request " + rf.method
		expected = "a 1xx, 2xx or 3xx answer"
	}
	f.Message = fmt.Sprintf("%s %s: %s", what, rf.path, rf.why)
	f.Expected = expected
	f.Actual = rf.status
	if rf.body != "" {
		f.Actual += ": " + rf.body
	}
	f.Conn = rf.conn
	if rf.fatal {
		// The verdict is decided by the report (sessionLog.verdict), not
		// the severity.
		f.Message += "; nothing was tested on it"
	}
	if rf.resumes != "" {
		f.Message += fmt.Sprintf(" (a reconnection of session %s: its resumption was not tested)", rf.resumes)
	}
	return f
}

func sender(dir wire.Direction) string {
	if dir == wire.ClientToServer {
		return "client"
	}
	return "upstream"
}
