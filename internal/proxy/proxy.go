package proxy

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/netguard"
	"github.com/wsconform/wsconform/reports"
)

// GoroutineLabel is the pprof label every goroutine of a Proxy carries
// (value: Config.Label), so tests can prove none outlives Shutdown.
const GoroutineLabel = "wsproxy"

// Proxy is the recording, validating WebSocket proxy: an http.Handler that
// relays WebSocket connections to the upstream and reverse-proxies every
// other request to it.
type Proxy struct {
	cfg       Config
	up        *url.URL
	dialer    *websocket.Dialer
	upgrader  websocket.Upgrader
	origins   netguard.Origins
	rev       *httputil.ReverseProxy
	transport *http.Transport
	tap       *tap
	val       *validator
	started   time.Time

	// quit is closed by Shutdown: every connection drains and closes with
	// 1001. dialCtx ends handshakes in progress.
	quit       chan struct{}
	dialCtx    context.Context
	dialCancel context.CancelFunc

	mu      sync.Mutex
	closing bool
	conns   map[*conn]struct{}
	// reqs are the plain HTTP requests in progress.
	reqs map[*http.ResponseController]struct{}
	wg   sync.WaitGroup
	seq  atomic.Uint64
	// active counts WebSocket connections relayed or being dialled
	// (--max-conns); budget the bytes queued across them (--memory-budget).
	active atomic.Int64
	budget atomic.Int64
	// badHosts are the Host headers refused so far (each reported once).
	badHosts sync.Map
	badHostN atomic.Int64

	shutdownOnce sync.Once
	shutdownErr  error
}

// New checks cfg and starts the proxy's validator; serve the Proxy with an
// http.Server and end it with Shutdown.
func New(cfg Config) (*Proxy, error) {
	cfg, up, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	p := &Proxy{cfg: cfg, up: up, started: time.Now(), quit: make(chan struct{}), conns: map[*conn]struct{}{},
		reqs: map[*http.ResponseController]struct{}{}}
	p.dialCtx, p.dialCancel = context.WithCancel(context.Background())
	if p.tap, err = newTap(cfg, p.started); err != nil {
		return nil, err
	}
	p.dialer, p.transport = newDialer(cfg), newTransport(cfg)
	p.upgrader = websocket.Upgrader{
		ReadBufferSize:  16 << 10,
		WriteBufferSize: 16 << 10,
		WriteBufferPool: gorillaWriteBuffers,
		// serveWS has checked Origin (--allow-origin) before dialling the
		// upstream; Origin is forwarded as --origin says.
		CheckOrigin: func(*http.Request) bool { return true },
	}
	p.origins = netguard.Origins{Allow: cfg.AllowOrigins, Local: true, Listen: cfg.Listen}
	p.rev = p.newReverseProxy()
	p.val = newValidator(p)
	pprof.Do(context.Background(), pprof.Labels(GoroutineLabel, cfg.Label), func(context.Context) {
		go p.val.run()
		if p.tap.rec != nil {
			go p.tap.rec.run()
		}
	})
	return p, nil
}

// ServeHTTP relays WebSocket upgrades and reverse-proxies other requests.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.hostAllowed(r.Host) {
		p.refuseHost(w, r)
		return
	}
	if websocket.IsWebSocketUpgrade(r) {
		p.serveWS(w, r)
		return
	}
	p.serveHTTP(w, r)
}

// maxBadHosts bounds the refused Host headers remembered and reported.
const maxBadHosts = 100

// refuseHost answers a request whose Host is not the proxy's own address
// with 403; the first one per Host is an error of the report, filed before
// the answer so that a report written once the client has it holds it.
func (p *Proxy) refuseHost(w http.ResponseWriter, r *http.Request) {
	name := r.Host
	if h, _, err := net.SplitHostPort(name); err == nil {
		name = h
	}
	why := fmt.Sprintf("Host %q is not the address wsproxy listens on (DNS rebinding protection; --allow-host %s allows it)", r.Host, name)
	if p.badHostN.Load() < maxBadHosts {
		if _, seen := p.badHosts.LoadOrStore(r.Host, true); !seen {
			p.badHostN.Add(1)
			p.tap.note(nil, fmt.Sprintf("refused %s %s: %s", r.Method, r.URL.Path, why), true)
		}
	}
	http.Error(w, "wsproxy: "+why, http.StatusForbidden)
}

// enter registers a connection attempt unless the proxy is shutting down.
func (p *Proxy) enter() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing {
		return false
	}
	p.wg.Add(1)
	return true
}

func (p *Proxy) track(c *conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c *conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.conns, c)
}

func (p *Proxy) nextID() (string, uint64) {
	n := p.seq.Add(1)
	return "c" + strconv.FormatUint(n, 10), n
}

// Shutdown closes every connection with 1001 (after relaying what is
// already queued), cancels the plain HTTP requests in progress, waits for
// both, lets the validator judge everything queued, and flushes the
// recording. When ctx ends first, connections still open are cut.
// Calling it again returns the first result.
func (p *Proxy) Shutdown(ctx context.Context) error {
	p.shutdownOnce.Do(func() {
		p.mu.Lock()
		p.closing = true
		p.mu.Unlock()
		p.dialCancel()
		close(p.quit)
		done := make(chan struct{})
		go func() { p.wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-ctx.Done():
			p.mu.Lock()
			for c := range p.conns {
				c.abortLeg(c.client)
				c.abortLeg(c.upstream)
			}
			for rc := range p.reqs {
				// ends a write to (or a read from) a client that stalls
				_ = rc.SetWriteDeadline(time.Unix(1, 0))
				_ = rc.SetReadDeadline(time.Unix(1, 0))
			}
			p.mu.Unlock()
			<-done
			p.shutdownErr = fmt.Errorf("shutdown: connections cut: %w", ctx.Err())
		}
		p.transport.CloseIdleConnections()
		p.tap.syncRecording()
		p.val.finish()
		p.tap.stopRecording()
	})
	return p.shutdownErr
}

// Report is the report of everything the proxy saw. The validator owns
// that state until Shutdown has returned; before, Report returns nil (use
// Snapshot for the report so far).
func (p *Proxy) Report() *reports.Report {
	if !p.finished() {
		return nil
	}
	return p.val.report()
}

// PrintSummary writes the end-of-run summary of r to the console; it does
// nothing before Shutdown has returned.
func (p *Proxy) PrintSummary(r *reports.Report) {
	if p.finished() && r != nil {
		p.val.printSummary(r)
	}
}

// finished reports whether the validator has stopped (Shutdown).
func (p *Proxy) finished() bool {
	select {
	case <-p.val.done:
		return true
	default:
		return false
	}
}

// RecordingErr is the error that stopped the recording, if one did.
func (p *Proxy) RecordingErr() error { return p.tap.recordingErr() }

// Upstream is the upstream URL the proxy dials.
func (p *Proxy) Upstream() string { return p.up.String() }
