package proxy

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// Origin (--allow-origin). A browser lets any page open a WebSocket to
// any address: WebSockets are not subject to CORS, and the Origin header
// is the only thing that tells the proxy which page asks. Without a check,
// any site the developer visits could open ws://127.0.0.1:8080/ws and read
// an agent session through the proxy whenever the upstream does not check
// Origin itself (most development servers do not). The proxy therefore
// refuses, before dialling the upstream, a handshake whose Origin is not
// allowed by Config.AllowOrigins or the rule of netguard.Origins (no
// Origin, the proxy's own address, this machine's pages).

// originAllowed reports whether a WebSocket handshake's Origin may go on.
func (p *Proxy) originAllowed(r *http.Request) bool {
	return p.origins.Allowed(r.Header.Get("Origin"), r.Host)
}

// refuseOrigin answers a handshake from a foreign page with 403 and files
// it as a refusal (proxy.origin-refused) naming the origin and the flag
// that would allow it.
func (p *Proxy) refuseOrigin(w http.ResponseWriter, id string, r *http.Request, target string) {
	origin := r.Header.Get("Origin")
	why := fmt.Sprintf("Origin %q is not allowed: a page of another site may not open a WebSocket through wsproxy (%s allows it)",
		origin, allowOriginFlag(origin))
	http.Error(w, "wsproxy: "+why, http.StatusForbidden)
	p.tap.refused(refusal{conn: id, path: r.URL.Path, url: redact(target), code: http.StatusForbidden,
		status: "403 Forbidden", body: fmt.Sprintf("Origin %q", origin), why: "the proxy refused it: " + why, origin: origin, fatal: true})
}

// plainOrigin is an origin that can be pasted into a shell as it is.
var plainOrigin = regexp.MustCompile(`^[a-z][a-z0-9+.-]*://[A-Za-z0-9.\-\[\]:]+$`)

// allowOriginFlag is the flag that allows origin: the origin itself, or
// '*' for one that is not a scheme://host[:port] ("null" from a sandboxed
// frame or a file:// page).
func allowOriginFlag(origin string) string {
	if plainOrigin.MatchString(origin) {
		return "--allow-origin " + origin
	}
	return "--allow-origin '*'"
}

// originLabel is an origin as a session name shows it: printable ASCII,
// since it comes from the peer.
func originLabel(origin string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x21 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, origin)
}
