package hostd

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// hostLink is one connection of the scripted host: a reader goroutine that
// hands messages to the host's loop and a writer goroutine that owns every
// write, as gorilla allows one of each.
type hostLink struct {
	ctx  context.Context
	ws   *websocket.Conn
	in   chan []byte   // messages read; closed when the reader ends (then set to nil)
	out  chan []byte   // messages to write
	stop chan struct{} // closed by close: the writer says goodbye and ends
	dead chan struct{} // closed on the first read or write failure

	// backlog holds messages read while send waited for the writer: the
	// host must keep reading while it writes, or a server that pushes back
	// on a client that does not read (as the reference server does) and
	// this host would wait for each other.
	backlog [][]byte

	failOnce  sync.Once
	err       error
	stopOnce  sync.Once
	readDone  chan struct{}
	writeDone chan struct{}
}

const linkWriteTimeout = 10 * time.Second

// maxBacklog bounds the messages read while a write waits.
const maxBacklog = 4096

func newHostLink(ctx context.Context, ws *websocket.Conn) *hostLink {
	l := &hostLink{
		ctx: ctx, ws: ws,
		in:   make(chan []byte, 64),
		out:  make(chan []byte, 256),
		stop: make(chan struct{}), dead: make(chan struct{}),
		readDone: make(chan struct{}), writeDone: make(chan struct{}),
	}
	go l.read(l.in)
	go l.write()
	return l
}

// send queues a message; while the writer is behind it keeps reading into
// the backlog, and it gives up when the connection failed or ctx ended
// (the event stays spooled). Only the host's loop calls it.
func (l *hostLink) send(data []byte) {
	for {
		in := l.in
		if len(l.backlog) >= maxBacklog {
			in = nil // stop reading; a server that cannot send drops us (1013) and we reconnect
		}
		select {
		case l.out <- data:
			return
		case m, ok := <-in:
			if !ok {
				l.in = nil
				continue
			}
			l.backlog = append(l.backlog, m)
		case <-l.dead:
			return
		case <-l.ctx.Done():
			return
		}
	}
}

// next returns a message read earlier by send, if any.
func (l *hostLink) next() ([]byte, bool) {
	if len(l.backlog) == 0 {
		return nil, false
	}
	m := l.backlog[0]
	l.backlog[0] = nil
	l.backlog = l.backlog[1:]
	return m, true
}

// read hands messages to in; it owns in (send may nil the field once in
// is closed) and closes it when the connection fails.
func (l *hostLink) read(in chan<- []byte) {
	defer close(l.readDone)
	defer close(in)
	for {
		_, data, err := l.ws.ReadMessage()
		if err != nil {
			l.fail(err)
			return
		}
		select {
		case in <- data:
		case <-l.stop:
			return
		}
	}
}

func (l *hostLink) write() {
	defer close(l.writeDone)
	for {
		select {
		case data := <-l.out:
			_ = l.ws.SetWriteDeadline(time.Now().Add(linkWriteTimeout))
			if err := l.ws.WriteMessage(websocket.TextMessage, data); err != nil {
				l.fail(fmt.Errorf("write: %w", err))
				return
			}
		case <-l.dead:
			return
		case <-l.stop:
			msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
			_ = l.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
			return
		}
	}
}

// fail records the first failure and marks the link dead.
func (l *hostLink) fail(err error) {
	l.failOnce.Do(func() {
		l.err = err
		close(l.dead)
	})
}

// failure is why the link ended; a close with 4400 or 4401 is a refusal
// of the host's credentials.
func (l *hostLink) failure() error {
	<-l.dead
	var ce *websocket.CloseError
	if errors.As(l.err, &ce) && (ce.Code == closeUnauthorized || ce.Code == closeBadRequest) {
		return fmt.Errorf("closed %d %q: %w", ce.Code, ce.Text, errRefused)
	}
	return fmt.Errorf("host connection: %w", l.err)
}

// close says goodbye, ends both goroutines and waits for them.
func (l *hostLink) close() {
	l.stopOnce.Do(func() { close(l.stop) })
	<-l.writeDone
	_ = l.ws.Close()
	<-l.readDone
}
