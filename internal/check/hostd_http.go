package check

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// hostd's HTTP half: POST /runs/:run_id/input carries the same input as
// the app socket's run.send_input, so the rules on input_id see both, and
// the statuses the spec implies for the endpoint are judged on the
// answers. The spec lists no status code; the 401 rule rests on RFC 6750
// and is an interpretation (a warning).
var (
	hdHTTPNoBearer = Rule{ID: "hostd.http-no-bearer", Severity: Error, Evidence: Stated, Dialect: "hostd",
		Requires: []string{"hostd.http.input-bearer-auth"},
		Spec:     "hostd-mvp.md §HTTP Endpoints (MVP): POST /runs/:run_id/input (Bearer auth)",
		Quote:    "\"`POST /runs/:run_id/input` (Bearer auth) → forwards `run.send_input` to the owning host\"",
		Summary:  "A client sends POST /runs/:run_id/input with an Authorization: Bearer header (its access_token)."}
	hdHTTPNot401 = Rule{ID: "hostd.http-unauthenticated-not-401", Severity: Warning, Evidence: Interpretation, Dialect: "hostd",
		Requires: []string{"hostd.http.input-refused-401"},
		Spec:     "hostd-mvp.md §HTTP Endpoints (MVP): POST /runs/:run_id/input (Bearer auth); interpretation: RFC 6750 §3.1 (401 for a request without the token)",
		Quote:    "\"`POST /runs/:run_id/input` (Bearer auth)\" (the spec names no status)",
		Summary:  "The server answers POST /runs/:run_id/input without a Bearer token with 401, and forwards nothing."}
	hdInputIDReused = Rule{ID: "hostd.input-id-reused", Severity: Error, Evidence: Stated, Dialect: "hostd",
		Requires: []string{"hostd.ids.input-id-idempotent"},
		Spec:     "hostd-mvp.md §Identifiers: input_id, client-generated UUID to make inputs idempotent",
		Quote:    "\"`input_id`: client-generated UUID to make inputs idempotent\"",
		Summary: "A client never sends an input_id of a run again with another text (over HTTP or as run.send_input): the id names one input, " +
			"and a retry with it must be the same input for the server and host to merge it."}
	hdInputIDReusedAccepted = Rule{ID: "hostd.input-id-reused-accepted", Severity: Warning, Evidence: Interpretation, Dialect: "hostd",
		Requires: []string{"hostd.ids.input-id-reused-other-text"},
		Spec:     "hostd-mvp.md §Identifiers: input_id makes inputs idempotent; interpretation: a reused input_id with another text is a client error",
		Quote:    "\"`input_id`: client-generated UUID to make inputs idempotent\" (the spec does not say how a reused id is answered)",
		Summary:  "The server answers an input whose input_id the run already had with another text with a 4xx status, not as accepted."}
	hdHTTPForwardedNot2xx = Rule{ID: "hostd.http-forwarded-not-2xx", Severity: Warning, Evidence: Interpretation, Dialect: "hostd",
		Requires: []string{"hostd.http.input-body", "hostd.ids.input-id-server-dedupes"},
		Spec: "hostd-mvp.md §HTTP Endpoints (MVP): POST /runs/:run_id/input → forwards run.send_input to the owning host; " +
			"interpretation: a forwarded input, and a repeat of one, is answered 2xx",
		Quote:   "\"`POST /runs/:run_id/input` (Bearer auth) → forwards `run.send_input` to the owning host\" (the spec names no status)",
		Summary: "An input the server forwarded to the host (run.send_input seen before the answer) is answered with a 2xx status, and so is a repeat of it."}
)

var _ = register(hdHTTPNoBearer, hdHTTPNot401, hdInputIDReused, hdInputIDReusedAccepted, hdHTTPForwardedNot2xx)

// maxSendsNamed bounds the sends of one input_id a finding lists.
const maxSendsNamed = 8

// hdSent is what the session saw clients send under one run_id+input_id.
type hdSent struct {
	sum   [sha256.Size]byte // of the first text
	first string            // where it was first sent
	where []string
	index []int64
	n     int
}

// http judges hostd's HTTP exchanges: only the input endpoint has rules of
// its own (login is judged by its schemas).
func (r *hostd) http(x *exchange) []Finding {
	if x.Endpoint.Name != "input" {
		return nil
	}
	var out []Finding
	if x.Endpoint.Auth == "bearer" && x.X.Auth != "bearer" {
		got := "no Authorization header"
		if x.X.Auth != "" {
			got = "Authorization: " + x.X.Auth + " …"
		}
		fd := hdHTTPNoBearer.onHTTP(x, wire.ClientToServer, "%s sent with %s", describeHTTP(x.X), got)
		fd.Expected, fd.Actual = "Authorization: Bearer ACCESS_TOKEN", got
		out = append(out, fd)
		if x.X.Status != 0 && x.X.Status != 401 {
			fd := hdHTTPNot401.onHTTP(x, wire.ServerToClient, "%s without a Bearer token answered %d", describeHTTP(x.X), x.X.Status)
			fd.Expected, fd.Actual = "401 Unauthorized", fmt.Sprint(x.X.Status)
			out = append(out, fd)
		}
		return out // not an input of an authenticated client: nothing more is learnt
	}
	run := x.Params["run_id"]
	id, ok1 := jsonx.String(hostdAt(x.Req, "/input_id"))
	text, ok2 := jsonx.String(hostdAt(x.Req, "/text"))
	if run == "" || !ok1 || !ok2 {
		return out
	}
	prev, reused := r.sendInput(run, id, text, describeHTTP(x.X), x.X.Index)
	if fwd, ok := r.forwardedTo[run+"\x00"+id]; ok && !reused && x.X.Status != 0 && x.X.Status/100 != 2 {
		fd := hdHTTPForwardedNot2xx.onHTTP(x, wire.ServerToClient, "run %q: input_id %q was forwarded to the host (frame %d) but this request was answered %d",
			run, id, fwd, x.X.Status)
		fd.Pointer, fd.Expected, fd.Actual = "/input_id", "a 2xx status", fmt.Sprint(x.X.Status)
		fd.Related = []int64{fwd}
		out = append(out, fd)
	}
	if !reused {
		return out
	}
	fd := hdInputIDReused.onHTTP(x, wire.ClientToServer, "run %q: input_id %q sent again with another text (first by %s)", run, id, prev.first)
	fd.Pointer, fd.Expected, fd.Actual = "/input_id", "the text first sent with this input_id", "another text"
	fd.Related = []int64{prev.index[0]}
	out = append(out, fd)
	if x.X.Status >= 200 && x.X.Status < 300 {
		fd := hdInputIDReusedAccepted.onHTTP(x, wire.ServerToClient, "run %q: input_id %q reused with another text was answered %d", run, id, x.X.Status)
		fd.Pointer, fd.Expected, fd.Actual = "/input_id", "a 4xx status (the client's error)", fmt.Sprint(x.X.Status)
		out = append(out, fd)
	}
	return out
}

// sendWS judges an app's run.send_input as sendInput does an HTTP input.
func (r *hostd) sendWS(m *message) []Finding {
	run, ok := jsonx.String(m.Doc["run_id"])
	id, ok1 := jsonx.String(hostdAt(m.Doc, "/data/input_id"))
	text, ok2 := jsonx.String(hostdAt(m.Doc, "/data/text"))
	if !ok || !ok1 || !ok2 {
		return nil
	}
	prev, reused := r.sendInput(run, id, text, fmt.Sprintf("run.send_input (%s frame %d)", m.Frame.Conn, m.Frame.Index), m.Frame.Index)
	if !reused {
		return nil
	}
	fd := hdInputIDReused.fire(m, "run %q: input_id %q sent again with another text (first by %s)", run, id, prev.first)
	fd.Pointer, fd.Expected, fd.Actual = "/data/input_id", "the text first sent with this input_id", "another text"
	fd.Related = []int64{prev.index[0]}
	return []Finding{fd}
}

// sendInput notes a client's input; it returns the first send of the same
// run and input_id and whether this one carries another text.
func (r *hostd) sendInput(run, id, text, where string, index int64) (*hdSent, bool) {
	k := run + "\x00" + id
	sum := sha256.Sum256([]byte(text))
	s, seen := r.sent[k]
	if !seen {
		if len(r.sent) >= r.window {
			r.sent = map[string]*hdSent{}
		}
		s = &hdSent{sum: sum, first: where}
		r.sent[k] = s
	}
	s.n++
	if len(s.where) < maxSendsNamed {
		s.where, s.index = append(s.where, where), append(s.index, index)
	}
	return s, seen && s.sum != sum
}

// sendsOf says how clients sent an input_id, for a finding about the
// input: "sent 2 times: HTTP POST … (h1, index 3) → 202; …".
func (r *hostd) sendsOf(run, id string) (string, []int64) {
	s, ok := r.sent[run+"\x00"+id]
	if !ok {
		return "", nil
	}
	text := fmt.Sprintf("; clients sent it %d times: %s", s.n, strings.Join(s.where, "; "))
	if s.n > len(s.where) {
		text += "; …"
	}
	return text, s.index
}
