package web

import (
	"context"
	"fmt"
	"net"
)

// Listening is a Server bound to its address and not yet serving: the
// commands listen before the proxy starts (so a busy port is an error up
// front, and the proxy's Config.Live is the Server), then Start once the
// proxy runs.
type Listening struct {
	*Server
	// URL is the page's address (the port the listener got).
	URL    string
	ln     net.Listener
	cancel context.CancelFunc
	done   chan error
}

// Listen checks cfg, makes its Server and listens on cfg.Listen.
func Listen(ctx context.Context, cfg Config) (*Listening, error) {
	if err := CheckListen(cfg.Listen, cfg.AllowRemote); err != nil {
		return nil, err
	}
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("failed to listen on %s for the web view: %w", cfg.Listen, err)
	}
	return &Listening{Server: s, URL: "http://" + ln.Addr().String() + "/", ln: ln}, nil
}

// Start attaches src (the report downloads) and serves the page until
// Stop.
func (l *Listening) Start(src Source) {
	l.Attach(src)
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel, l.done = cancel, make(chan error, 1)
	go func() { l.done <- l.Serve(ctx, l.ln) }()
}

// Stop ends the page's streams and its server (or only the listener,
// when it never started). A nil Listening is a no-op.
func (l *Listening) Stop() {
	if l == nil {
		return
	}
	if l.cancel == nil {
		l.ln.Close()
		return
	}
	l.cancel()
	<-l.done
}
