package gate

import (
	"bytes"
	"encoding/binary"
	"net"
)

// In production a client talks to its server directly, so a server that
// vanishes (the reference's drop-after fault cuts its TCP connection) is a
// vanished TCP connection for the client: 1006. The proxy in between
// cannot vanish on its own; it tells its client 1011 "wsproxy: upstream
// connection lost" instead (cmd/wsproxy/README.md, close codes), which a
// client that reconnects only after a drop would take as a deliberate
// close. The gate's listener turns exactly that close frame back into
// what the client would have seen: the TCP connection cut without one.

// dropListener hands the proxy connections whose upstream-lost close
// becomes a TCP drop.
type dropListener struct{ net.Listener }

func (l dropListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &dropConn{Conn: c}, nil
}

// dropConn is one client's TCP connection to the proxy.
type dropConn struct{ net.Conn }

// Write passes everything on but the proxy's upstream-lost close frame,
// which closes the connection instead. Gorilla writes a control frame
// whole, in one Write, and no data frame of the proxy's starts with a
// close opcode, so one Write is all it takes to recognise it.
func (c *dropConn) Write(p []byte) (int, error) {
	if upstreamLost(p) {
		_ = c.Conn.Close()
		return 0, net.ErrClosed
	}
	return c.Conn.Write(p)
}

// upstreamLost reports whether p is exactly one unmasked close frame with
// code 1011 and a reason of the proxy's ("wsproxy: …").
func upstreamLost(p []byte) bool {
	if len(p) < 4 || p[0] != 0x88 || p[1]&0x80 != 0 || int(p[1]) != len(p)-2 {
		return false
	}
	return binary.BigEndian.Uint16(p[2:4]) == 1011 && bytes.HasPrefix(p[4:], []byte("wsproxy:"))
}
