package proxy

import (
	"bytes"
	"errors"
	"io"
	"net"
	"sync"

	"github.com/gorilla/websocket"
)

// legConn is the net.Conn under a leg's gorilla connection (over its
// closeTap). It lets the relay write a burst with one system call for
// many messages: gorilla writes every message (and every control frame)
// to its net.Conn as soon as it is complete, a write system call per
// message, and offers no way to write several at once.
//
// While holding is set, writes are kept in a buffer (up to
// legWriteBuffer; a write that would overflow it writes the buffer out
// first) and go out with the next write made while not holding, or with
// flush. Whoever writes while holding must make sure a flush follows:
// the leg's writer flushes when its queue is empty, and the other leg's
// reader, which writes messages itself on the fast path (forward), flushes
// before it waits for more bytes from its own peer (beforeRead). A write
// that fails is remembered: every later write and flush returns the error,
// so gorilla sees it too.
type legConn struct {
	net.Conn
	// beforeRead, when set, runs before each read of the socket: when
	// gorilla has parsed everything it had read, before it waits for more.
	// Only the leg's reader reads, so it runs on the reader's goroutine.
	beforeRead func()

	// rec, when set, is the recorder: nothing reaches the peer before
	// the recording holds it (recorder.awaitFlushed).
	rec *recorder

	mu      sync.Mutex
	holding bool
	buf     []byte
	err     error
	// index is the frame being written (setIndex), bufIndex the last
	// frame whose bytes are held.
	index, bufIndex int64
}

// legWriteBuffer bounds what a legConn holds back.
const legWriteBuffer = 64 << 10

func (c *legConn) Read(p []byte) (int, error) {
	if c.beforeRead != nil {
		c.beforeRead()
	}
	return c.Conn.Read(p)
}

func (c *legConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	if len(c.buf)+len(p) > legWriteBuffer {
		if err := c.flushLocked(); err != nil {
			return 0, err
		}
	}
	if len(p) < legWriteBuffer && (c.holding || len(c.buf) > 0) {
		if c.buf == nil {
			c.buf = (*writeBuffers.Get().(*[]byte))[:0]
		}
		c.buf = append(c.buf, p...)
		c.bufIndex = max(c.bufIndex, c.index)
		if c.holding {
			return len(p), nil
		}
		// one system call for what was held and p
		if err := c.flushLocked(); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	if c.rec != nil {
		c.rec.awaitFlushed(c.index)
	}
	n, err := c.Conn.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// setIndex names the frame whose bytes the next writes carry (0: one the
// proxy made, such as its close frame).
func (c *legConn) setIndex(index int64) {
	c.mu.Lock()
	c.index = index
	c.mu.Unlock()
}

// writeBuffers hold a legConn's writes while it holds them; a buffer goes
// back when it is written out, so an idle connection keeps none.
var writeBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, legWriteBuffer)
	return &b
}}

// hold starts or stops holding writes back; stopping does not flush.
func (c *legConn) hold(on bool) {
	c.mu.Lock()
	c.holding = on
	c.mu.Unlock()
}

// flush writes out what is held.
func (c *legConn) flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	return c.flushLocked()
}

func (c *legConn) flushLocked() error {
	if len(c.buf) == 0 {
		return nil
	}
	if c.rec != nil {
		c.rec.awaitFlushed(c.bufIndex)
	}
	_, err := c.Conn.Write(c.buf)
	b := c.buf[:0]
	writeBuffers.Put(&b)
	c.buf = nil
	if err != nil {
		c.err = err
	}
	return err
}

// recorded reports whether the recording holds every frame held back (it
// flushes the recording when that needs no wait), so that a flush would
// not wait for the recorder.
func (c *legConn) recorded() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rec == nil || len(c.buf) == 0 || c.rec.tryFlushed(c.bufIndex)
}

// pending reports whether writes are held back.
func (c *legConn) pending() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.buf) > 0
}

// tapOf is the closeTap under a leg's connection, nil if none.
func tapOf(c net.Conn) *closeTap {
	if lc, ok := c.(*legConn); ok {
		c = lc.Conn
	}
	t, _ := c.(*closeTap)
	return t
}

// readMessage is gorilla's ReadMessage with one allocation of the
// message's size: ReadMessage grows its slice from 512 bytes (a 1 KiB
// message took three allocations and two copies, and kept 2 KiB alive in
// the queues, the recorder's and the validator's). The message is read
// into a pooled buffer and copied once.
func readMessage(ws *websocket.Conn) (int, []byte, error) {
	op, r, err := ws.NextReader()
	if err != nil {
		return op, nil, err
	}
	bp := readBuffers.Get().(*[]byte)
	b := (*bp)[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			data := bytes.Clone(b)
			if data == nil {
				data = []byte{}
			}
			if cap(b) <= maxPooledRead {
				*bp = b[:0]
				readBuffers.Put(bp)
			}
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return op, data, err
		}
	}
}

// readBuffers are readMessage's buffers; one grown past maxPooledRead by
// a large message is left to the collector.
var readBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 16<<10)
	return &b
}}

const maxPooledRead = 1 << 20
