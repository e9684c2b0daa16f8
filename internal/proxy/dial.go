package proxy

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/textproto"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// hopHeaders are hop-by-hop (RFC 9110 §7.6.1) and never forwarded.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// handshakeHeaders belong to one WebSocket handshake: each leg negotiates
// its own. Subprotocols are passed on explicitly; extensions (compression)
// are not negotiated at all, so bytes relay unchanged.
var handshakeHeaders = []string{"Sec-Websocket-Key", "Sec-Websocket-Version", "Sec-Websocket-Extensions",
	"Sec-Websocket-Protocol", "Sec-Websocket-Accept"}

// gorillaWriteBuffers lend gorilla its 16 KiB write buffer for the time
// of one message, on both legs: without a pool each connection kept two
// for its lifetime, 32 KiB of the 90 KiB an open connection cost
// (perf.Memory, 1000 connections).
var gorillaWriteBuffers = &sync.Pool{}

func newDialer(cfg Config) *websocket.Dialer {
	return &websocket.Dialer{
		Proxy:            http.ProxyFromEnvironment,
		HandshakeTimeout: cfg.DialTimeout,
		ReadBufferSize:   16 << 10,
		WriteBufferSize:  16 << 10,
		WriteBufferPool:  gorillaWriteBuffers,
		TLSClientConfig:  &tls.Config{InsecureSkipVerify: cfg.Insecure}, //nolint:gosec // --insecure is the user's explicit choice
		NetDialContext:   dialCancelable,
	}
}

// dialCancelable dials a connection whose handshake ends when ctx does.
// Gorilla only takes ctx's deadline for the handshake; a client that goes
// away or a shutdown cancels ctx and must not wait for that deadline. The
// connection is registered with the dialHolder in ctx, so that serveWS can
// release it from ctx once the handshake is over (gorilla may have wrapped
// it in TLS by then).
func dialCancelable(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	dc := &dialConn{Conn: conn}
	dc.stop = context.AfterFunc(ctx, dc.cancelHandshake)
	if h, ok := ctx.Value(dialHolderKey{}).(*dialHolder); ok {
		h.mu.Lock()
		h.conns = append(h.conns, dc)
		h.mu.Unlock()
	}
	return dc, nil
}

type dialHolderKey struct{}

// dialHolder collects the connections one dial made.
type dialHolder struct {
	mu    sync.Mutex
	conns []*dialConn
}

// done releases the connections from the dial context: cancelling it no
// longer touches them, and a deadline a late cancellation set is cleared.
func (h *dialHolder) done() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.conns {
		c.stop()
		c.mu.Lock()
		c.done = true
		c.mu.Unlock()
		_ = c.Conn.SetDeadline(time.Time{})
	}
}

// dialConn is an upstream connection during its handshake.
type dialConn struct {
	net.Conn
	stop func() bool

	mu   sync.Mutex
	done bool // the handshake is over: cancellation no longer applies
}

func (c *dialConn) cancelHandshake() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.done {
		_ = c.Conn.SetDeadline(time.Unix(1, 0)) // ends the blocked read or write
	}
}

// serveWS relays one WebSocket connection: it dials the upstream first, so
// that a refusal reaches the client as the upstream's own HTTP answer, then
// upgrades the client with the subprotocol the upstream chose.
func (p *Proxy) serveWS(w http.ResponseWriter, r *http.Request) {
	id, n := p.nextID()
	if !p.enter() {
		http.Error(w, "wsproxy: shutting down", http.StatusServiceUnavailable)
		return
	}
	defer p.wg.Done()
	target := p.target(r)
	if !p.originAllowed(r) {
		p.refuseOrigin(w, id, r, target)
		return
	}
	if max := p.cfg.MaxConns; max > 0 {
		defer p.active.Add(-1)
		if p.active.Add(1) > int64(max) {
			why := fmt.Sprintf("wsproxy relays at most %d connections at once (--max-conns)", max)
			http.Error(w, "wsproxy: "+why, http.StatusServiceUnavailable)
			p.tap.refused(refusal{conn: id, path: r.URL.Path, url: redact(target), target: target, code: http.StatusServiceUnavailable,
				status: "503 Service Unavailable", why: "the proxy refused it: " + why, fatal: true})
			return
		}
	}
	// Label this goroutine (and so the pumps it starts) for leak checks;
	// net/http owns it, so restore its labels afterwards.
	defer pprof.SetGoroutineLabels(r.Context())
	pprof.SetGoroutineLabels(pprof.WithLabels(r.Context(), pprof.Labels(GoroutineLabel, p.cfg.Label)))

	ctx, cancel := context.WithTimeout(r.Context(), p.cfg.DialTimeout)
	stop := context.AfterFunc(p.dialCtx, cancel)
	holder := &dialHolder{}
	d := p.tapDialer(target)
	d.Subprotocols = websocket.Subprotocols(r)
	up, resp, err := d.DialContext(context.WithValue(ctx, dialHolderKey{}, holder), target, p.forwardHeaders(r))
	holder.done()
	stop()
	cancel()
	if err != nil {
		p.refuse(w, id, r, target, resp, err)
		return
	}
	hj := &tapHijacker{ResponseWriter: w}
	client, err := p.upgrader.Upgrade(hj, r, upgradeHeaders(resp, up.Subprotocol()))
	if err != nil {
		// The upgrader answered the client with an HTTP error already.
		_ = up.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "wsproxy: client handshake failed"),
			time.Now().Add(time.Second))
		_ = up.Close()
		p.tap.note(nil, fmt.Sprintf("%s client handshake failed: %v", id, err), false)
		return
	}
	upTap := tapOf(up.NetConn())
	c := p.newConn(id, n, r, target, client, up)
	c.client.tap, c.upstream.tap = hj.tap, upTap
	if !p.track(c) {
		closeBoth(client, up)
		return
	}
	defer p.untrack(c)
	c.run()
}

func (p *Proxy) newConn(id string, n uint64, r *http.Request, target string, client, up *websocket.Conn) *conn {
	c := &conn{p: p, id: id, url: target, path: r.URL.Path, subprotocol: up.Subprotocol(), opened: time.Now(),
		unjudged: !p.judged(r.URL.Path)}
	seed := p.cfg.Seed + n
	c.client = &leg{c: c, side: sideClient, ws: client, out: newQueue(p.cfg.QueueMessages, p.cfg.QueueBytes, &p.budget, p.cfg.MemoryBudget),
		inj: newInjector(p.cfg.Faults, sideClient, seed), abort: make(chan struct{})}
	c.upstream = &leg{c: c, side: sideUpstream, ws: up, out: newQueue(p.cfg.QueueMessages, p.cfg.QueueBytes, &p.budget, p.cfg.MemoryBudget),
		inj: newInjector(p.cfg.Faults, sideUpstream, seed), abort: make(chan struct{})}
	c.rec = p.tap.recorder()
	for _, l := range []*leg{c.client, c.upstream} {
		if lc, ok := l.ws.NetConn().(*legConn); ok {
			l.lc = lc
			lc.beforeRead = func() { c.flushOwed(l) }
			lc.rec = c.rec
		}
	}
	return c
}

func closeBoth(a, b *websocket.Conn) {
	msg := websocket.FormatCloseMessage(websocket.CloseGoingAway, "wsproxy shutting down")
	for _, ws := range []*websocket.Conn{a, b} {
		_ = ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
		_ = ws.Close()
	}
}

// target is the upstream URL of a request: the upstream's base path
// followed by the request's path and query.
func (p *Proxy) target(r *http.Request) string {
	u := *p.up
	u.Path = p.up.Path + r.URL.Path
	u.RawPath = ""
	if r.URL.RawPath != "" {
		u.RawPath = p.up.EscapedPath() + r.URL.RawPath
	}
	u.RawQuery = r.URL.RawQuery
	return u.String()
}

// forwardHeaders are the end-to-end headers of the client's handshake
// (Origin, Cookie, Authorization, User-Agent, …) plus X-Forwarded-*, with
// Host and Origin as --host and --origin say.
func (p *Proxy) forwardHeaders(r *http.Request) http.Header {
	h := endToEnd(r)
	h.Set("Host", p.upstreamHost(r)) // gorilla sends this Host, dials the URL's
	if o, ok := p.origin(r); ok {
		h.Set("Origin", o)
	}
	return h
}

// endToEnd is the client's headers without hop-by-hop and handshake
// headers and Host, plus X-Forwarded-*.
func endToEnd(r *http.Request) http.Header {
	h := r.Header.Clone()
	for _, v := range h.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			h.Del(textproto.TrimString(name))
		}
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
	for _, k := range handshakeHeaders {
		h.Del(k)
	}
	h.Del("Host")
	if ip, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		if prior := h.Values("X-Forwarded-For"); len(prior) > 0 {
			ip = strings.Join(prior, ", ") + ", " + ip
		}
		h.Set("X-Forwarded-For", ip)
	}
	h.Set("X-Forwarded-Host", r.Host)
	proto := "http"
	if r.TLS != nil {
		proto = "https"
	}
	h.Set("X-Forwarded-Proto", proto)
	return h
}

// upgradeHeaders are the end-to-end headers of the upstream's handshake
// answer (Set-Cookie, …) and the subprotocol it chose.
func upgradeHeaders(resp *http.Response, subprotocol string) http.Header {
	h := http.Header{}
	if resp != nil {
		for k, vs := range resp.Header {
			h[k] = append([]string(nil), vs...)
		}
		for _, k := range append(append([]string{"Content-Length", "Date"}, hopHeaders...), handshakeHeaders...) {
			h.Del(k)
		}
	}
	if subprotocol != "" {
		h.Set("Sec-Websocket-Protocol", subprotocol)
	}
	return h
}

// refuse answers a client whose upstream handshake failed: with the
// upstream's own answer when it refused (401, 403, 404, …), with 502 when
// it could not be reached or answered nonsense, with 504 when it did not
// answer in time. Each is a proxy.upstream-refused finding: nothing was
// tested on that connection, and the verdict says so.
func (p *Proxy) refuse(w http.ResponseWriter, id string, r *http.Request, target string, resp *http.Response, err error) {
	rf := refusal{conn: id, path: r.URL.Path, url: redact(target), target: target, fatal: true}
	if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols && errors.Is(err, websocket.ErrBadHandshake) {
		for k, vs := range resp.Header {
			w.Header()[k] = vs
		}
		for _, k := range append([]string{"Content-Length"}, hopHeaders...) {
			w.Header().Del(k)
		}
		w.WriteHeader(resp.StatusCode)
		ex := &excerpt{}
		if resp.Body != nil {
			_, _ = io.Copy(io.MultiWriter(w, ex), resp.Body)
		}
		rf.code, rf.status, rf.body = resp.StatusCode, resp.Status, ex.String()
		rf.why = "the upstream refused the WebSocket handshake with " + resp.Status
		p.tap.refused(rf)
		return
	}
	status, why := http.StatusBadGateway, fmt.Sprintf("cannot reach the upstream %s: %v", redact(target), err)
	switch {
	case p.dialCtx.Err() != nil:
		status, why = http.StatusServiceUnavailable, "shutting down"
	case r.Context().Err() != nil:
		status, why = http.StatusBadGateway, "the client went away during the upstream handshake"
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		status, why = http.StatusGatewayTimeout, fmt.Sprintf("the upstream %s did not complete the WebSocket handshake within %v", redact(target), p.cfg.DialTimeout)
	case resp != nil:
		why = fmt.Sprintf("the upstream %s answered the handshake with %s but not as a WebSocket server", redact(target), resp.Status)
	case isCertError(err):
		why += " (use --insecure for a self-signed certificate)"
	}
	http.Error(w, "wsproxy: "+why, status)
	if status == http.StatusServiceUnavailable {
		p.tap.note(nil, fmt.Sprintf("%s %s: %d %s", id, r.URL.Path, status, why), false)
		return
	}
	rf.code, rf.status, rf.why = status, fmt.Sprintf("%d %s", status, http.StatusText(status)), why
	if resp != nil {
		rf.status = resp.Status
	}
	p.tap.refused(rf)
}

// excerpt keeps the first bytes of a body for a finding.
type excerpt struct{ b []byte }

const excerptBytes = 200

func (e *excerpt) Write(b []byte) (int, error) {
	if room := excerptBytes + 1 - len(e.b); room > 0 {
		e.b = append(e.b, b[:min(room, len(b))]...)
	}
	return len(b), nil
}

// String is the excerpt as one line of valid text, "…" when cut.
func (e *excerpt) String() string {
	s := strings.ToValidUTF8(string(e.b[:min(len(e.b), excerptBytes)]), "")
	s = strings.Join(strings.Fields(s), " ")
	if len(e.b) > excerptBytes {
		s += "…"
	}
	return s
}

func isCertError(err error) bool {
	var verr *tls.CertificateVerificationError
	return errors.As(err, &verr)
}

// redact drops the query of a URL for messages: queries carry tokens.
func redact(raw string) string {
	if i := strings.IndexByte(raw, '?'); i >= 0 {
		return raw[:i]
	}
	return raw
}
