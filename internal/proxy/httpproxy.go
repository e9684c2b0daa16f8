package proxy

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"
)

// Plain HTTP requests (hostd's POST /auth/login and POST /runs/{id}/input,
// any REST endpoint or static file of the app) are reverse-proxied to the
// same upstream, http:// for ws:// and https:// for wss://, so that one
// --upstream serves a whole app. They are relayed and logged, not recorded
// or judged.

func newTransport(cfg Config) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{InsecureSkipVerify: cfg.Insecure} //nolint:gosec // --insecure is the user's explicit choice
	t.ResponseHeaderTimeout = 0                                       // long polls and streams are legitimate
	return t
}

func (p *Proxy) httpBase() *url.URL {
	u := *p.up
	if u.Scheme == "wss" {
		u.Scheme = "https"
	} else {
		u.Scheme = "http"
	}
	return &u
}

func (p *Proxy) newReverseProxy() *httputil.ReverseProxy {
	base := p.httpBase()
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(base)
			pr.SetXForwarded()
			pr.Out.Host = p.upstreamHost(pr.In)
			if o, ok := p.origin(pr.In); ok {
				pr.Out.Header.Set("Origin", o)
			}
		},
		Transport:     p.transport,
		FlushInterval: -1, // server-sent events and streamed bodies pass at once
		ErrorLog:      nil,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if sw, ok := w.(*statusWriter); ok {
				sw.failed = err
			}
			http.Error(w, fmt.Sprintf("wsproxy: upstream %s: %v", base.Host, err), http.StatusBadGateway)
		},
	}
}

// serveHTTP reverse-proxies one request and logs it; a request of the
// protocol is recorded and judged too (httprecord.go). An answer of 5xx,
// or none at all, is a proxy.upstream-refused finding, and so is a 4xx
// answer to a request that is not the protocol's.
//
// Shutdown waits for the handler, as for a WebSocket connection: the
// client may have its answer before the handler has filed it, and a report
// written in between would miss the refusal. A request still in progress
// when the proxy shuts down (a long poll, a stream) is cancelled, as a
// handshake in progress is, and only logged.
func (p *Proxy) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.enter() {
		http.Error(w, "wsproxy: shutting down", http.StatusServiceUnavailable)
		return
	}
	defer p.wg.Done()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(p.dialCtx, cancel)()
	rc := http.NewResponseController(w)
	p.trackReq(rc)
	defer p.untrackReq(rc)
	r = r.WithContext(ctx)
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	endpoint, protocol := p.protocolEndpoint(r)
	var req []byte
	var reqCut bool
	if protocol {
		req, reqCut = captureRequest(r)
		sw.keep = true
	}
	p.rev.ServeHTTP(sw, r)
	if protocol {
		p.recordExchange(endpoint, r, start, req, reqCut, sw)
	}
	text := fmt.Sprintf("HTTP %s %s → %d %s · %s", r.Method, r.URL.Path, sw.status, http.StatusText(sw.status),
		time.Since(start).Round(time.Millisecond))
	// A 4xx answer to a request of the protocol is judged by the dialect's
	// rules (hostd: 401 without a token is right), not a refusal.
	judged := protocol && sw.failed == nil && sw.status < 500
	if sw.status < 400 || judged || ignoredRefusal(r, sw.status) || ctx.Err() != nil && sw.failed != nil {
		if p.dialCtx.Err() != nil && sw.failed != nil {
			text += " (cancelled: wsproxy shutting down)"
		}
		p.tap.note(nil, text, false)
		return
	}
	rf := refusal{http: true, method: r.Method, path: r.URL.Path, url: redact(p.httpBase().String() + r.URL.Path),
		code: sw.status, status: fmt.Sprintf("%d %s", sw.status, http.StatusText(sw.status)), body: sw.body.String(),
		why: "the upstream answered " + fmt.Sprintf("%d %s", sw.status, http.StatusText(sw.status)), fatal: sw.status >= 500}
	if sw.failed != nil {
		rf.why, rf.body = "the proxy could not get an answer from the upstream", redactErr(sw.failed)
	}
	p.tap.refused(rf)
}

// trackReq registers a request in progress, so that Shutdown can cut its
// connection when its deadline passes (a client that does not read).
func (p *Proxy) trackReq(rc *http.ResponseController) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reqs[rc] = struct{}{}
}

func (p *Proxy) untrackReq(rc *http.ResponseController) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.reqs, rc)
}

// ignoredRefusal: a browser asks for /favicon.ico by itself; an app
// without one is not at fault.
func ignoredRefusal(r *http.Request, status int) bool {
	return status == http.StatusNotFound && r.URL.Path == "/favicon.ico"
}

// redactErr is an error's text without URL queries.
func redactErr(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Op + " " + redact(ue.URL) + ": " + ue.Err.Error()
	}
	return err.Error()
}

// statusWriter remembers the status of a response, the start of an error
// response's body, and the error when the upstream gave no answer; Unwrap
// lets the reverse proxy reach the underlying Flusher.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
	body   excerpt
	failed error
	// keep asks for the whole body (up to MaxHTTPBody) of a protocol
	// exchange, in kept; keptCut says it was longer.
	keep    bool
	kept    bytes.Buffer
	keptCut bool
}

func (s *statusWriter) WriteHeader(code int) {
	if !s.wrote {
		s.status, s.wrote = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	s.wrote = true
	if s.status >= 400 && s.failed == nil {
		_, _ = s.body.Write(b)
	}
	if s.keep && s.failed == nil {
		n := min(len(b), MaxHTTPBody-s.kept.Len())
		s.kept.Write(b[:n])
		s.keptCut = s.keptCut || n < len(b)
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
