package proxy

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/recording"
)

// frameBytes encodes one WebSocket frame (FIN set), masked with key when
// key is not nil.
func frameBytes(op byte, payload []byte, key []byte) []byte {
	b := []byte{0x80 | op}
	m := byte(0)
	if key != nil {
		m = 0x80
	}
	switch n := len(payload); {
	case n <= 125:
		b = append(b, m|byte(n))
	case n <= 0xffff:
		b = append(b, m|126, byte(n>>8), byte(n))
	default:
		b = append(b, m|127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	if key == nil {
		return append(b, payload...)
	}
	b = append(b, key...)
	for i, c := range payload {
		b = append(b, c^key[i%4])
	}
	return b
}

func closePayload(code int, reason string) []byte {
	return append(binary.BigEndian.AppendUint16(nil, uint16(code)), reason...)
}

// chunked hands out what it holds in reads of the sizes it is given, as
// TCP may; only Read is used.
type chunked struct {
	net.Conn
	data  []byte
	sizes []int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.data))
	if len(c.sizes) > 0 {
		n = min(n, c.sizes[0])
		c.sizes = c.sizes[1:]
	}
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// TestCloseTapScan: closeTap passes every byte through unchanged, heads,
// data frames of every length encoding, masked or not, split at any read
// boundary, except in the first close frame: there it changes only what
// gorilla refuses (1014 → 1011, invalid UTF-8 → '?', same length), and
// remembers the frame as sent. Bytes after that frame pass as they are.
func TestCloseTapScan(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	big := bytes.Repeat([]byte("x"), 70000)
	for _, masked := range []bool{false, true} {
		var key []byte
		if masked {
			key = []byte{0x12, 0x34, 0x56, 0x78}
		}
		head := "HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"
		var in bytes.Buffer
		if !masked {
			in.WriteString(head)
		}
		for _, f := range [][]byte{
			frameBytes(1, nil, key), frameBytes(1, []byte(`{"type":"x"}`), key), frameBytes(2, big[:125], key),
			frameBytes(2, big[:126], key), frameBytes(1, big[:65535], key), frameBytes(2, big, key),
			frameBytes(9, []byte("ping"), key),
			// a text frame that looks like a close frame inside: not one
			frameBytes(1, append([]byte{0x88, 0x05}, closePayload(1014, "bad")...), key),
		} {
			in.Write(f)
		}
		closeAt := in.Len()
		in.Write(frameBytes(8, closePayload(1014, "up \xff\xfe gone"), key))
		in.Write(frameBytes(8, closePayload(1014, "second"), key)) // passes as it is
		want := append([]byte(nil), in.Bytes()...)
		fixed := frameBytes(8, closePayload(1011, "up ?? gone"), key)
		copy(want[closeAt:], fixed)

		for round := range 50 {
			var sizes []int
			for range 200 {
				sizes = append(sizes, 1+rng.IntN(40+round*500))
			}
			tap := newCloseTap(&chunked{data: append([]byte(nil), in.Bytes()...), sizes: sizes}, !masked)
			got, err := io.ReadAll(iotestOneByOne{tap, rng})
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("masked %v, round %d: %v; %d bytes read, want %d; first difference at %d", masked, round, err, len(got), len(want), firstDiff(got, want))
			}
			cf, ok := tap.closeFrame()
			if !ok || cf.code != 1014 || string(cf.reason) != "up \xff\xfe gone" {
				t.Fatalf("masked %v: close frame %v %+v", masked, ok, cf)
			}
		}
	}
}

// iotestOneByOne reads with buffers of random small sizes, as bufio over
// a socket would with its own buffer.
type iotestOneByOne struct {
	r   io.Reader
	rng *rand.Rand
}

func (o iotestOneByOne) Read(p []byte) (int, error) {
	return o.r.Read(p[:min(len(p), 1+o.rng.IntN(300))])
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// rawClient is a WebSocket client that reads frames as they are on the
// wire, so a test sees exactly the close frame the proxy sent (gorilla
// refuses to read 1014).
type rawClient struct {
	c  net.Conn
	br *bufio.Reader
}

func rawDial(t *testing.T, wsURL string) *rawClient {
	t.Helper()
	addr := strings.TrimPrefix(wsURL, "ws://")
	path := "/"
	if i := strings.IndexByte(addr, '/'); i >= 0 {
		addr, path = addr[:i], addr[i:]
	}
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(timeout))
	req := "GET " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake: %v %v", err, resp)
	}
	return &rawClient{c: c, br: br}
}

// frame reads one (unmasked) frame.
func (r *rawClient) frame(t *testing.T) (byte, []byte) {
	t.Helper()
	return readRawFrame(t, r.br)
}

func readRawFrame(t *testing.T, br *bufio.Reader) (byte, []byte) {
	t.Helper()
	var h [2]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		t.Fatalf("read a frame: %v", err)
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var e [2]byte
		_, _ = io.ReadFull(br, e[:])
		n = uint64(binary.BigEndian.Uint16(e[:]))
	case 127:
		var e [8]byte
		_, _ = io.ReadFull(br, e[:])
		n = binary.BigEndian.Uint64(e[:])
	}
	var key []byte
	if h[1]&0x80 != 0 {
		key = make([]byte, 4)
		_, _ = io.ReadFull(br, key)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(br, p); err != nil {
		t.Fatalf("read a payload: %v", err)
	}
	for i := range p {
		if key != nil {
			p[i] ^= key[i%4]
		}
	}
	return h[0] & 0x0f, p
}

// rawCloser is an upstream that answers the handshake with gorilla, then
// writes the close frame it is told on the raw connection, and hands on
// the first frame it gets back, as it is on the wire.
func rawCloser(t *testing.T, payload []byte) (string, chan []byte) {
	return rawCloserTLS(t, payload, false)
}

func rawCloserTLS(t *testing.T, payload []byte, tlsOn bool) (string, chan []byte) {
	t.Helper()
	got := make(chan []byte, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		c := ws.NetConn()
		_ = c.SetDeadline(time.Now().Add(timeout))
		if payload != nil {
			if _, err := c.Write(frameBytes(8, payload, nil)); err != nil {
				return
			}
		}
		_, p := readRawFrame(t, bufio.NewReader(c))
		got <- p
	})
	srv := httptest.NewUnstartedServer(h)
	if tlsOn {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http"), got
}

// recordedClose is the close frame line a recording holds for the
// upstream (s2c) or the client (c2s): its code and raw reason.
func recordedClose(t *testing.T, rec, dir string) (int, []byte) {
	t.Helper()
	for _, line := range strings.Split(rec, "\n") {
		var l recording.Line
		if json.Unmarshal([]byte(line), &l) != nil || l.Kind != recording.KindFrame || l.Opcode != 8 || string(l.Dir) != dir {
			continue
		}
		f, err := l.Frame()
		if err != nil {
			t.Fatal(err)
		}
		return l.Code, f.Payload
	}
	t.Fatalf("no %s close frame recorded:\n%s", dir, rec)
	return 0, nil
}

// TestCloseFidelity: an upstream's close frame reaches the client with its
// code, for every code a peer may send, 1014 included (gorilla refuses to
// read it: it used to reach the client as 1011 "upstream connection lost");
// a reason that is not UTF-8 reaches it with U+FFFD in place of the invalid
// bytes and the upstream's code (it used to be 1011 too); a code no peer
// may send makes both legs 1002. The recording has each frame as the
// upstream sent it, and a proxy.bad-close finding says what was changed.
func TestCloseFidelity(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		code       int
		reason     string
		wantCode   int
		wantReason string
		finding    bool
		tls        bool
	}{
		{"1014 from a wss:// upstream", 1014, "bad \xffgateway", 1014, "bad \uFFFDgateway", true, true},
		{"1014 bad gateway", 1014, "bad gateway", 1014, "bad gateway", false, false},
		{"1012 restart", 1012, "restarting", 1012, "restarting", false, false},
		{"1013 try later", 1013, "", 1013, "", false, false},
		{"3000 registered", 3000, "unauthorized", 3000, "unauthorized", false, false},
		{"4999 private", 4999, "app", 4999, "app", false, false},
		{"invalid UTF-8 reason", 1000, "bye \xff\xc3 now", 1000, "bye \uFFFD now", true, false},
		{"1014 and invalid UTF-8", 1014, "\xe2\x82", 1014, "\uFFFD", true, false},
		{"1004 may not be sent", 1004, "reserved", 1002, "wsproxy: the upstream sent close code 1004, which no endpoint may send", true, false},
		{"1015 may not be sent", 1015, "", 1002, "wsproxy: the upstream sent close code 1015, which no endpoint may send", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up, _ := rawCloserTLS(t, closePayload(tc.code, tc.reason), tc.tls)
			tp := startProxy(t, Config{Upstream: up, Dialect: "minicodex", Insecure: true})
			c := rawDial(t, tp.url+"/ws")
			op, p := c.frame(t)
			if op != 8 || len(p) < 2 {
				t.Fatalf("the client got opcode %d %q, want a close frame", op, p)
			}
			code, reason := int(binary.BigEndian.Uint16(p)), string(p[2:])
			if code != tc.wantCode || reason != tc.wantReason {
				t.Errorf("the client got close %d %q, want %d %q", code, reason, tc.wantCode, tc.wantReason)
			}
			// answer the close, as a client does
			key := []byte{1, 2, 3, 4}
			_, _ = c.c.Write(frameBytes(8, p[:2], key))
			r := tp.Stop()
			if code, raw := recordedClose(t, tp.rec.String(), "s2c"); code != tc.code || string(raw) != tc.reason {
				t.Errorf("recorded close %d %q, want %d %q as sent", code, raw, tc.code, tc.reason)
			}
			if got := hasRule(r, RuleBadClose.ID); got != tc.finding {
				t.Errorf("proxy.bad-close finding: %v, want %v; findings %s", got, tc.finding, describeFindings(findings(r)))
			}
			if len(r.Sessions) > 0 && len(r.Sessions[0].Conns) > 0 {
				if cc := r.Sessions[0].Conns[0].CloseCode; cc != tc.wantCode {
					t.Errorf("report: connection closed %d, want %d", cc, tc.wantCode)
				}
			}
		})
	}
}

// TestCloseFidelityFromClient: the client's 1014 and invalid UTF-8 reason
// reach the upstream the same way (the client's leg is tapped too, its
// frames masked).
func TestCloseFidelityFromClient(t *testing.T) {
	t.Parallel()
	up, got := rawCloser(t, nil)
	tp := startProxy(t, Config{Upstream: up, Dialect: "minicodex"})
	c := rawDial(t, tp.url+"/ws")
	if _, err := c.c.Write(frameBytes(8, closePayload(1014, "tab \xff closed"), []byte{9, 8, 7, 6})); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-got:
		if code := binary.BigEndian.Uint16(p); code != 1014 || string(p[2:]) != "tab \uFFFD closed" {
			t.Errorf("the upstream got close %d %q, want 1014 %q", code, p[2:], "tab \uFFFD closed")
		}
	case <-time.After(timeout):
		t.Fatal("the upstream got no close frame")
	}
	c.c.Close()
	tp.Stop()
	if code, raw := recordedClose(t, tp.rec.String(), "c2s"); code != 1014 || string(raw) != "tab \xff closed" {
		t.Errorf("recorded close %d %q", code, raw)
	}
	if rec := tp.rec.String(); !strings.Contains(rec, base64.StdEncoding.EncodeToString([]byte("tab \xff closed"))) {
		t.Errorf("the raw reason is not in the recording (base64)")
	}
}
