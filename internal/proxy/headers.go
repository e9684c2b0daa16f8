package proxy

import (
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/wsconform/wsconform/internal/netguard"
)

// Host and Origin (--host, --origin). A page loaded through the proxy has
// the proxy's origin, and the browser sends it as Origin on the WebSocket
// handshake. Servers that compare Origin with Host (gorilla's default
// CheckOrigin, many frameworks' CSRF checks) accept it when both still
// agree upstream: with the client's Host kept (the default, like Caddy,
// Traefik and the dev servers' proxies), or with both rewritten to the
// upstream (--host upstream --origin upstream, for an upstream that routes
// by Host).

// upstreamHost is the Host header the upstream gets for request r.
func (p *Proxy) upstreamHost(r *http.Request) string {
	if p.cfg.Host == HostKeep && r.Host != "" {
		return r.Host
	}
	return p.up.Host
}

// origin is the Origin header the upstream gets: with --origin upstream,
// an Origin naming the proxy itself (the Host the client asked for) is
// rewritten to the upstream's origin; a foreign Origin never is.
func (p *Proxy) origin(r *http.Request) (string, bool) {
	o := r.Header.Get("Origin")
	if o == "" || p.cfg.Origin != OriginUpstream {
		return o, false
	}
	u, err := url.Parse(o)
	if err != nil || !strings.EqualFold(u.Host, r.Host) {
		return o, false
	}
	scheme := "http"
	if p.up.Scheme == "wss" {
		scheme = "https"
	}
	return scheme + "://" + p.up.Host, true
}

// hostAllowed reports whether a request's Host may be served
// (netguard.HostAllowed: the address the proxy listens on, an IP literal,
// localhost, or a name --allow-host lists). Anything else is a name some
// DNS resolves to this machine, which is how DNS rebinding lets a foreign
// web page talk to a local proxy.
func (p *Proxy) hostAllowed(host string) bool {
	return netguard.HostAllowed(host, p.cfg.Listen, p.cfg.AllowHosts)
}

// judged reports whether a connection to urlPath is judged as the
// dialect: always without --path, else when a glob matches.
func (p *Proxy) judged(urlPath string) bool {
	if len(p.cfg.Paths) == 0 {
		return true
	}
	for _, g := range p.cfg.Paths {
		if ok, _ := path.Match(g, urlPath); ok {
			return true
		}
	}
	return false
}
