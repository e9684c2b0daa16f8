package perf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// The relay measures speak minicodex with 1 KiB frames, so that a
// validating wsproxy does the full work of a clean session (decoding, the
// schema, the ordering and state rules) and finds nothing: the client
// sends `send` commands of 1024 bytes, the upstream answers each with an
// `assistant_text` of about 1024 bytes carrying the next event_id. A send
// whose text is "burst N" is answered with N assistant_text frames at
// once, each written with its own WriteMessage as a gorilla server writes
// them (one write per frame: the upstream of issue 26's figures).

// relaySend is the 1024-byte command of a round trip.
var relaySend = []byte(`{"type":"send","text":"` + string(bytes.Repeat([]byte("s"), 1024-25)) + `"}`)

// textPadding makes an assistant_text with a four-digit event_id 1024
// bytes long.
var textPadding = bytes.Repeat([]byte("a"), 1024-47-4)

// burstCommand asks the upstream for n frames at once.
func burstCommand(n int) []byte {
	return []byte(`{"type":"send","text":"burst ` + strconv.Itoa(n) + `"}`)
}

// upstream is the one server every subject relays to.
type upstream struct {
	ln       net.Listener
	srv      *http.Server
	url      string // ws://127.0.0.1:PORT
	addr     string // 127.0.0.1:PORT
	sessions atomic.Int64
	wg       sync.WaitGroup
}

func startUpstream() (*upstream, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the upstream: %w", err)
	}
	u := &upstream{ln: ln, addr: ln.Addr().String(), url: "ws://" + ln.Addr().String()}
	up := websocket.Upgrader{ReadBufferSize: 16 << 10, WriteBufferSize: 16 << 10}
	u.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		u.wg.Add(1)
		defer u.wg.Done()
		defer ws.Close()
		u.serve(ws)
	})}
	go func() { _ = u.srv.Serve(ln) }()
	return u, nil
}

// serve answers one connection until it ends. Each connection is a
// session of its own (its own session_id), so that event_ids starting
// again at 1 on the next connection are not a replay.
func (u *upstream) serve(ws *websocket.Conn) {
	var id int64
	buf := make([]byte, 0, 2048)
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		head := data[:min(len(data), 40)]
		switch {
		case bytes.Contains(head, []byte(`"hello"`)):
			s := u.sessions.Add(1)
			welcome := `{"type":"welcome","v":"1.0.0","session_state":{"session_id":"perf-` + strconv.FormatInt(s, 10) +
				`","version":"1.0.0","capabilities":[],"run_counter":0}}`
			if ws.WriteMessage(websocket.TextMessage, []byte(welcome)) != nil {
				return
			}
		case bytes.HasPrefix(head, []byte(`{"type":"send","text":"burst `)):
			n, _ := strconv.Atoi(string(bytes.TrimSuffix(data[len(`{"type":"send","text":"burst `):], []byte(`"}`))))
			for range n {
				id++
				buf = appendText(buf[:0], id)
				if ws.WriteMessage(websocket.TextMessage, buf) != nil {
					return
				}
			}
		default:
			id++
			buf = appendText(buf[:0], id)
			if ws.WriteMessage(websocket.TextMessage, buf) != nil {
				return
			}
		}
	}
}

// appendText appends the assistant_text with event_id id.
func appendText(b []byte, id int64) []byte {
	b = append(b, `{"type":"assistant_text","event_id":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"text":"`...)
	b = append(b, textPadding...)
	return append(b, `"}`...)
}

func (u *upstream) close() {
	_ = u.srv.Close() // closes the listener; hijacked connections are the handlers'
	u.wg.Wait()
}

// client is one measuring connection.
type client struct {
	ws  *websocket.Conn
	buf []byte
}

// dialClient opens url's /ws and says hello.
func dialClient(ctx context.Context, url string) (*client, error) {
	d := websocket.Dialer{ReadBufferSize: 16 << 10, WriteBufferSize: 16 << 10, HandshakeTimeout: 10 * time.Second}
	ws, resp, err := d.DialContext(ctx, url+"/ws", nil)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", url, err)
	}
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	c := &client{ws: ws, buf: make([]byte, 4096)}
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello","v":"1.0.0"}`)); err != nil {
		ws.Close()
		return nil, fmt.Errorf("hello: %w", err)
	}
	if err := c.read(); err != nil {
		ws.Close()
		return nil, fmt.Errorf("welcome: %w", err)
	}
	return c, nil
}

// read reads one message into the client's buffer, without keeping it.
func (c *client) read() error {
	_, r, err := c.ws.NextReader()
	if err != nil {
		return err
	}
	for {
		if _, err := r.Read(c.buf); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// roundTrips sends n commands one at a time, each after the previous
// answer, and returns every round-trip time.
func (c *client) roundTrips(n int) ([]time.Duration, error) {
	rtts := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		if err := c.ws.WriteMessage(websocket.TextMessage, relaySend); err != nil {
			return rtts, fmt.Errorf("send: %w", err)
		}
		if err := c.read(); err != nil {
			return rtts, fmt.Errorf("read answer: %w", err)
		}
		rtts = append(rtts, time.Since(start))
	}
	return rtts, nil
}

// burst asks for n frames and reads them; it returns how long from the
// command to the last frame.
func (c *client) burst(n int) (time.Duration, error) {
	start := time.Now()
	if err := c.ws.WriteMessage(websocket.TextMessage, burstCommand(n)); err != nil {
		return 0, fmt.Errorf("send burst: %w", err)
	}
	for i := range n {
		if err := c.read(); err != nil {
			return 0, fmt.Errorf("burst frame %d of %d: %w", i+1, n, err)
		}
	}
	return time.Since(start), nil
}

// pipelined sends n commands as fast as the connection takes them while
// a second goroutine reads the answers (2n frames relayed).
func (c *client) pipelined(n int) error {
	errs := make(chan error, 1)
	go func() {
		for range n {
			if err := c.read(); err != nil {
				errs <- err
				return
			}
		}
		errs <- nil
	}()
	var werr error
	for range n {
		if werr = c.ws.WriteMessage(websocket.TextMessage, relaySend); werr != nil {
			break
		}
	}
	if werr != nil {
		c.ws.Close() // ends the reader
		<-errs
		return fmt.Errorf("send: %w", werr)
	}
	return <-errs
}

// close says goodbye with 1000 and waits (briefly) for the answer, so
// that the subject records a clean close.
func (c *client) close() {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	_ = c.ws.SetReadDeadline(time.Now().Add(2 * time.Second))
	for {
		if _, _, err := c.ws.NextReader(); err != nil {
			break
		}
	}
	_ = c.ws.Close()
}
