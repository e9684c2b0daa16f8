package web

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/wsconform/wsconform/reports"
)

// Pacing of a page's event stream: the handler sends what the ring holds
// at most every batchEvery (the page renders per animation frame anyway),
// a comment every heartbeat so proxies and the browser keep the stream
// open, and gives up on a page that does not take a batch within
// writeTimeout (it reconnects and resumes from Last-Event-ID).
const (
	batchEvery   = 100 * time.Millisecond
	heartbeat    = 15 * time.Second
	writeTimeout = 10 * time.Second
)

// streamHello is the first message of every stream: the registry (every
// connection and its session, the dialect, the proxy's totals) and how
// the page is configured.
type streamHello struct {
	K        string   `json:"k"` // "hello"
	State    regState `json:"state"`
	SeqLabel string   `json:"sl,omitempty"`
	Window   int      `json:"window"`
	Rate     int      `json:"rate"`
	HAR      bool     `json:"har"`
}

// streamStats ends every batch: what was lost for this page and the
// proxy's totals.
type streamStats struct {
	K       string `json:"k"` // "stats"
	Dropped uint64 `json:"dropped"`
	Totals  totals `json:"totals"`
}

// streamReplays tells the page to fetch /replays again: the replay diffs
// changed (or the stream just started).
type streamReplays struct {
	K string `json:"k"` // "replays"
}

// replayWatch is what one stream told its page of the replay diffs.
type replayWatch struct {
	on   bool // Config.Replays
	told bool
	seen uint64
	// wake is closed by the next change; nil (never ready) without
	// Config.Replays.
	wake <-chan struct{}
}

// due reports whether the page must fetch /replays now: once when the
// stream starts (a page that opens or reconnects catches up on what it
// missed) and after every change since.
func (rw *replayWatch) due(c *changes) bool {
	if !rw.on {
		return false
	}
	v, wake := c.state()
	rw.wake = wake
	if rw.told && v == rw.seen {
		return false
	}
	rw.told, rw.seen = true, v
	return true
}

// events streams the ring to one page as Server-Sent Events, from
// Last-Event-ID on when the browser resumes (within the ring's window;
// what it missed beyond that is counted as dropped).
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	st, next := s.ring.state()
	from := uint64(0) // the start of the window (ring.read counts nothing lost before it)
	if id, err := strconv.ParseUint(r.Header.Get("Last-Event-ID"), 10, 64); err == nil && id < next {
		from = id + 1
	}
	var out bytes.Buffer
	enc := &encoder{keep: s.cfg.KeepSecrets}
	hello := streamHello{K: "hello", State: st, Window: s.cfg.Window, Rate: s.cfg.PageRate, HAR: s.harAvailable()}
	if st.Dialect != "" {
		hello.SeqLabel = reports.SeqLabel(st.Dialect)
	}
	if !enc.keep {
		for i := range hello.State.Conns {
			hello.State.Conns[i].URL = enc.url(hello.State.Conns[i].URL)
		}
	}
	out.WriteString("retry: 1000\n")
	if err := enc.data(&out, hello); err != nil || s.send(rc, w, &out) != nil {
		return
	}
	rw := replayWatch{on: s.cfg.Replays}
	perBatch := max(1, int(int64(s.cfg.PageRate)*int64(batchEvery)/int64(time.Second)))
	var (
		items   []item
		arena   []byte
		dropped uint64
		lost    uint64
		wake    <-chan struct{}
	)
	ping := time.NewTicker(heartbeat)
	defer ping.Stop()
	pace := time.NewTimer(0)
	defer pace.Stop()
	for {
		if rw.due(s.changes) {
			if err := enc.data(&out, streamReplays{K: "replays"}); err != nil || s.send(rc, w, &out) != nil {
				return
			}
		}
		// Payloads are copied into arena, reused batch after batch (when
		// it grows, items of this batch keep the old array alive).
		arena = arena[:0]
		items, from, lost, wake = s.ring.readInto(from, perBatch, items[:0], &arena)
		dropped += lost
		if len(items) > 0 || lost > 0 {
			err := enc.batch(&out, items, &streamStats{K: "stats", Dropped: dropped, Totals: s.ring.totals()})
			clear(items) // drop the payloads
			if err != nil {
				return
			}
			if s.send(rc, w, &out) != nil {
				return
			}
			pace.Reset(batchEvery)
			select {
			case <-pace.C:
			case <-ctx.Done():
				return
			}
			continue
		}
		select {
		case <-wake:
		case <-rw.wake:
		case <-ping.C:
			out.WriteString(": ping\n\n")
			if s.send(rc, w, &out) != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// send writes out to the page within writeTimeout and flushes it.
func (s *Server) send(rc *http.ResponseController, w http.ResponseWriter, out *bytes.Buffer) error {
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, err := w.Write(out.Bytes())
	out.Reset()
	if err == nil {
		err = rc.Flush()
	}
	if err != nil {
		return fmt.Errorf("failed to send events: %w", err)
	}
	return nil
}
