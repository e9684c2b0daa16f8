package reftest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/reference/server"
)

// BenchConn is a benchmark client connection: no check engine, no test
// failures, just errors, and a latency sample per message read.
type BenchConn struct {
	ws        *websocket.Conn
	id        string
	n         int // messages read
	typeField string
	trace     *server.Trace
	base      string
	rec       *latencies
	frames    int
	extra     []*BenchConn
}

// Send writes v as JSON (a string or []byte as is).
func (c *BenchConn) Send(v any) error {
	var data []byte
	switch x := v.(type) {
	case string:
		data = []byte(x)
	case []byte:
		data = x
	default:
		var err error
		if data, err = json.Marshal(v); err != nil {
			return fmt.Errorf("marshal %T: %w", v, err)
		}
	}
	_ = c.ws.SetWriteDeadline(time.Now().Add(Timeout))
	return c.ws.WriteMessage(websocket.TextMessage, data)
}

// Read returns the next message and records how long it took from the
// server queueing it to this read.
func (c *BenchConn) Read() (Msg, error) {
	_ = c.ws.SetReadDeadline(time.Now().Add(Timeout))
	_, data, err := c.ws.ReadMessage()
	now := time.Now()
	if err != nil {
		return Msg{}, fmt.Errorf("%s: read message %d: %w", c.id, c.n+1, err)
	}
	if q, ok := c.trace.Queued(c.id, c.n); ok {
		c.rec.add(now.Sub(q))
	}
	c.n++
	c.frames++
	m := Msg{Raw: data, Time: now}
	if doc, _, err := jsonx.Decode(data, 0); err == nil {
		m.Doc = doc
		if obj, ok := doc.(map[string]any); ok {
			m.Type, _ = obj[c.typeField].(string)
		}
	}
	return m, nil
}

// ReadUntil reads up to and including the first message of type typ.
func (c *BenchConn) ReadUntil(typ string) ([]Msg, error) {
	var out []Msg
	for {
		m, err := c.Read()
		if err != nil {
			return out, err
		}
		out = append(out, m)
		if m.Type == typ {
			return out, nil
		}
	}
}

// Dial opens another connection in the same session (a second tab), closed
// with this one.
func (c *BenchConn) Dial(path string) (*BenchConn, error) {
	x, err := dialBench(c.base, path, c.typeField, c.trace, c.rec)
	if err != nil {
		return nil, err
	}
	c.extra = append(c.extra, x)
	return x, nil
}

func (c *BenchConn) close() int {
	n := c.frames
	for _, x := range c.extra {
		n += x.close()
	}
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	_ = c.ws.Close()
	return n
}

func dialBench(base, path, typeField string, tr *server.Trace, rec *latencies) (*BenchConn, error) {
	d := websocket.Dialer{HandshakeTimeout: Timeout}
	ws, resp, err := d.Dial(base+path, nil)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", path, err)
	}
	return &BenchConn{ws: ws, id: resp.Header.Get(server.ConnHeader), typeField: typeField, trace: tr, base: base, rec: rec}, nil
}

// latencies collects samples from every connection of a run.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

func (l *latencies) quantile(q float64) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return 0
	}
	slices.Sort(l.d)
	return l.d[int(q*float64(len(l.d)-1))]
}

// Bench measures the server under load: every iteration dials sessions
// concurrent connections to path, runs fn on each and closes them. It
// reports frames/s (messages the clients read, per second of wall time)
// and the p50 and p99 fan-out latency: from the server queueing a message
// to a client reading it. Call it once per benchmark with a server from
// Start; the first error of any session fails the benchmark.
func Bench(b *testing.B, srv *Server, sessions int, path string, fn func(c *BenchConn) error) {
	b.Helper()
	tr := srv.Env.EnableTrace()
	rec := &latencies{}
	frames := 0
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		n, err := benchRound(srv, sessions, path, tr, rec, fn)
		if err != nil {
			b.Fatal(err)
		}
		frames += n
	}
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(frames)/elapsed.Seconds(), "frames/s")
	b.ReportMetric(float64(rec.quantile(0.50).Microseconds()), "p50-µs")
	b.ReportMetric(float64(rec.quantile(0.99).Microseconds()), "p99-µs")
	b.ReportMetric(0, "ns/op")
}

// benchRound runs one iteration: all sessions at once.
func benchRound(srv *Server, sessions int, path string, tr *server.Trace, rec *latencies, fn func(*BenchConn) error) (int, error) {
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		frames int
		errs   []error
	)
	for s := 0; s < sessions; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := dialBench(srv.URL, path, srv.Dialect.TypeField, tr, rec)
			if err == nil {
				err = fn(c)
				n := c.close()
				mu.Lock()
				frames += n
				mu.Unlock()
			}
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		return frames, fmt.Errorf("%d of %d sessions failed: %w", len(errs), sessions, errors.Join(errs[:min(3, len(errs))]...))
	}
	return frames, nil
}
