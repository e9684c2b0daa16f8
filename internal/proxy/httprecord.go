package proxy

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/internal/wire"
)

// The HTTP requests that belong to the dialect's protocol (its manifest's
// httpEndpoints: hostd's POST /auth/login and POST /runs/:run_id/input)
// are recorded and judged, not only relayed: hostd's one idempotency
// guarantee (the same input_id records one run.input) spans HTTP and the
// sockets. The exchange is written to the recording as an "http" line in
// its place among the frames and judged in the session it belongs to
// (hostd: the shared one). Other requests of the app are relayed and
// logged as before.

// MaxHTTPBody is how much of each body of a protocol exchange is kept for
// the recording and the checker; a longer body is relayed whole, kept
// cut, and not judged.
const MaxHTTPBody = 1 << 20

// protocolEndpoint is the declared endpoint r is, if any: of the
// configured dialect, or with --dialect auto of any dialect (hostd's login
// comes before any WebSocket tells the dialect; a request the detected
// dialect does not declare is recorded and then judged as nothing).
func (p *Proxy) protocolEndpoint(r *http.Request) (string, bool) {
	if p.cfg.Dialect != "" {
		d, err := dialect.Get(p.cfg.Dialect)
		if err != nil {
			return "", false
		}
		ep, _, ok := d.Endpoint(r.Method, r.URL.Path)
		return ep.Name, ok
	}
	_, ep, ok := dialect.AnyEndpoint(r.Method, r.URL.Path)
	return ep.Name, ok
}

// captureRequest reads up to MaxHTTPBody bytes of r's body for the
// exchange and puts them back in front of the rest, so the upstream gets
// every byte. It reports whether the body was longer.
func captureRequest(r *http.Request) ([]byte, bool) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, false
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, MaxHTTPBody+1))
	cut := len(head) > MaxHTTPBody
	r.Body = readCloser{io.MultiReader(bytes.NewReader(head), errReader{err}, r.Body), r.Body}
	if cut {
		head = head[:MaxHTTPBody]
	}
	return head, cut || err != nil
}

// readCloser reads from one reader and closes another (the original body).
type readCloser struct {
	io.Reader
	io.Closer
}

// errReader hands on the error that ended the capture, if any, in its place.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

// authScheme is the scheme of an Authorization header, lower case: the
// credential is never kept. A scheme that is not a token (RFC 9110 §11.1)
// is "other".
func authScheme(h http.Header) string {
	v := strings.TrimSpace(h.Get("Authorization"))
	if v == "" {
		return ""
	}
	scheme, _, _ := strings.Cut(v, " ")
	if len(scheme) > 32 || strings.ContainsFunc(scheme, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r))
	}) {
		return "other"
	}
	return strings.ToLower(scheme)
}

// recordExchange files a protocol exchange with the tap.
func (p *Proxy) recordExchange(endpoint string, r *http.Request, start time.Time, req []byte, reqCut bool, sw *statusWriter) {
	x := wire.Exchange{ID: "h" + strconv.FormatUint(p.seq.Add(1), 10), Time: start, Duration: time.Since(start),
		Endpoint: endpoint, Method: r.Method, Path: r.URL.Path, Status: sw.status, Auth: authScheme(r.Header),
		Request: req, RequestCut: reqCut, Response: sw.kept.Bytes(), ResponseCut: sw.keptCut}
	if sw.failed != nil {
		x.Status, x.Response, x.ResponseCut = 0, nil, false
	}
	p.tap.http(x)
}

// http records an exchange in its place among the frames and queues it
// for the validator, in the session it belongs to when the dialect has one
// for every connection (hostd).
func (t *tap) http(x wire.Exchange) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.index++
	x.Index = t.index
	session := ""
	if t.sz != nil {
		session = t.sz.Shared()
	}
	t.record(func(w *recording.Writer) error { return w.HTTP(session, x) })
	t.push(event{kind: evHTTP, exchange: &x, session: session, time: x.Time})
}

// judgeHTTP hands an exchange to the grouper (nothing is judged when the
// dialect could not be detected).
func (v *validator) judgeHTTP(ev event) {
	if v.grouper != nil {
		v.grouper.HTTP(ev.session, *ev.exchange)
	}
}

// observedHTTP is the grouper's hook: an exchange was judged in session.
func (v *validator) observedHTTP(session string, _ wire.Exchange, fs []validate.Finding) {
	if len(fs) == 0 {
		return
	}
	s := v.session(session)
	for _, f := range fs {
		v.addFinding(s, f)
	}
}
