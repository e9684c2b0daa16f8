package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wsconform/wsconform/internal/fault"
)

// Env is what one running reference server gives its dialects: settings,
// ids, clock, faults and mutations, and the lifetime every connection
// shares. Build it with NewEnv; dialects only read it.
type Env struct {
	Config
	ctx    context.Context
	cancel context.CancelFunc
	// mu orders wg.Add against Shutdown's Wait: nothing new starts once
	// shutting is set.
	mu       sync.Mutex
	shutting bool
	wg       sync.WaitGroup
	conns    atomic.Int64
	live     atomic.Int64 // WebSocket connections being served (Guard.MaxConns)
	// idle closes when live drops to 0 (WaitIdle); guarded by mu.
	idle  chan struct{}
	seeds atomic.Uint64
	trace *Trace
	label string
}

// envs numbers servers in this process for their goroutine labels.
var envs atomic.Int64

// Config holds the knobs of a reference server. The zero value is valid:
// NewEnv fills in every default.
type Config struct {
	// IDs makes session, run and call ids. Default: random.
	IDs IDs
	// Now is the clock for timestamps. Default: time.Now.
	Now func() time.Time
	// Faults apply to every connection, before any a connection asks for in
	// its query (?fault=SPEC).
	Faults []fault.Spec
	// Seed makes jitter reproducible; each connection derives its own.
	Seed uint64
	// Mutations are the deliberate spec violations to commit.
	Mutations Mutations
	// MaxFrame is the largest client message handled; a larger one is
	// drained and answered with the dialect's error. Default 1 MiB.
	MaxFrame int64
	// QueueSize bounds each connection's send queue. Default 1024.
	QueueSize int
	// WriteTimeout is how long one write to a client may block before the
	// client counts as not reading: it is then closed with 1013 if it
	// reads again within CloseGrace, else dropped without a close frame
	// (it sees 1006). It also bounds the write of a close frame. Default
	// 10s.
	WriteTimeout time.Duration
	// CloseGrace is how much longer the write a stalled client blocked
	// may take to complete, so that the 1013 close frame follows it on
	// the wire: cut in the middle, the frame would leave a client that
	// reads again only a dropped connection (1006). A client that does
	// not read within it is dropped. Default WriteTimeout/2.
	CloseGrace time.Duration
	// Chunk is the pause between streamed chunks of an ordinary reply.
	// Default 0: as fast as the client reads.
	Chunk time.Duration
	// Slow is the pause between chunks of a "/slow N" reply. Default 100ms.
	Slow time.Duration
	// Heartbeat is the interval of a dialect's heartbeat message, where it
	// has one. Default 15s; negative disables.
	Heartbeat time.Duration
	// PromptTimeout is how long a question to the user waits before the
	// server gives up on it, where the dialect says it does. Default 5m.
	PromptTimeout time.Duration
	// ReplayWindow bounds how many events a session keeps for replay.
	// Default 1000.
	ReplayWindow int
	// MaxSessions bounds the sessions kept for clients that come back
	// after their last connection closed (retention.go): beyond it the one
	// left longest is forgotten. hostd keeps runs, not sessions: it
	// remembers ReplayWindow of them. Default DefaultMaxSessions (256);
	// negative: no bound.
	MaxSessions int
	// SessionTTL is how long a session without a connection is kept: a
	// client that comes back later finds it gone. Default
	// DefaultSessionTTL (10m); negative: no bound.
	SessionTTL time.Duration
	// Auth holds the credentials of dialects with a login.
	Auth Auth
	// Log receives connection-level diagnostics. Default: discarded.
	Log *slog.Logger
	// Guard restricts Origin, Host, the number of connections and how
	// long a silent one stays. The zero value admits everyone.
	Guard Guard
}

// Auth is the demo login of dialects that have one (hostd).
type Auth struct {
	User, Password, HostToken string
}

// DefaultAuth is the demo user of the reference server, printed by
// `wsconform serve` and handed to clients by `wsconform gate`.
var DefaultAuth = Auth{User: "demo", Password: "demo", HostToken: "demo-host-token"}

// NewEnv fills in defaults and starts the server lifetime; Shutdown ends it.
func NewEnv(cfg Config) *Env {
	if cfg.IDs == nil {
		cfg.IDs = RandomIDs()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxFrame <= 0 {
		cfg.MaxFrame = 1 << 20
	}
	if cfg.QueueSize <= 0 {
		cfg.QueueSize = 1024
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	if cfg.CloseGrace <= 0 {
		cfg.CloseGrace = cfg.WriteTimeout / 2
	}
	if cfg.Slow <= 0 {
		cfg.Slow = 100 * time.Millisecond
	}
	if cfg.Heartbeat == 0 {
		cfg.Heartbeat = 15 * time.Second
	}
	if cfg.PromptTimeout <= 0 {
		cfg.PromptTimeout = 5 * time.Minute
	}
	if cfg.ReplayWindow <= 0 {
		cfg.ReplayWindow = 1000
	}
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.SessionTTL == 0 {
		cfg.SessionTTL = DefaultSessionTTL
	}
	if cfg.Auth == (Auth{}) {
		cfg.Auth = DefaultAuth
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	e := &Env{Config: cfg, label: fmt.Sprintf("ref-%d", envs.Add(1))}
	e.ctx, e.cancel = context.WithCancel(context.Background())
	return e
}

// Context is canceled when the server shuts down: connections close with
// 1001 and background work (runs, heartbeats) stops.
func (e *Env) Context() context.Context { return e.ctx }

// Go runs f in a goroutine that Shutdown waits for. Dialects start every
// background goroutine (agent runs, timers) through it so none outlives the
// server.
func (e *Env) Go(f func(ctx context.Context)) {
	if !e.enter() {
		return
	}
	go func() {
		defer e.wg.Done()
		pprof.Do(e.ctx, e.Labels(), f)
	}()
}

// GoroutineLabel is the pprof label key every goroutine of a reference
// server carries, with the server's Label as value, so a leak check can
// count exactly this server's goroutines while other tests run.
const GoroutineLabel = "wsconform-reference"

// Label names this server among the servers of the process.
func (e *Env) Label() string { return e.label }

// Labels are the pprof labels of this server's goroutines; goroutines they
// start inherit them.
func (e *Env) Labels() pprof.LabelSet { return pprof.Labels(GoroutineLabel, e.label) }

// Shutdown closes every connection with 1001 and waits for all goroutines
// started through the Env, or for ctx.
func (e *Env) Shutdown(ctx context.Context) error {
	e.mu.Lock()
	e.shutting = true
	e.mu.Unlock()
	e.cancel()
	done := make(chan struct{})
	go func() {
		e.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("reference server shutdown: %w", ctx.Err())
	}
}

// enter counts one more goroutine for Shutdown to wait for, unless the
// server is already shutting down.
func (e *Env) enter() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.shutting {
		return false
	}
	e.wg.Add(1)
	return true
}

// WaitIdle waits until no WebSocket connection is being served: every
// connection's handler has seen Closed (a session it left is detached).
// A test closes a client and waits here before it looks at what the
// server kept; a client's own view ends before the server's.
func (e *Env) WaitIdle(ctx context.Context) error {
	e.mu.Lock()
	if e.live.Load() == 0 {
		e.mu.Unlock()
		return nil
	}
	if e.idle == nil {
		e.idle = make(chan struct{})
	}
	idle := e.idle
	e.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("reference server still serving %d connections: %w", e.live.Load(), ctx.Err())
	}
}

// served counts a connection as no longer served, waking WaitIdle when
// it was the last.
func (e *Env) served() {
	if e.live.Add(-1) != 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.idle != nil && e.live.Load() == 0 {
		close(e.idle)
		e.idle = nil
	}
}

// Stamp is the current time in RFC 3339 with milliseconds, UTC: the
// timestamp format of every dialect's ts fields.
func (e *Env) Stamp() string {
	return e.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// nextConnID names connections c1, c2, … in accept order.
func (e *Env) nextConnID() string {
	return fmt.Sprintf("c%d", e.conns.Add(1))
}

// EnableTrace makes every connection record when each message was queued,
// for the fan-out latency benchmark. Call before the first connection.
func (e *Env) EnableTrace() *Trace {
	e.trace = &Trace{}
	return e.trace
}
