package server

import (
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/wsconform/wsconform/internal/netguard"
)

// Guard says who may talk to a server and for how long. `wsconform serve`
// sets it from its flags; the zero value admits everyone and never times
// out, which is what run and gate need (they start the server themselves
// on loopback and dial it, or let the proxy dial it, without a browser's
// Origin to worry about).
type Guard struct {
	// SameOrigin refuses (403) a WebSocket handshake that carries an
	// Origin header (a browser page) unless the Origin's host is the
	// request's Host or AllowOrigins lists the Origin ("*": any). A
	// handshake without Origin is not a browser's and passes.
	SameOrigin   bool
	AllowOrigins []string
	// CheckHost refuses (403) a request whose Host names neither the
	// address the server listens on (Listen) nor one of AllowHosts ("*":
	// any). IP literals, localhost and *.localhost always pass: a DNS
	// rebinding attack needs a name its attacker controls.
	CheckHost  bool
	Listen     string
	AllowHosts []string
	// MaxConns bounds the WebSocket connections served at once; one more
	// is refused with 503 before the upgrade. 0: no bound.
	MaxConns int
	// IdleTimeout closes (1001) an upgraded connection whose client has
	// not sent a single frame for this long. 0: never.
	IdleTimeout time.Duration
}

// AdmitHost answers 403 to a request whose Host the Guard refuses and
// reports whether the request may go on. Serve calls it; a dialect's
// plain HTTP endpoints (hostd's login) call it too.
func (e *Env) AdmitHost(w http.ResponseWriter, r *http.Request) bool {
	if !e.Guard.CheckHost || netguard.HostAllowed(r.Host, e.Guard.Listen, e.Guard.AllowHosts) {
		return true
	}
	name := r.Host
	if h, _, err := net.SplitHostPort(name); err == nil {
		name = h
	}
	refuse(w, http.StatusForbidden, "bad_host",
		fmt.Sprintf("Host %q is not the address this server listens on (DNS rebinding protection; --allow-host %s allows it)", r.Host, name))
	return false
}

// OriginAllowed reports whether a handshake's Origin may talk to the
// server (see Guard): a handshake without Origin is not a browser's and
// passes; a browser page passes when its Origin's host is the request's
// Host or AllowOrigins lists it ("*": any). The replay fixture applies
// the same rule.
func (g *Guard) OriginAllowed(r *http.Request) bool {
	if !g.SameOrigin {
		return true
	}
	return netguard.Origins{Allow: g.AllowOrigins}.Allowed(r.Header.Get("Origin"), r.Host)
}
