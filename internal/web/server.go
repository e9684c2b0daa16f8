package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/reports"
)

// Defaults of Config.
const (
	// DefaultRing is how many events the ring holds: at 5,000 frames/s
	// almost a second of traffic, enough for a page that reads ten times a
	// second; a page that opens late shows the last DefaultRing events.
	DefaultRing = 4096
	// DefaultPageRate is how many frames per second a page is sent at
	// most; beyond it the older frames of a batch are dropped for the page
	// (counted), so it stays responsive and shows the present.
	DefaultPageRate = 6000
	// DefaultWindow is how many frames the page keeps in its list.
	DefaultWindow = 2000
)

// Source is what the page reads besides the live events: the report so
// far (*proxy.Proxy).
type Source interface {
	Snapshot(ctx context.Context) (*reports.Report, error)
}

// Config configures a Server.
type Config struct {
	// Listen is the address the page is served on (for the Host check),
	// AllowHosts more host names its requests may carry (as the proxy's
	// --allow-host).
	Listen     string
	AllowHosts []string
	// AllowRemote serves a listener that is not on loopback, and peers
	// that are not; without it both are refused.
	AllowRemote bool
	// Recording is the path of the JSONL recording, for "Save HAR"; ""
	// when there is none.
	Recording string
	// KeepSecrets shows credentials in frames, findings and downloads
	// (wsproxy --no-redact); by default they are redacted as in the report.
	KeepSecrets bool
	// Replays shows the report's replay diffs (gate --replay), side by
	// side as the report does; the page fetches them when it opens and
	// again whenever ReplaysChanged was called.
	Replays bool
	// Title names the page (e.g. "wsproxy → ws://127.0.0.1:7337").
	Title string
	// Command is the command line the downloaded report names.
	Command string
	// Ring, PageRate and Window: see the defaults.
	Ring, PageRate, Window int
}

// Server is the live web view: an http.Handler, and the proxy's
// LiveObserver.
type Server struct {
	cfg  Config
	ring *ring
	src  atomic.Pointer[sourceBox]
	mux  *http.ServeMux
	// changes tell the pages to fetch /replays again (ReplaysChanged).
	changes *changes
}

type sourceBox struct{ Source }

// New checks cfg and makes a Server. Hand Server to the proxy as its
// Config.Live, then Attach the proxy, then Serve.
func New(cfg Config) (*Server, error) {
	if cfg.Ring <= 0 {
		cfg.Ring = DefaultRing
	}
	if cfg.PageRate <= 0 {
		cfg.PageRate = DefaultPageRate
	}
	if cfg.Window <= 0 {
		cfg.Window = DefaultWindow
	}
	if cfg.Title == "" {
		cfg.Title = "wsproxy"
	}
	if err := CheckListen(cfg.Listen, cfg.AllowRemote); err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, ring: newRing(cfg.Ring), changes: newChanges()}
	s.routes()
	return s, nil
}

// Observe is proxy.LiveObserver: a copy into the ring, never a wait.
func (s *Server) Observe(ev *proxy.LiveEvent) { s.ring.publish(ev) }

// Observer returns s as the proxy's observer (Config.Live).
func (s *Server) Observer() proxy.LiveObserver { return s }

// Attach gives the page the proxy's report snapshots ("Download report").
func (s *Server) Attach(src Source) { s.src.Store(&sourceBox{src}) }

// Serve serves the page on ln until ctx ends, then closes every page's
// event stream and returns. It returns nil after ctx ended.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if err := CheckListen(ln.Addr().String(), s.cfg.AllowRemote); err != nil {
		return err
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second,
		// Streams end with ctx: Shutdown would wait for them forever.
		BaseContext: func(net.Listener) context.Context { return ctx },
		ErrorLog:    log.New(io.Discard, "", 0)}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("failed to serve the web view: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("failed to serve the web view: %w", err)
	}
	return nil
}

// ServeHTTP refuses foreign hosts and peers, then routes. No answer may
// be framed by another page (clickjacking: a site that frames the view,
// or a downloaded HTML report, under a decoy): every one says so in both
// the modern header (frame-ancestors; the page's own policy repeats it)
// and the one older browsers know.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	if why := s.refuse(r); why != "" {
		http.Error(w, "wsproxy web view: "+why, http.StatusForbidden)
		return
	}
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /{$}", s.page)
	s.mux.HandleFunc("GET /events", s.events)
	s.mux.HandleFunc("GET /report.html", s.download("text/html; charset=utf-8", reports.WriteHTML))
	s.mux.HandleFunc("GET /report.xml", s.download("application/xml; charset=utf-8", reports.WriteJUnit))
	s.mux.HandleFunc("GET /report.json", s.download("application/json", reports.WriteJSON))
	s.mux.HandleFunc("GET /session.har", s.har)
	s.mux.HandleFunc("GET /replays", s.replays)
}
