package proxy

import (
	"crypto/tls"
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
		},
		Transport:     p.transport,
		FlushInterval: -1, // server-sent events and streamed bodies pass at once
		ErrorLog:      nil,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			http.Error(w, fmt.Sprintf("wsproxy: upstream %s: %v", base.Host, err), http.StatusBadGateway)
		},
	}
}

// serveHTTP reverse-proxies one request and logs it.
func (p *Proxy) serveHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	p.rev.ServeHTTP(sw, r)
	text := fmt.Sprintf("HTTP %s %s → %d %s · %s", r.Method, r.URL.Path, sw.status, http.StatusText(sw.status),
		time.Since(start).Round(time.Millisecond))
	p.tap.note(nil, text, false)
}

// statusWriter remembers the status of a response; Unwrap lets the
// reverse proxy reach the underlying Flusher.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (s *statusWriter) WriteHeader(code int) {
	if !s.wrote {
		s.status, s.wrote = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	s.wrote = true
	return s.ResponseWriter.Write(b)
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
