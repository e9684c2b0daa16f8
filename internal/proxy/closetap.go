package proxy

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"net"
	"net/http"
	"sync"
	"unicode/utf8"

	"github.com/gorilla/websocket"
)

// Close frames gorilla will not read. gorilla/websocket v1.5.3 fails a
// connection whose peer sends close code 1014 (bad gateway, which RFC
// 6455's IANA registry lists and a gateway may send) or a close reason
// that is not UTF-8, answering it 1002 itself: the proxy never saw the
// peer's close, and the other peer got 1011 "upstream connection lost".
// gorilla has no hook for it (its close handler is called only for codes
// it accepts), so closeTap sits under gorilla's reader, on the plain
// bytes of each leg, and watches the frames go by. The first close frame
// is kept as sent (closeTap.closeFrame); when gorilla would refuse it,
// only what gorilla refuses is changed in the bytes it reads, keeping the
// frame's length: code 1014 becomes 1011, each byte of an invalid UTF-8
// sequence '?'. The leg's reader then takes the code and the reason from
// closeTap, records them as sent, and passes the code on. A code no peer
// may send (0-999, 1004-1006, 1015-2999, 5000 and up) is left to gorilla,
// which fails the connection with 1002 as RFC 6455 asks; the frame is
// still recorded as sent.

// closeTap is a leg's net.Conn seen by gorilla. Reads are scanned as
// WebSocket frames (after the HTTP response head, on the upstream leg);
// writes pass through. Once the first close frame has passed it is
// transparent: gorilla reads nothing after a close frame.
type closeTap struct {
	net.Conn

	// head: the upstream leg reads an HTTP response head (or a proxy's
	// CONNECT answer, then the upstream's) before frames; frames start
	// after the head of a 101 response.
	head   bool
	status []byte // the start of the current head's status line
	crlf   int    // how much of "\r\n\r\n" was just seen

	// the frame being scanned
	hdr  [14]byte
	hn   int    // header bytes collected
	need int    // header bytes needed (2 until the length byte is seen)
	left uint64 // payload bytes of the current frame still to pass

	// a close frame being held until its payload is complete
	holding bool
	plen    int
	hold    []byte // its payload so far, then what follows it
	pend    []byte // bytes released from hold, returned before reading more
	done    bool   // a close frame has passed: no more scanning
	err     error  // the read error met while bytes were pending

	mu    sync.Mutex
	frame *closeFrame
}

// closeFrame is a close frame as a peer sent it.
type closeFrame struct {
	code   int
	reason []byte
}

func newCloseTap(c net.Conn, head bool) *closeTap {
	return &closeTap{Conn: c, head: head, need: 2}
}

// closeFrame is the first close frame that came through with a status
// code, as sent.
func (t *closeTap) closeFrame() (closeFrame, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.frame == nil {
		return closeFrame{}, false
	}
	return *t.frame, true
}

// Read returns the bytes gorilla may read: all of them, except a close
// frame's payload, held until it is whole (at most 125 bytes).
func (t *closeTap) Read(p []byte) (int, error) {
	for {
		if len(t.pend) > 0 {
			n := copy(p, t.pend)
			t.pend = t.pend[n:]
			return n, nil
		}
		if t.err != nil {
			return 0, t.err // gorilla treats any read error as the end
		}
		n, err := t.Conn.Read(p)
		if t.done {
			return n, err
		}
		k := t.scan(p[:n])
		t.err = err
		if k > 0 || n == 0 && err == nil {
			return k, nil
		}
	}
}

// scan walks b; it returns how many bytes at its start gorilla may read
// now. From the start of a close frame's payload on, bytes are held in
// t.hold (and, once the payload is complete and fixed, moved to t.pend).
func (t *closeTap) scan(b []byte) int {
	for i := 0; i < len(b); {
		switch {
		case t.holding:
			// a close frame's payload goes on: all of b is held (scan
			// returns as soon as holding starts, so i is 0 here)
			t.hold = append(t.hold, b...)
			if len(t.hold) >= t.plen {
				t.release()
			}
			return 0
		case t.head:
			i = t.scanHead(b, i)
		case t.left > 0:
			step := min(t.left, uint64(len(b)-i))
			t.left -= step
			i += int(step)
		default:
			t.hdr[t.hn] = b[i]
			t.hn++
			i++
			if t.hn == 2 {
				t.need = 2 + extLen(t.hdr[1]&0x7f)
				if t.hdr[1]&0x80 != 0 {
					t.need += 4
				}
			}
			if t.hn < t.need {
				continue
			}
			t.hn = 0
			size := payloadLen(t.hdr[:t.need])
			t.need = 2
			if t.hdr[0]&0x0f == 0x8 && size >= 2 && size <= 125 {
				// Hold the close frame's payload: return what precedes
				// it now, the payload once it is whole and fixed.
				t.holding, t.plen, t.hold = true, int(size), append(t.hold[:0], b[i:]...)
				if len(t.hold) >= t.plen {
					t.release()
				}
				return i
			}
			t.left = size
		}
	}
	return len(b)
}

// scanHead skips an HTTP response head starting at b[i]; it returns where
// scanning goes on. Frames start after the head of a 101 answer.
func (t *closeTap) scanHead(b []byte, i int) int {
	for ; i < len(b); i++ {
		c := b[i]
		if len(t.status) < 12 {
			t.status = append(t.status, c)
		}
		switch {
		case c == '\r' && t.crlf%2 == 0, c == '\n' && t.crlf%2 == 1:
			t.crlf++
		case c == '\r':
			t.crlf = 1
		default:
			t.crlf = 0
		}
		if t.crlf == 4 {
			t.crlf = 0
			ok := len(t.status) == 12 && string(t.status[8:12]) == " 101"
			t.status = t.status[:0]
			if ok {
				t.head = false
				return i + 1
			}
		}
	}
	return i
}

// release fixes the held close frame's payload for gorilla and queues it,
// with what followed it, to be read.
func (t *closeTap) release() {
	masked := t.hdr[1]&0x80 != 0
	var key [4]byte
	if masked {
		// the header is complete (need was reset after it): its key is
		// its last 4 bytes
		n := 2 + extLen(t.hdr[1]&0x7f)
		copy(key[:], t.hdr[n:n+4])
	}
	payload := t.hold[:t.plen]
	plain := make([]byte, t.plen)
	for j := range payload {
		plain[j] = payload[j] ^ key[j%4]
	}
	code := int(binary.BigEndian.Uint16(plain))
	t.mu.Lock()
	t.frame = &closeFrame{code: code, reason: append([]byte(nil), plain[2:]...)}
	t.mu.Unlock()
	if code == closeBadGateway {
		binary.BigEndian.PutUint16(plain, 1011) // read back as 1014
	}
	if !utf8.Valid(plain[2:]) {
		sanitize(plain[2:])
	}
	for j := range payload {
		payload[j] = plain[j] ^ key[j%4]
	}
	t.pend = append(t.pend, t.hold...)
	t.hold, t.holding, t.done = nil, false, true
}

// closeBadGateway is 1014, which gorilla v1.5.3 refuses to receive.
const closeBadGateway = 1014

// sanitize replaces each byte of an invalid UTF-8 sequence with '?', in
// place (the frame keeps its length).
func sanitize(b []byte) {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			b[i] = '?'
			n = 1
		}
		i += n
	}
}

// extLen is how many extended length bytes a 7-bit length needs.
func extLen(l7 byte) int {
	switch l7 {
	case 126:
		return 2
	case 127:
		return 8
	}
	return 0
}

// payloadLen reads a complete frame header's payload length.
func payloadLen(h []byte) uint64 {
	switch l7 := h[1] & 0x7f; l7 {
	case 126:
		return uint64(binary.BigEndian.Uint16(h[2:4]))
	case 127:
		return binary.BigEndian.Uint64(h[2:10])
	default:
		return uint64(l7)
	}
}

// tapHijacker gives gorilla's Upgrader the client's connection behind a
// closeTap (and a legConn).
type tapHijacker struct {
	http.ResponseWriter
	tap *closeTap
}

func (h *tapHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := h.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, fmt.Errorf("the response does not implement http.Hijacker")
	}
	c, brw, err := hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	h.tap = newCloseTap(c, false)
	return &legConn{Conn: h.tap}, brw, nil
}

// tapDialer is the upstream dialer with a closeTap on the bytes gorilla
// reads: on the TCP connection for ws://, over TLS for wss:// (gorilla
// does TLS itself otherwise, where no tap can see the frames). Through an
// HTTP proxy (HTTPS_PROXY), a wss:// upstream is dialled by gorilla alone:
// the tap would have to sit inside its TLS; 1014 and invalid reasons then
// read as before (1002, the client gets 1011).
func (p *Proxy) tapDialer(target string) *websocket.Dialer {
	d := *p.dialer
	if p.up.Scheme == "wss" {
		if p.proxied(target) {
			return &d
		}
		cfg := d.TLSClientConfig
		d.NetDialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dialCancelable(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			tc := cfg.Clone()
			if tc.ServerName == "" {
				host, _, err := net.SplitHostPort(addr)
				if err != nil {
					host = addr
				}
				tc.ServerName = host
			}
			conn := tls.Client(c, tc)
			if err := conn.HandshakeContext(ctx); err != nil {
				c.Close()
				return nil, err
			}
			return &legConn{Conn: newCloseTap(conn, true)}, nil
		}
		return &d
	}
	d.NetDialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialCancelable(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &legConn{Conn: newCloseTap(c, true)}, nil
	}
	return &d
}

// proxied reports whether the upstream is dialled through an HTTP proxy.
func (p *Proxy) proxied(target string) bool {
	if p.dialer.Proxy == nil {
		return false
	}
	u := *p.up
	u.Scheme = "https"
	req := &http.Request{URL: &u}
	pu, err := p.dialer.Proxy(req)
	return err != nil || pu != nil
}
