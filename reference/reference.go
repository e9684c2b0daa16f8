package reference

import (
	"context"
	"errors"
	"fmt"
	"github.com/wsconform/wsconform/internal/netguard"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/reference/agent"
	"github.com/wsconform/wsconform/reference/hostd"
	"github.com/wsconform/wsconform/reference/server"
)

// DefaultListen is where `wsconform serve` listens unless told otherwise:
// loopback only.
const DefaultListen = "127.0.0.1:7337"

// Options configure a reference server.
type Options struct {
	server.Config
	// Dialects to serve; empty or "all" means every dialect.
	Dialects []string
	// Mutate names the mutations to commit (see Mutations).
	Mutate []string
	// NoScriptedHost keeps Start from connecting the scripted host daemon
	// to a served hostd (tests that play the host themselves).
	NoScriptedHost bool
}

// Mutations lists the deliberate violations a dialect offers.
func Mutations(name string) []server.Mutation {
	return impls[name].mutations
}

// Handler builds the HTTP handler serving opts.Dialects and the Env that
// owns its connections; shut it down with Env.Shutdown.
func Handler(opts Options) (http.Handler, *server.Env, []string, error) {
	names, err := resolve(opts.Dialects)
	if err != nil {
		return nil, nil, nil, err
	}
	var offered []server.Mutation
	for _, n := range names {
		offered = append(offered, impls[n].mutations...)
	}
	if opts.Mutations, err = server.ParseMutations(opts.Mutate, offered); err != nil {
		return nil, nil, nil, err
	}
	env := server.NewEnv(opts.Config)
	if len(names) == 1 {
		return impls[names[0]].new(env), env, names, nil
	}
	mux := http.NewServeMux()
	for _, n := range names {
		mux.Handle("/"+n+"/", http.StripPrefix("/"+n, impls[n].new(env)))
	}
	return mux, env, names, nil
}

// resolve expands "all" and checks names.
func resolve(names []string) ([]string, error) {
	if len(names) == 0 || slices.Contains(names, "all") {
		return dialect.Names(), nil
	}
	var out []string
	for _, n := range names {
		if _, ok := impls[n]; !ok {
			return nil, fmt.Errorf("unknown dialect %q (known: %s, or all)", n, strings.Join(dialect.Names(), ", "))
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Server is a running reference server.
type Server struct {
	// URL is the base WebSocket URL, ws://host:port.
	URL string
	// Dialects are the dialects served, in list order.
	Dialects []string
	// Env is the shared state of the dialects' connections.
	Env  *server.Env
	http *http.Server
	done chan error
	// stopHost ends the scripted hostd daemon; hostDone reports its end.
	stopHost context.CancelFunc
	hostDone chan error
}

// Start listens on addr (host:port; port 0 picks a free one) and serves
// until Shutdown.
func Start(ctx context.Context, addr string, opts Options) (*Server, error) {
	h, env, names, err := Handler(opts)
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		_ = env.Shutdown(ctx)
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	s := &Server{
		URL:      "ws://" + netguard.Dialable(ln.Addr().String()),
		Dialects: names,
		Env:      env,
		http:     &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second},
		done:     make(chan error, 1),
	}
	go func() { s.done <- s.http.Serve(ln) }()
	if slices.Contains(names, "hostd") && !opts.NoScriptedHost {
		s.startHost(opts.Config)
	}
	return s, nil
}

// startHost connects the scripted host daemon to the served hostd, so that
// apps see a live run without a real host.
func (s *Server) startHost(cfg server.Config) {
	ctx, cancel := context.WithCancel(context.Background())
	s.stopHost, s.hostDone = cancel, make(chan error, 1)
	opts := hostd.HostOptions{HostToken: s.Env.Auth.HostToken, Pace: agent.Pace{Chunk: s.Env.Chunk, Slow: s.Env.Slow}, Log: s.Env.Log}
	go func() {
		err := hostd.RunScriptedHost(ctx, s.Base("hostd"), opts)
		if err != nil {
			s.Env.Log.Error("scripted host stopped", "err", err)
		}
		s.hostDone <- err
	}()
}

// Base is the URL a dialect is served under: URL itself with one dialect,
// URL/<dialect> with several.
func (s *Server) Base(name string) string {
	if len(s.Dialects) == 1 {
		return s.URL
	}
	return s.URL + "/" + name
}

// Endpoints lists the WebSocket URLs of a dialect.
func (s *Server) Endpoints(name string) []string {
	d, err := dialect.Get(name)
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(d.Paths))
	for _, p := range d.Paths {
		out = append(out, s.Base(name)+p)
	}
	return out
}

// Shutdown stops accepting, closes every connection with 1001 and waits for
// every goroutine of the server, or for ctx.
func (s *Server) Shutdown(ctx context.Context) error {
	var hostErr error
	if s.stopHost != nil {
		s.stopHost()
		select {
		case hostErr = <-s.hostDone:
		case <-ctx.Done():
			hostErr = fmt.Errorf("scripted host: %w", ctx.Err())
		}
	}
	herr := s.http.Shutdown(ctx)
	eerr := s.Env.Shutdown(ctx)
	if err := <-s.done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return errors.Join(hostErr, herr, eerr)
}
