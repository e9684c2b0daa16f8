package netguard

import "net"

// Dialable turns a listener's address into one a client can open: a
// listener on all interfaces (0.0.0.0, ::) reports an unspecified host
// ("[::]:8080"), which no client can dial, so the announced URL names
// loopback instead (127.0.0.1 or [::1]); the listener stays reachable on
// every interface, and the commands warn that it is.
func Dialable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsUnspecified() {
		return addr
	}
	// "[::]" accepts IPv4 too on a dual-stack host, and 127.0.0.1 works
	// where IPv6 is off: one loopback for both.
	return net.JoinHostPort("127.0.0.1", port)
}
