package recording

import (
	"bufio"
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// mergeHAR is the frame pass: it reads the indexed connections' messages
// and hands on their lines merged by time (see har.go).
func mergeHAR(r io.ReaderAt, size int64, conns []harConn, https []harHTTP, line func(Line) error, problem func(Problem)) error {
	sort.SliceStable(conns, func(a, b int) bool { return conns[a].first < conns[b].first })
	sort.SliceStable(https, func(a, b int) bool {
		return https[a].at < https[b].at || https[a].at == https[b].at && https[a].entry < https[b].entry
	})
	var (
		h     cursorHeap
		next  int
		index int64
		nextX int
	)
	for {
		for next < len(conns) && (h.Len() == 0 || conns[next].first <= h[0].t) {
			if err := emitHTTP(https, &nextX, conns[next].first, conns[next].entry, &index, line); err != nil {
				return err
			}
			k := openCursor(r, size, conns[next])
			next++
			open := Line{Kind: KindOpen, Conn: k.id, URL: k.c.url, Time: k.c.started}
			if open.Time.IsZero() && !math.IsInf(k.c.first, 1) {
				open.Time = unixTime(k.c.first)
			}
			if k.c.unjudged != "" {
				// WriteHAR exported a connection the recorder did not
				// judge: its mark comes first, so that a streaming reader
				// leaves all of the connection's lines alone.
				if err := line(Line{Kind: KindSession, Conn: k.id, Session: k.id, URL: k.c.url, Unjudged: k.c.unjudged, Time: open.Time}); err != nil {
					return err
				}
			}
			if err := line(open); err != nil {
				return err
			}
			if k.advance() {
				heap.Push(&h, k)
			} else if err := k.end(line, problem); err != nil {
				return err
			}
		}
		if h.Len() == 0 {
			return emitHTTP(https, &nextX, math.Inf(1), 0, &index, line)
		}
		k := h[0]
		if err := emitHTTP(https, &nextX, k.t, k.c.entry, &index, line); err != nil {
			return err
		}
		if p := k.problem; p != nil {
			problem(*p)
		} else {
			l := k.line
			if l.Kind == KindFrame {
				index++
				l.Index = index
			}
			if err := line(l); err != nil {
				return err
			}
		}
		if k.advance() {
			heap.Fix(&h, 0)
			continue
		}
		heap.Pop(&h)
		if err := k.end(line, problem); err != nil {
			return err
		}
	}
}

// harCursor reads the messages of one connection; it holds the next line
// (or problem) and its time.
type harCursor struct {
	c       harConn
	id      string
	dec     *json.Decoder
	read    int
	t       float64
	line    Line
	problem *Problem
	closed  bool  // a DevTools error message ended the connection
	broken  error // its messages could not be found again
}

// openCursor positions a decoder on a connection's messages: past the
// colon after "_webSocketMessages" and the array's bracket.
func openCursor(r io.ReaderAt, size int64, c harConn) *harCursor {
	k := &harCursor{c: c, id: harConnID(c.entry), t: c.first}
	br := bufio.NewReaderSize(io.NewSectionReader(r, c.msgs, size-c.msgs), 4<<10)
	for {
		b, err := br.ReadByte()
		if err != nil {
			k.broken = err
			return k
		}
		if b == ':' {
			break
		}
		if b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			k.broken = fmt.Errorf("byte %q after the member name", b)
			return k
		}
	}
	k.dec = json.NewDecoder(br)
	if t, err := k.dec.Token(); err != nil || t != json.Delim('[') {
		k.broken = fmt.Errorf("the messages are no longer where they were (%v, %v): the file changed while it was read", t, err)
	}
	return k
}

// advance reads the next message; false when there is none.
func (k *harCursor) advance() bool {
	if k.broken != nil || k.read >= k.c.count {
		return false
	}
	k.read++
	k.problem, k.line = nil, Line{}
	var m harMessage
	if err := k.dec.Decode(&m); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			k.broken = err
			k.read = k.c.count
		}
		k.fail(fmt.Sprintf("not a WebSocket message: %v", err))
		return true
	}
	secs, err := harTime(m.Time)
	if err != nil {
		k.fail(err.Error())
		return true
	}
	k.t = secs
	if m.Type == "error" {
		// DevTools logs a failed connection as a message of type error
		// with the browser's reason: the connection ended there.
		var reason string
		_ = json.Unmarshal(m.Data, &reason)
		k.line = Line{Kind: KindClose, Conn: k.id, URL: k.c.url, Time: unixTime(secs), Code: 1006, Reason: reason, By: ByNetwork}
		k.closed = true
		return true
	}
	l, err := harFrame(k.id, k.c.url, m, secs)
	if err != nil {
		k.fail(err.Error())
		return true
	}
	k.line = l
	return true
}

func (k *harCursor) fail(why string) {
	k.problem = &Problem{Entry: k.c.entry, Message: k.read, Err: why}
}

// end closes a connection after its last message, unless an error message
// closed it already.
func (k *harCursor) end(line func(Line) error, problem func(Problem)) error {
	if k.broken != nil && k.read < k.c.count {
		problem(Problem{Entry: k.c.entry, Err: k.broken.Error()})
	}
	if k.closed {
		return nil
	}
	end := Line{Kind: KindClose, Conn: k.id, URL: k.c.url}
	if !math.IsInf(k.t, 0) {
		end.Time = unixTime(k.t)
	}
	for _, cf := range k.c.closeFrames {
		if cf.Dir != wire.ClientToServer && cf.Dir != wire.ServerToClient {
			continue
		}
		reason := cf.Reason
		f := Line{Kind: KindFrame, Conn: k.id, URL: k.c.url, Dir: cf.Dir, Opcode: int(wire.OpClose), Code: cf.Code, Text: &reason, Time: harEndTime(cf.Time, end.Time)}
		if err := line(f); err != nil {
			return err
		}
	}
	if e := k.c.end; e != nil {
		end.Code, end.Reason, end.By, end.Time = e.Code, e.Reason, e.By, harEndTime(e.Time, end.Time)
	}
	return line(end)
}

// harEndTime reads a time WriteHAR kept (ISO 8601), or falls back to def.
func harEndTime(s string, def time.Time) time.Time {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil && !t.Before(def) {
		return t
	}
	return def
}

// cursorHeap orders cursors by the time of their next message, then by
// entry.
type cursorHeap []*harCursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(a, b int) bool {
	if h[a].t != h[b].t {
		return h[a].t < h[b].t
	}
	return h[a].c.entry < h[b].c.entry
}
func (h cursorHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*harCursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	k := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return k
}
