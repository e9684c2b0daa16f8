package replay

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// writeTimeout bounds one write to the target: a server that stops reading
// ends the replay of that connection, never the whole replay.
const writeTimeout = 10 * time.Second

// live is one replayed WebSocket connection: a reader goroutine collects
// what the server sends, a writer goroutine sends what the conductor hands
// it, and the conductor reads the state under mu.
type live struct {
	rec     *Conn
	id      string
	session string
	url     string
	ws      *websocket.Conn
	d       *dialect.Dialect
	corr    *correlator
	j       *journal
	notify  chan<- struct{}

	out   chan outgoing
	quit  chan struct{}
	rdone chan struct{}
	wdone chan struct{}

	mu     sync.Mutex
	frames []received     // the server's data frames, in order
	counts map[string]int // by correlation key
	ended  bool
	end    liveEnd
	// closing is set once the client closed or cut: a close that follows
	// is not the server's doing.
	closing bool
}

// received is one data frame of the server with its type and
// correlation key.
type received struct {
	f   wire.Frame
	typ string
	key string
}

// liveEnd is how a replayed connection ended.
type liveEnd struct {
	code     int
	reason   string
	byServer bool
	frame    *wire.Frame // the server's close frame, if it sent one
}

type outgoing struct {
	op   int
	data []byte
	done chan error
}

// start runs the connection's reader and writer.
func (l *live) start() {
	l.out = make(chan outgoing)
	l.quit = make(chan struct{})
	l.rdone = make(chan struct{})
	l.wdone = make(chan struct{})
	l.counts = map[string]int{}
	l.ws.SetCloseHandler(func(code int, text string) error {
		// Echo the close as gorilla's default handler does; the reader
		// records it when ReadMessage returns the close error.
		msg := websocket.FormatCloseMessage(code, "")
		_ = l.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
		return nil
	})
	go l.read()
	go l.write()
}

// read is the connection's only reader.
func (l *live) read() {
	defer close(l.rdone)
	for {
		op, data, err := l.ws.ReadMessage()
		now := time.Now()
		if err != nil {
			l.finish(err, now)
			return
		}
		f := wire.Frame{Conn: l.id, URL: l.url, Dir: wire.ServerToClient, Time: now, Op: wire.Opcode(op), Payload: data}
		f = l.j.frame(l.session, f)
		l.mu.Lock()
		typ, key := l.corr.classify(f)
		l.frames = append(l.frames, received{f: f, typ: typ, key: key})
		l.counts[key]++
		l.mu.Unlock()
		l.signal()
	}
}

// finish records how the connection ended: closed by the server (its
// close frame), by the replay (a close frame it sent, or a cut), or lost.
func (l *live) finish(err error, now time.Time) {
	var ce *websocket.CloseError
	isClose := errors.As(err, &ce)
	l.mu.Lock()
	e := liveEnd{code: websocket.CloseAbnormalClosure, reason: "the connection was lost without a close frame", byServer: !l.closing}
	by := recording.ByNetwork
	if isClose {
		e.code, e.reason, by = ce.Code, ce.Text, recording.ByServer
		f := l.j.frame(l.session, wire.Frame{Conn: l.id, URL: l.url, Dir: wire.ServerToClient, Time: now,
			Op: wire.OpClose, Payload: []byte(ce.Text), CloseCode: ce.Code})
		e.frame = &f
	}
	switch {
	case l.closing && isClose:
		by = recording.ByClient
	case l.closing:
		e.reason = "the replay cut the TCP connection, as the recorded client's did"
	}
	l.ended, l.end = true, e
	l.mu.Unlock()
	l.j.close(l.id, l.session, e.code, e.reason, by, now)
	l.signal()
}

func (l *live) signal() {
	select {
	case l.notify <- struct{}{}:
	default:
	}
}

// write is the connection's only writer of data frames.
func (l *live) write() {
	defer close(l.wdone)
	for {
		select {
		case <-l.quit:
			return
		case m := <-l.out:
			_ = l.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
			m.done <- l.ws.WriteMessage(m.op, m.data)
		}
	}
}

// send hands a data frame to the writer and waits until it is written.
func (l *live) send(ctx context.Context, op wire.Opcode, data []byte) error {
	// Journaled before it is written: an answer can arrive before the
	// writer returns, and the check engine must see the request first.
	l.j.frame(l.session, wire.Frame{Conn: l.id, URL: l.url, Dir: wire.ClientToServer, Time: time.Now(), Op: op, Payload: data})
	m := outgoing{op: int(op), data: data, done: make(chan error, 1)}
	select {
	case l.out <- m:
	case <-l.rdone:
		return l.endedErr()
	case <-ctx.Done():
		return ctx.Err()
	}
	var err error
	select {
	case err = <-m.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("failed to write: %w", err)
	}
	return nil
}

// endedErr says why a connection the server ended cannot take a frame.
func (l *live) endedErr() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.end.byServer {
		return fmt.Errorf("the server ended the connection (%d %s)", l.end.code, l.end.reason)
	}
	return errors.New("the connection is closed")
}

// close sends a close frame and waits, up to grace, for the server's; then
// the TCP connection is closed.
func (l *live) close(ctx context.Context, code int, reason string, grace time.Duration) {
	l.mu.Lock()
	ended := l.ended
	l.closing = true
	l.mu.Unlock()
	if ended {
		l.stop()
		return
	}
	msg := websocket.FormatCloseMessage(code, reason)
	if code == websocket.CloseNoStatusReceived {
		msg = []byte{}
	}
	l.j.frame(l.session, wire.Frame{Conn: l.id, URL: l.url, Dir: wire.ClientToServer, Time: time.Now(),
		Op: wire.OpClose, Payload: []byte(reason), CloseCode: code})
	_ = l.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(grace))
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-l.rdone:
	case <-t.C:
	case <-ctx.Done():
	}
	l.stop()
}

// cut drops the TCP connection without a close frame (1006 for the
// server), as the recorded client's network did.
func (l *live) cut() {
	l.mu.Lock()
	l.closing = true
	l.mu.Unlock()
	l.stop()
}

// stop closes the socket and waits for both goroutines to end.
func (l *live) stop() {
	select {
	case <-l.quit:
	default:
		close(l.quit)
	}
	_ = l.ws.Close()
	<-l.rdone
	<-l.wdone
}

// snapshot returns the frames received so far and how the connection
// ended (ended false while it is open).
func (l *live) snapshot() (frames []received, counts map[string]int, ended bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	counts = make(map[string]int, len(l.counts))
	for k, v := range l.counts {
		counts[k] = v
	}
	return l.frames[:len(l.frames):len(l.frames)], counts, l.ended
}

// result returns everything received and how it ended, once the
// goroutines have stopped.
func (l *live) result() ([]received, liveEnd) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.frames, l.end
}
