package check

import (
	"fmt"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// HTTP exchanges of the protocol (a dialect's declared endpoints, see
// dialect.HTTPEndpoint) are judged in the session whose frames they sit
// among, because a guarantee may span both: hostd's input_id makes an
// input sent over HTTP and one sent as run.send_input the same input. A
// finding about the request blames the client (c2s), one about the answer
// the server (s2c); its Conn is the exchange's id and its Frame the
// exchange's index.

// exchange is an HTTP exchange with what the session decoded of it.
type exchange struct {
	X        wire.Exchange
	Endpoint dialect.HTTPEndpoint
	Params   map[string]string
	// Req is the request body when it decoded to an object (nil when
	// absent, cut or not an object).
	Req map[string]any
}

// httpRules is the part of a dialect's rule set that judges HTTP
// exchanges; dialects without HTTP endpoints do not implement it.
type httpRules interface {
	http(x *exchange) []Finding
}

// ObserveHTTP judges one HTTP exchange in the context of every frame and
// exchange before it. A request that is none of the dialect's declared
// endpoints is not the protocol's and gives nothing. The request body is
// judged against the endpoint's request schema, a 2xx answer's body
// against its response schema (an error answer's shape is not
// documented), and then the dialect's rules judge the exchange; a body
// longer than the recorder kept is not judged.
func (s *Session) ObserveHTTP(x wire.Exchange) []Finding {
	ep, params, ok := s.d.Endpoint(x.Method, x.Path)
	if !ok {
		return nil
	}
	hx := &exchange{X: x, Endpoint: ep, Params: params}
	var out []Finding
	if ep.Request != "" && len(x.Request) > 0 && !x.RequestCut {
		var fs []Finding
		hx.Req, fs = validateBody(s.d, ep.Request, bodyFrame(x, wire.ClientToServer, x.Request), s.lim)
		out = append(out, blame(fs, wire.ClientToServer)...)
	}
	if ep.Response != "" && x.Status >= 200 && x.Status < 300 && !x.ResponseCut {
		body := x.Response
		if len(body) == 0 {
			// No body is judged as an empty object: what the schema
			// requires is missing, with the schema's evidence.
			body = []byte("{}")
		}
		_, fs := validateBody(s.d, ep.Response, bodyFrame(x, wire.ServerToClient, body), s.lim)
		out = append(out, blame(fs, wire.ServerToClient)...)
	}
	if hr, ok := s.rules.(httpRules); ok {
		out = append(out, hr.http(hx)...)
	}
	return s.dedupe(out)
}

// bodyFrame is the stand-in frame of one body of x, so that its findings
// name the exchange as a frame's name the frame.
func bodyFrame(x wire.Exchange, dir wire.Direction, body []byte) wire.Frame {
	return wire.Frame{Conn: x.ID, URL: x.Path, Index: x.Index, Dir: dir, Time: x.Time, Op: wire.OpText, Payload: body}
}

// blame sets the direction of body findings: the request's are the
// client's, the answer's the server's.
func blame(fs []Finding, dir wire.Direction) []Finding {
	for i := range fs {
		fs[i].Dir, fs[i].HTTP = dir, true
	}
	return fs
}

// onHTTP starts a finding of rule r on an exchange, blaming dir's sender.
func (r Rule) onHTTP(x *exchange, dir wire.Direction, format string, args ...any) Finding {
	return Finding{Rule: r.ID, Severity: r.Severity, Evidence: r.Evidence, Spec: r.Spec, Quote: r.Quote, Requires: r.Requires,
		Type: x.Endpoint.Method + " " + x.Endpoint.Path, Conn: x.X.ID, Dir: dir, Frame: x.X.Index, HTTP: true,
		Message: fmt.Sprintf(format, args...)}
}

// describeHTTP names an exchange in a message: "HTTP POST /runs/r1/input
// (h2, index 14) → 202".
func describeHTTP(x wire.Exchange) string {
	s := fmt.Sprintf("HTTP %s %s (%s, index %d)", x.Method, x.Path, x.ID, x.Index)
	if x.Status != 0 {
		s += fmt.Sprintf(" → %d", x.Status)
	}
	return s
}
