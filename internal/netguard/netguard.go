// Package netguard says which browser pages and which Host names may talk
// to a local listener of wsconform: `wsconform serve` (and its replay
// fixture), wsproxy and wsproxy's live view share these rules, so that a
// flag such as --allow-origin or --allow-host means the same everywhere.
//
// Two attacks are in view. A web page the developer visits can open a
// WebSocket to 127.0.0.1 (WebSockets are not subject to CORS; only the
// Origin header tells the page apart), which Origins refuses. And a page
// can reach a local listener under a DNS name its attacker points at
// 127.0.0.1 (DNS rebinding), which HostAllowed refuses.
package netguard

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// HostAllowed reports whether a request's Host header may be served: an
// IP literal, localhost or *.localhost, the host of listen, or a name of
// allow ("*": any). Anything else is a name some DNS resolves to this
// machine, which is how DNS rebinding lets a foreign page talk to a local
// listener; an IP literal cannot be rebound.
func HostAllowed(host, listen string, allow []string) bool {
	name := HostName(host)
	switch {
	case name == "":
		return false
	case net.ParseIP(name) != nil, name == "localhost", strings.HasSuffix(name, ".localhost"):
		return true
	case listen != "" && HostName(listen) == name:
		return true
	}
	for _, a := range allow {
		if a == "*" || HostName(a) == name {
			return true
		}
	}
	return false
}

// HostName is the lower-case host of host[:port], without IPv6 brackets.
func HostName(hostport string) string {
	name := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		name = h
	}
	return strings.ToLower(strings.Trim(name, "[]"))
}

// Origins says which browser pages may open a WebSocket. A handshake
// without Origin is not a browser page's (a CLI, a test, a server) and
// always passes; a page whose origin names the host:port the request was
// sent to (the page was loaded from the listener itself) passes too.
type Origins struct {
	// Allow lists more origins (scheme://host[:port], as ParseOrigins
	// returns them); "*" allows every page.
	Allow []string
	// Local also allows pages served from this machine: http or https
	// origins on a loopback host (localhost, *.localhost, 127.0.0.0/8,
	// [::1]) of any port, and on the host of Listen. A developer's UI dev
	// server (http://localhost:5173) talking through wsproxy is the case;
	// a page of any other site is not.
	Local  bool
	Listen string
}

// Allowed reports whether a handshake with this Origin header, sent to
// host (the request's Host), may go on.
func (o Origins) Allowed(origin, host string) bool {
	if origin == "" {
		return true
	}
	norm := normalize(origin)
	for _, a := range o.Allow {
		if a == "*" || normalize(a) == norm {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false // "null" (a sandboxed frame, a file:// page) and garbage
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	if !o.Local || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	name := HostName(u.Host)
	if loopbackName(name) {
		return true
	}
	if o.Listen == "" {
		return false
	}
	lh := HostName(o.Listen)
	if ip := net.ParseIP(lh); ip != nil && ip.IsUnspecified() {
		return false // 0.0.0.0 names no origin
	}
	return lh != "" && lh == name
}

// loopbackName reports whether a host name always means this machine.
func loopbackName(name string) bool {
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// normalize makes an origin comparable: lower case, no trailing slash, no
// default port (browsers never send :443 for https).
func normalize(origin string) string {
	o := strings.ToLower(strings.TrimRight(origin, "/"))
	switch {
	case strings.HasPrefix(o, "https://") && strings.HasSuffix(o, ":443"):
		return strings.TrimSuffix(o, ":443")
	case strings.HasPrefix(o, "http://") && strings.HasSuffix(o, ":80"):
		return strings.TrimSuffix(o, ":80")
	}
	return o
}

// ParseOrigins checks the values of --allow-origin flags: each is an
// origin (scheme://host[:port]), "*", or a comma-separated list of them.
// It returns them one per element.
func ParseOrigins(flag string, values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		for _, o := range strings.Split(v, ",") {
			o = strings.TrimSpace(o)
			if o == "*" {
				out = append(out, o)
				continue
			}
			u, err := url.Parse(o)
			if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
				return nil, fmt.Errorf("%s %q is not an origin (scheme://host[:port]) or *", flag, o)
			}
			out = append(out, strings.TrimRight(o, "/"))
		}
	}
	return out, nil
}
