package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"

	"github.com/wsconform/wsconform/internal/netguard"
)

// CheckListen refuses an address that is not on loopback unless remote
// is allowed: the page shows every frame, credentials included with
// --no-redact, so it is not served to other machines by accident.
func CheckListen(addr string, remote bool) error {
	if remote {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("web view address %q: want host:port, e.g. 127.0.0.1:8081", addr)
	}
	if !loopbackHost(host) {
		return fmt.Errorf("web view address %q is not on loopback: the page shows every frame; use 127.0.0.1", addr)
	}
	return nil
}

func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// refuse says why a request is refused, "" when it is not: a peer off
// loopback (unless allowed), or a Host that is not the listener's
// address by the proxy's rule (DNS rebinding).
func (s *Server) refuse(r *http.Request) string {
	if !s.cfg.AllowRemote {
		if ap, err := netip.ParseAddrPort(r.RemoteAddr); err != nil || !ap.Addr().Unmap().IsLoopback() {
			return fmt.Sprintf("peer %s is not on loopback", r.RemoteAddr)
		}
	}
	if !netguard.HostAllowed(r.Host, s.cfg.Listen, s.cfg.AllowHosts) {
		return fmt.Sprintf("Host %q is not the address the web view listens on (DNS rebinding protection; allow it as with the proxy's --allow-host)", r.Host)
	}
	return ""
}
