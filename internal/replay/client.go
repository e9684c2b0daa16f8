package replay

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// Paces of a replay (--pace).
const (
	// PaceFast sends each client frame as soon as the answers the
	// recorded client had before it have come.
	PaceFast = "fast"
	// PaceOriginal also keeps the recorded pause before each client
	// action.
	PaceOriginal = "original"
)

// Defaults of Options.
const (
	DefaultAnswerTimeout = 10 * time.Second
	DefaultReconnectGap  = time.Second
	closeGrace           = 3 * time.Second
)

// ErrUnreachable is returned when the target cannot be reached at all: no
// TCP connection, or the first handshake refused. The error says which.
var ErrUnreachable = errors.New("target unreachable")

// Options configure a client-side replay.
type Options struct {
	// Against is the server to replay against: a ws:// or wss:// URL whose
	// scheme and host replace the recorded ones; its path, if any, is a
	// prefix of the recorded paths (unless they start with it already).
	Against string
	// Pace is PaceFast (default) or PaceOriginal.
	Pace string
	// Ignore are masks (see ParseMask) of members the diff ignores, on
	// top of the dialect's volatile members.
	Ignore []string
	// AnswerTimeout bounds the wait for each answer the recorded client
	// got before its next frame; an answer that does not come within it
	// is missing (a diff row) and the replay goes on.
	AnswerTimeout time.Duration
	// ReconnectGap is the longest recorded pause kept, at PaceFast, before
	// a connection opens after another ended: a server needs a moment to
	// notice a dropped connection before its client resumes.
	ReconnectGap time.Duration
	// Header goes on every handshake.
	Header http.Header
	// Query replaces the recorded value of a query parameter on every
	// connection whose URL has it (credentials are redacted in
	// recordings: token, host_token).
	Query map[string]string
	// Set are MASK=VALUE values (see ParseSet) put in the client's frames
	// in place of the recorded ones: credentials the recording redacted
	// in a message (an apiKey), or any value a user wants to change.
	Set []string
	// Insecure accepts any TLS certificate of a wss:// target.
	Insecure bool
	// Check tunes the check engine that judges the new traffic.
	Check check.Options
	// Limits bound the wire log of each session in Result.Sessions; zero
	// keeps none.
	Limits reports.WireLimits
}

// Result is what a replay saw: the comparison of each recorded connection
// with its replay, the new traffic judged as sessions, and notes.
type Result struct {
	Dialect       string
	DialectReason string
	// Diffs compare each recorded connection with its replay (s2c).
	Diffs []reports.ReplayDiff
	// Sessions are the new traffic, both directions, judged by the check
	// engine and grouped into logical sessions as validate does.
	Sessions []reports.Session
	// Lines are the new traffic as recording lines (for --record).
	Lines []recording.Line
	// Notes are what a reader should know that is not a diff: connections
	// not replayed, answers given up on.
	Notes []string
}

// Differs counts the connections whose replay does not match.
func (r *Result) Differs() int {
	n := 0
	for _, d := range r.Diffs {
		if !d.Matched {
			n++
		}
	}
	return n
}

// Run plays the client side of a plan against opts.Against. Connections
// open, send, close and drop in the recorded order; before each client
// action the replay waits until every open connection has the answers the
// recorded one had at that point (counted by message type and the
// client's correlation ids they quote). Ids the new
// server mints are learned from its answers and put into later client
// frames and URLs. It returns ErrUnreachable when the target cannot be
// reached; other trouble of one connection is in its diff.
func Run(ctx context.Context, p *Plan, opts Options) (*Result, error) {
	pl, err := newPlayer(p, opts)
	if err != nil {
		return nil, err
	}
	defer pl.stopAll()
	for i, st := range pl.sc.steps {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("replay interrupted at step %d of %d: %w", i+1, len(pl.sc.steps), err)
		}
		if err := pl.step(ctx, st); err != nil {
			return nil, err
		}
	}
	pl.stopAll()
	return pl.result(), nil
}

// player is one replay in progress. Only the goroutine of Run touches it;
// each live connection's reader and writer share only the live's state.
type player struct {
	p     *Plan
	d     *dialect.Dialect
	opts  Options
	sc    *script
	tgt   *target
	ids   *IDs
	masks Masks
	rw    rewriter
	corr  *correlator
	timed map[string]bool
	j     *journal
	// notify is signalled by the readers on every frame and end.
	notify chan struct{}

	lives map[*Conn]*live // open and ended connections, by recorded conn
	open  []*Conn         // connections not yet closed by the replay, in dial order
	errs  map[*Conn]string
	// deficit counts, per connection and correlation key, the answers given up on:
	// later waits do not wait for them again.
	deficit map[*Conn]map[string]int
	learned map[*Conn]*learnState
	// local are ids a connection's server handed out in place of ones
	// learned on another connection (see learnPair).
	local  map[*Conn]map[string]string
	expect map[*Conn]*expectation
	notes  []string

	lastAction, lastEnd time.Time // wall times of the last client action and end
	lastAt, lastEndAt   time.Time // recorded times of the same
}

func newPlayer(p *Plan, opts Options) (*player, error) {
	d, err := dialect.Get(p.Dialect)
	if err != nil {
		return nil, err
	}
	if opts.Pace == "" {
		opts.Pace = PaceFast
	}
	if opts.Pace != PaceFast && opts.Pace != PaceOriginal {
		return nil, fmt.Errorf("pace %q: want %s or %s", opts.Pace, PaceFast, PaceOriginal)
	}
	if opts.AnswerTimeout <= 0 {
		opts.AnswerTimeout = DefaultAnswerTimeout
	}
	if opts.ReconnectGap <= 0 {
		opts.ReconnectGap = DefaultReconnectGap
	}
	masks, err := VolatileMasks(p.Dialect, opts.Ignore)
	if err != nil {
		return nil, err
	}
	k := KnowledgeOf(p.Dialect)
	cursors, err := ParseMasks(k.Cursors)
	if err != nil {
		return nil, fmt.Errorf("dialect %s: %w", p.Dialect, err)
	}
	tgt, err := newTarget(opts.Against, opts.Header, opts.Query)
	if err != nil {
		return nil, err
	}
	timed := map[string]bool{}
	for _, t := range k.Timed {
		timed[t] = true
	}
	var sets []Set
	for _, s := range opts.Set {
		set, err := ParseSet(s)
		if err != nil {
			return nil, err
		}
		sets = append(sets, set)
	}
	tokens := map[string]bool{}
	for _, t := range k.Tokens {
		tokens[t] = true
	}
	ids := NewIDs(p.Dialect)
	corr := newCorrelator(p, d, ids)
	pl := &player{p: p, d: d, opts: opts, sc: newScript(p, corr, timed), corr: corr, tgt: tgt, ids: ids, masks: masks,
		rw: rewriter{ids: ids, cursors: cursors, tokens: tokens, sets: sets, redacted: map[string]bool{}}, timed: timed, j: &journal{}, notify: make(chan struct{}, 1),
		lives: map[*Conn]*live{}, errs: map[*Conn]string{}, deficit: map[*Conn]map[string]int{}, learned: map[*Conn]*learnState{}, local: map[*Conn]map[string]string{}, expect: map[*Conn]*expectation{}}
	if note := p.HTTPNote(); note != "" {
		pl.notes = append(pl.notes, note)
	}
	for _, c := range p.Conns {
		if why, ok := pl.sc.skipped[c]; ok {
			pl.notes = append(pl.notes, fmt.Sprintf("%s (%s) not replayed: the recorder did not judge it (%s)", c.ID, c.URL, why))
		}
	}
	return pl, nil
}

// step takes one client action, after the answers it waits for.
func (pl *player) step(ctx context.Context, st step) error {
	if st.kind == stepOpen {
		// The answers before the open are awaited too: a reconnection's
		// URL may carry an id the server minted in one of them.
		if err := pl.await(ctx, st); err != nil {
			return err
		}
		pl.learn()
		if err := pl.pace(ctx, st); err != nil {
			return err
		}
		return pl.dial(ctx, st.conn)
	}
	l := pl.lives[st.conn]
	if l == nil || !pl.isOpen(st.conn) {
		return nil // never opened (its error is noted) or already stopped
	}
	if err := pl.await(ctx, st); err != nil {
		return err
	}
	pl.learn()
	if err := pl.pace(ctx, st); err != nil {
		return err
	}
	switch st.kind {
	case stepSend:
		f := st.conn.Frames[st.frame]
		payload := f.Payload
		if f.Op == wire.OpText {
			payload = pl.rw.rewrite(frameType(pl.d, f), payload, pl.local[st.conn])
		}
		if err := l.send(ctx, f.Op, payload); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			pl.errs[st.conn] = fmt.Sprintf("stopped before client frame %d (%s): %v", f.Index, describeStep(pl.d, f), err)
			pl.stop(st.conn, func() { l.cut() })
		}
	case stepClose:
		code, reason := pl.closeOf(st)
		pl.stop(st.conn, func() { l.close(ctx, code, reason, closeGrace) })
	case stepCut:
		pl.stop(st.conn, l.cut)
	case stepAwait:
		pl.awaitServerEnd(ctx, l)
		pl.stop(st.conn, func() { l.close(ctx, websocket.CloseNormalClosure, "", closeGrace) })
	case stepFinish:
		pl.stop(st.conn, func() { l.close(ctx, websocket.CloseNormalClosure, "replay over", closeGrace) })
	}
	return ctx.Err()
}

// closeOf is the code and reason the recorded client closed with.
func (pl *player) closeOf(st step) (int, string) {
	if st.frame >= 0 {
		f := st.conn.Frames[st.frame]
		if f.CloseCode == 0 {
			return websocket.CloseNoStatusReceived, ""
		}
		return f.CloseCode, string(f.Payload)
	}
	if e := st.conn.End; e != nil && e.Code != 0 && e.Code != websocket.CloseAbnormalClosure {
		return e.Code, e.Reason
	}
	return websocket.CloseNormalClosure, ""
}

// awaitServerEnd waits, up to the answer timeout, for the server to close
// a connection the recorded server closed.
func (pl *player) awaitServerEnd(ctx context.Context, l *live) {
	t := time.NewTimer(pl.opts.AnswerTimeout)
	defer t.Stop()
	select {
	case <-l.rdone:
	case <-t.C:
	case <-ctx.Done():
	}
}

// stop ends a connection with end (close, cut) and marks it ended.
func (pl *player) stop(c *Conn, end func()) {
	end()
	for i, o := range pl.open {
		if o == c {
			pl.open = append(pl.open[:i], pl.open[i+1:]...)
			break
		}
	}
	pl.lastEnd = time.Now()
}

func (pl *player) isOpen(c *Conn) bool {
	for _, o := range pl.open {
		if o == c {
			return true
		}
	}
	return false
}

// stopAll cuts what is still open and waits for every goroutine; safe to
// call twice.
func (pl *player) stopAll() {
	for _, c := range append([]*Conn(nil), pl.open...) {
		pl.stop(c, pl.lives[c].cut)
	}
}

// dial opens the replay of a recorded connection.
func (pl *player) dial(ctx context.Context, c *Conn) error {
	u := pl.tgt.urlFor(c.URL, pl.ids)
	dialer := websocket.Dialer{HandshakeTimeout: pl.opts.AnswerTimeout, Proxy: http.ProxyFromEnvironment}
	if pl.opts.Insecure {
		dialer.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // --insecure is the user's explicit choice
	}
	ws, resp, err := dialer.DialContext(ctx, u, pl.tgt.header)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if resp == nil {
			return fmt.Errorf("%w: cannot connect to %s: %w", ErrUnreachable, u, err)
		}
		why := fmt.Sprintf("handshake refused: %s", resp.Status)
		if resp.StatusCode == http.StatusNotFound {
			why += " (is the endpoint elsewhere? give its path in --against, e.g. ws://host:port/ws)"
		}
		if len(pl.lives) == 0 {
			return fmt.Errorf("%w: %s: %s", ErrUnreachable, u, why)
		}
		pl.errs[c] = fmt.Sprintf("%s (%s)", why, u)
		return nil
	}
	session := c.Session
	if session == "" {
		session = c.ID
	}
	parent := ""
	if pc := pl.connByID(c.Parent); pc != nil && pl.lives[pc] != nil {
		parent = pl.lives[pc].id
	}
	l := &live{rec: c, id: "r-" + c.ID, session: session, url: u, ws: ws, d: pl.d, corr: pl.corr, j: pl.j, notify: pl.notify}
	pl.j.open(l.id, session, parent, u, time.Now())
	l.start()
	pl.lives[c] = l
	pl.open = append(pl.open, c)
	pl.learned[c] = &learnState{}
	return nil
}

func (pl *player) connByID(id string) *Conn {
	if id == "" {
		return nil
	}
	for _, c := range pl.p.Conns {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// pace keeps the recorded pause before a client action: always at
// PaceOriginal; at PaceFast only before a connection that opens after
// another ended (bounded by ReconnectGap).
func (pl *player) pace(ctx context.Context, st step) error {
	var wait time.Duration
	switch {
	case pl.opts.Pace == PaceOriginal && !pl.lastAt.IsZero():
		wait = st.at.Sub(pl.lastAt) - time.Since(pl.lastAction)
	case st.kind == stepOpen && !pl.lastEndAt.IsZero():
		wait = min(st.at.Sub(pl.lastEndAt), pl.opts.ReconnectGap) - time.Since(pl.lastEnd)
	}
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if !st.at.IsZero() {
		pl.lastAt = st.at
		if st.kind == stepCut || st.kind == stepClose {
			pl.lastEndAt = st.at
		}
	}
	pl.lastAction = time.Now()
	return nil
}

func describeStep(d *dialect.Dialect, f wire.Frame) string {
	if t := frameType(d, f); t != "" {
		return t
	}
	return f.Op.String()
}
