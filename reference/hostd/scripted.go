package hostd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/agent"
	"github.com/wsconform/wsconform/reference/server"
)

// HostOptions configure a ScriptedHost. The zero value works against a
// reference server with the default demo credentials.
type HostOptions struct {
	// HostID names the host (?host_id=). Default "scripted-host".
	HostID string
	// HostToken is the host's credential (?host_token=). Default
	// server.DefaultAuth.HostToken.
	HostToken string
	// Pace is how fast the scripted agent streams. Slow defaults to 100ms.
	Pace agent.Pace
	// Query adds parameters to the host URL, e.g. fault=drop-after=5 to
	// make the reference server drop the host connection.
	Query url.Values
	// Now stamps events (ts). Default time.Now.
	Now func() time.Time
	// IDs makes run ids. Default random.
	IDs server.IDs
	// Retry is the first reconnect delay; it doubles up to 5s while
	// connecting fails. Default 100ms.
	Retry time.Duration
	// SpoolLimit bounds the events kept until the server acknowledges
	// them; beyond it the oldest are dropped. Default 10000.
	SpoolLimit int
	// Log receives connection diagnostics. Default: discarded.
	Log *slog.Logger
}

// maxRetry caps the reconnect delay.
const maxRetry = 5 * time.Second

func (o HostOptions) withDefaults() HostOptions {
	if o.HostID == "" {
		o.HostID = "scripted-host"
	}
	if o.HostToken == "" {
		o.HostToken = server.DefaultAuth.HostToken
	}
	if o.Pace.Slow <= 0 {
		o.Pace.Slow = 100 * time.Millisecond
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.IDs == nil {
		o.IDs = server.RandomIDs()
	}
	if o.Retry <= 0 {
		o.Retry = 100 * time.Millisecond
	}
	if o.SpoolLimit <= 0 {
		o.SpoolLimit = 10000
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// ScriptedHost is a host daemon driven by the scripted agent, for demos,
// tests and `wsconform gate`: it dials the server's /ws/host, starts one
// run, and answers inputs. It is a real gorilla WebSocket client (one
// reader and one writer goroutine per connection) that keeps a spool of
// the events the server has not acknowledged, deletes them up to each
// run.ack's last_seq, and replays the rest after reconnecting. See the
// package documentation for how the agent's script maps to run events.
//
// A ScriptedHost is used by one goroutine: the one calling Run.
type ScriptedHost struct {
	url  string
	opts HostOptions
	log  *slog.Logger

	link *hostLink // the live connection; nil between connections

	// The run and its program; they survive reconnects.
	runID    string
	seq      int64
	spool    []spooled
	recorded *recentSet // run_id + input_id of inputs written to the PTY
	prog     program
}

// spooled is an event sent (or to be sent) and not yet acknowledged.
type spooled struct {
	runID string
	seq   int64
	data  []byte
}

// NewScriptedHost prepares a host for the server at baseURL (ws://,
// wss://, http:// or https://; /ws/host is appended unless the URL already
// ends with it).
func NewScriptedHost(baseURL string, opts HostOptions) (*ScriptedHost, error) {
	opts = opts.withDefaults()
	u, err := hostURL(baseURL, opts)
	if err != nil {
		return nil, err
	}
	return &ScriptedHost{url: u, opts: opts, log: opts.Log, recorded: newRecentSet(1024)}, nil
}

// RunScriptedHost runs a ScriptedHost against the server at baseURL until
// ctx ends, reconnecting (with spool replay) whenever the connection
// drops. It returns nil when ctx ends, or an error when the URL is bad or
// the server refuses the host's credentials (close 4400/4401 or HTTP
// 401/403), which retrying cannot fix.
func RunScriptedHost(ctx context.Context, baseURL string, opts HostOptions) error {
	h, err := NewScriptedHost(baseURL, opts)
	if err != nil {
		return err
	}
	return h.Run(ctx)
}

// errRefused marks a refusal of the host's credentials.
var errRefused = errors.New("server refused the host")

// Run connects, runs the program and reconnects until ctx ends; see
// RunScriptedHost.
func (h *ScriptedHost) Run(ctx context.Context) error {
	delay := h.opts.Retry
	for {
		ws, err := h.dial(ctx)
		if err == nil {
			delay = h.opts.Retry
			err = h.session(ctx, ws)
		}
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, errRefused) {
			return err
		}
		h.log.Info("scripted host: reconnecting", "err", err, "after", delay)
		if !sleep(ctx, delay) {
			return nil
		}
		delay = min(2*delay, maxRetry)
	}
}

func (h *ScriptedHost) dial(ctx context.Context) (*websocket.Conn, error) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	ws, resp, err := d.DialContext(ctx, h.url, nil)
	if err != nil {
		if resp != nil && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
			return nil, fmt.Errorf("dial %s: %s: %w", redactURL(h.url), resp.Status, errRefused)
		}
		return nil, fmt.Errorf("dial %s: %w", redactURL(h.url), err)
	}
	return ws, nil
}

// session runs one connection: replay the spool, start the first run,
// then handle the server's messages and the program's steps until the
// connection or ctx ends.
func (h *ScriptedHost) session(ctx context.Context, ws *websocket.Conn) error {
	h.link = newHostLink(ctx, ws)
	defer func() {
		h.prog.disarm()
		h.link.close()
		h.link = nil
	}()
	for _, s := range h.spool {
		h.link.send(s.data)
	}
	if h.runID == "" {
		h.startRun()
	}
	for {
		if data, ok := h.link.next(); ok {
			h.handle(data)
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-h.link.dead:
			return h.link.failure()
		case data, ok := <-h.link.in:
			if !ok {
				return h.link.failure()
			}
			h.handle(data)
		case <-h.prog.wake():
			h.prog.step()
		}
	}
}

// sleep waits d or until ctx ends; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// hostURL builds the /ws/host URL with the host's credentials.
func hostURL(base string, o HostOptions) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("scripted host: parse server URL: %w", err)
	}
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	case "ws", "wss":
	default:
		return "", fmt.Errorf("scripted host: server URL %q: want ws://, wss://, http:// or https://", base)
	}
	if !strings.HasSuffix(u.Path, "/ws/host") {
		u.Path = strings.TrimRight(u.Path, "/") + "/ws/host"
	}
	q := u.Query()
	for k, vs := range o.Query {
		q[k] = append([]string(nil), vs...)
	}
	q.Set("host_id", o.HostID)
	q.Set("host_token", o.HostToken)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// redactURL hides the host token in messages.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	q := u.Query()
	if q.Has("host_token") {
		q.Set("host_token", "REDACTED")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// recentSet is a set that remembers its last limit members.
type recentSet struct {
	limit int
	set   map[string]bool
	order []string
}

func newRecentSet(limit int) *recentSet { return &recentSet{limit: limit, set: map[string]bool{}} }

func (s *recentSet) has(k string) bool { return s.set[k] }

func (s *recentSet) add(k string) {
	if s.set[k] {
		return
	}
	if len(s.order) >= s.limit {
		delete(s.set, s.order[0])
		s.order = s.order[1:]
	}
	s.set[k] = true
	s.order = append(s.order, k)
}
