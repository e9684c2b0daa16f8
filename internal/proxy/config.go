package proxy

import (
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/fault"
	"github.com/wsconform/wsconform/internal/netguard"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// Defaults of Config, chosen for a developer's machine: generous limits,
// short enough timeouts that a stuck peer is noticed within seconds.
const (
	// DefaultMaxFrame is the largest frame a recording holds readably
	// (recording.MaxFrameBytes): every frame the proxy relays and records,
	// `wsconform validate` reads back.
	DefaultMaxFrame         = recording.MaxFrameBytes
	DefaultWriteTimeout     = 10 * time.Second
	DefaultDialTimeout      = 10 * time.Second
	DefaultCloseGrace       = 3 * time.Second
	DefaultQueueMessages    = 256
	DefaultQueueBytes       = 32 << 20
	DefaultValidationFrames = 8192
	DefaultValidationBytes  = 16 << 20
	DefaultMaxFindings      = 10000
	// DefaultMemoryBudget bounds the messages buffered in relay queues
	// across all connections (each direction of each connection is also
	// bounded by QueueBytes).
	DefaultMemoryBudget = 256 << 20
	// DefaultMaxConns bounds the WebSocket connections relayed at once
	// (each costs four goroutines and 64 KiB of socket buffers).
	DefaultMaxConns = 512
	// DefaultIdleTimeout closes an upgraded connection on which neither
	// peer sent a single frame for this long.
	DefaultIdleTimeout = 2 * time.Minute
)

// How the Host and Origin headers travel to the upstream (--host,
// --origin).
const (
	// HostKeep passes the client's Host on (Caddy, Traefik, Vite's and
	// webpack's dev proxies do the same); the upstream's own host is
	// only dialled.
	HostKeep = "keep"
	// HostUpstream sends the upstream's host instead (nginx's default).
	HostUpstream = "upstream"
	// OriginKeep passes Origin on unchanged.
	OriginKeep = "keep"
	// OriginUpstream rewrites an Origin that names the proxy itself (a
	// page the browser loaded through the proxy) to the upstream's
	// origin; any other Origin passes unchanged, so the upstream still
	// refuses foreign pages.
	OriginUpstream = "upstream"
)

// Config configures a Proxy. Upstream is required; zero values of the
// other fields take the defaults above.
type Config struct {
	// Upstream is the base URL of the server: ws:// or wss://, optionally
	// with a path prefix that request paths are appended to.
	Upstream string
	// Dialect is a dialect name, or "" / "auto" to detect it from the
	// first connection's path and first frames.
	Dialect string
	// Faults are injected into every connection; a spec's direction says
	// which way (s2c: towards the client, c2s: towards the upstream).
	Faults []fault.Spec
	// Seed makes jitter reproducible: connection n uses Seed+n.
	Seed uint64
	// Insecure skips TLS verification of a wss:// (and https://) upstream.
	Insecure bool
	// MirrorDrops makes a peer that vanished without a close frame a
	// vanished connection for the other side too: once what is queued for
	// it is written, its TCP connection is cut (it sees 1006), as it would
	// be talking to its peer directly. Without it a client gets 1011
	// "wsproxy: upstream connection lost" and an upstream 1001 "wsproxy:
	// the client went away". The gate sets it, so that a client that
	// reconnects only after a drop is tested as in production, and a
	// server (or serve --replay's fixture) sees a client's drop as a drop,
	// not a going-away close, which servers may treat as a deliberate
	// leave.
	MirrorDrops bool

	// MaxFrame is the largest message relayed; a larger one closes its
	// connection with 1009 and is reported. With Record it is at most
	// recording.MaxFrameBytes, so that the recording reads back.
	MaxFrame int64
	// WriteTimeout bounds each write to a peer and how long a full relay
	// queue may stay full without progress.
	WriteTimeout time.Duration
	// DialTimeout bounds the upstream handshake.
	DialTimeout time.Duration
	// CloseGrace is how long a peer has to answer a close frame.
	CloseGrace time.Duration
	// QueueMessages and QueueBytes bound each direction of each connection.
	QueueMessages, QueueBytes int
	// ValidationFrames and ValidationBytes bound the queue to the
	// validator; frames beyond it are relayed and recorded but not checked,
	// and a proxy.validation-gap finding says how many.
	ValidationFrames, ValidationBytes int
	// MaxFindings bounds the findings kept for the report; later ones are
	// counted (and still decide the verdict).
	MaxFindings int
	// Host and Origin say how those headers reach the upstream: HostKeep
	// (default) or HostUpstream, OriginKeep (default) or OriginUpstream.
	Host, Origin string
	// Paths are path.Match globs of the endpoints judged as the dialect;
	// other WebSocket connections are relayed and recorded, not judged.
	// Empty: every connection whose traffic looks like the dialect.
	Paths []string
	// MemoryBudget bounds the bytes buffered in relay queues across all
	// connections; the connection that would exceed it is closed (1013).
	MemoryBudget int64
	// MaxConns bounds the WebSocket connections relayed at once; a client
	// beyond it gets 503. Negative: no limit.
	MaxConns int
	// IdleTimeout closes an upgraded connection on which neither peer has
	// sent a frame for this long. Negative: never.
	IdleTimeout time.Duration
	// Listen is the address the proxy listens on (host:port), and
	// AllowHosts more host names the Host header of a request may carry
	// ("*": any). A request with another Host is refused with 403 (DNS
	// rebinding). IP literals, localhost and *.localhost are always
	// accepted: a DNS rebinding attack needs a name it controls.
	Listen     string
	AllowHosts []string
	// AllowOrigins lists the origins (scheme://host[:port]) of the browser
	// pages that may open a WebSocket through the proxy besides those
	// always allowed ("*": any page). Always allowed: handshakes without
	// Origin (not a browser's), pages of the proxy's own address, and pages
	// served from this machine (a loopback host or the host of Listen, any
	// port: a UI's dev server). Another page's handshake is refused with
	// 403 and a proxy.origin-refused finding: WebSockets are not subject
	// to CORS, so without this any site the developer visits could read
	// an agent session through the proxy.
	AllowOrigins []string

	// Check tunes the check engine (the same options `wsconform validate`
	// uses, so that live and offline judge alike).
	Check check.Options

	// Record, when set, receives the recording (JSON Lines): a frame's
	// line is written before the frame reaches a peer, one write per
	// burst (recorder.go).
	Record io.Writer
	// Console, when set, receives the live log; Quiet keeps it to
	// findings, failures and the summary. Color is a console.Color* mode.
	Console io.Writer
	Quiet   bool
	Color   string
	// ConsoleShows, when set, picks the findings the console prints (all
	// are kept for the report): the gate shows only the client's, since
	// the server's are not blamed on it.
	ConsoleShows func(check.Finding) bool

	// Live, when set, is told every frame, finding and connection event
	// as the validator handles them (the live web view); it must not block.
	Live LiveObserver

	// Tool names the program in the recording header and the report.
	Tool string
	// Label is the value of the pprof label "wsproxy" on every goroutine
	// the proxy starts, so tests can prove none is left behind.
	Label string
}

// withDefaults checks cfg and fills in the defaults.
func (cfg Config) withDefaults() (Config, *url.URL, error) {
	u, err := parseUpstream(cfg.Upstream)
	if err != nil {
		return cfg, nil, err
	}
	if cfg.Dialect == "auto" {
		cfg.Dialect = ""
	}
	if cfg.Dialect != "" && !dialect.Known(cfg.Dialect) {
		return cfg, nil, fmt.Errorf("unknown dialect %q (known: %s, or auto)", cfg.Dialect, strings.Join(dialect.Names(), ", "))
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	if cfg.MaxFrame <= 0 {
		cfg.MaxFrame = DefaultMaxFrame
	}
	if err := CheckMaxFrame(cfg.MaxFrame, cfg.Record != nil); err != nil {
		return cfg, nil, err
	}
	defDur(&cfg.WriteTimeout, DefaultWriteTimeout)
	defDur(&cfg.DialTimeout, DefaultDialTimeout)
	defDur(&cfg.CloseGrace, DefaultCloseGrace)
	def(&cfg.QueueMessages, DefaultQueueMessages)
	def(&cfg.QueueBytes, DefaultQueueBytes)
	def(&cfg.ValidationFrames, DefaultValidationFrames)
	def(&cfg.ValidationBytes, DefaultValidationBytes)
	def(&cfg.MaxFindings, DefaultMaxFindings)
	if cfg.MemoryBudget <= 0 {
		cfg.MemoryBudget = DefaultMemoryBudget
	}
	if cfg.MaxConns == 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.Host == "" {
		cfg.Host = HostKeep
	}
	if cfg.Origin == "" {
		cfg.Origin = OriginKeep
	}
	if cfg.Host != HostKeep && cfg.Host != HostUpstream {
		return cfg, nil, fmt.Errorf("host mode %q: want keep or upstream", cfg.Host)
	}
	if cfg.Origin != OriginKeep && cfg.Origin != OriginUpstream {
		return cfg, nil, fmt.Errorf("origin mode %q: want keep or upstream", cfg.Origin)
	}
	if err := CheckPaths(cfg.Paths); err != nil {
		return cfg, nil, err
	}
	if cfg.AllowOrigins, err = netguard.ParseOrigins("--allow-origin", cfg.AllowOrigins); err != nil {
		return cfg, nil, err
	}
	if cfg.Tool == "" {
		cfg.Tool = "wsproxy"
	}
	if cfg.Label == "" {
		cfg.Label = "proxy"
	}
	return cfg, u, nil
}

// CheckMaxFrame refuses a frame limit over recording.MaxFrameBytes when
// the proxy records: the recording would hold lines `wsconform validate`
// refuses to read.
func CheckMaxFrame(max int64, records bool) error {
	if records && max > recording.MaxFrameBytes {
		return fmt.Errorf("--max-frame %d is over %d bytes, the largest frame a recording holds so that `wsconform validate` reads it back "+
			"(relay larger frames without --record and --web)", max, recording.MaxFrameBytes)
	}
	return nil
}

// CheckPaths reports whether every glob is a valid path.Match pattern.
func CheckPaths(globs []string) error {
	for _, g := range globs {
		if _, err := path.Match(g, "/"); err != nil || !strings.HasPrefix(g, "/") {
			return fmt.Errorf("--path %q: want a path glob such as /ws or /api/*/ws", g)
		}
	}
	return nil
}

// CheckUpstream reports whether raw is an upstream URL the proxy accepts,
// so a command can refuse a bad one before it listens.
func CheckUpstream(raw string) error {
	_, err := parseUpstream(raw)
	return err
}

// parseUpstream accepts ws:// and wss:// URLs (http:// and https:// are
// taken to mean the same server) without a query or fragment.
func parseUpstream(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, fmt.Errorf("no upstream URL")
	}
	u, err := wire.ParseURL(raw)
	if err != nil {
		return nil, fmt.Errorf("upstream %q: %w", raw, err)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("upstream %q: a query or fragment cannot be combined with the client's", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}
