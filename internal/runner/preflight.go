package runner

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/internal/dialect"
)

// preflight reaches every endpoint host of the target once (TCP, and TLS
// for wss), then makes one WebSocket handshake per dialect, so that a dead
// target, an untrusted certificate, or a server that is not a WebSocket
// endpoint of the dialect is one clear target error, not a failed scenario
// each. With --session-cmd it checks a session the command makes (and
// --session-cleanup-cmd removes), not --target: there --target need only
// name the server.
func (r *run) preflight(ctx context.Context, t Target, cases []*Case) error {
	opts := r.opts
	hosts := map[string]bool{}
	eps := map[string]*endpoints{}
	headers := map[string]http.Header{}
	for _, c := range cases {
		d, err := dialect.Get(c.Dialect)
		if err != nil {
			return err
		}
		if eps[d.Dialect] != nil {
			continue
		}
		raw, h := t.urlFor(d.Dialect), opts.Headers.Clone()
		if opts.SessionCmd != "" {
			setup, err := runSessionCmd(ctx, opts.SessionCmd, raw, d.Dialect, "preflight")
			if err != nil {
				return err
			}
			defer r.runSessionCleanup(ctx, setup.URL, raw, d.Dialect, "preflight")
			if h == nil {
				h = http.Header{}
			}
			raw = setup.URL
			for k, vs := range setup.Headers {
				h[k] = vs
			}
		}
		ep, err := newEndpoints(raw, d)
		if err != nil {
			return err
		}
		hosts[ep.base.Scheme+"://"+ep.base.Host] = true
		eps[d.Dialect], headers[d.Dialect] = ep, h
	}
	if err := reachHosts(ctx, t, hosts, opts); err != nil {
		return err
	}
	for d, ep := range eps {
		o := opts
		o.Headers = headers[d]
		if err := handshake(ctx, ep, o); err != nil {
			return err
		}
	}
	return nil
}

// handshake opens the dialect's first endpoint as a scenario would and
// closes it at once. A 404 or 400, or an answer that is not a WebSocket
// upgrade, means the target URL is wrong; a 401 or 403 too where the
// dialect has one endpoint and no credentials of its own (hostd's apps and
// hosts bring tokens the scenarios add, so there they are left to them).
func handshake(ctx context.Context, ep *endpoints, opts Options) error {
	u, err := ep.ws("")
	if err != nil {
		return err
	}
	dl := websocket.Dialer{HandshakeTimeout: opts.Timeouts.scaled(opts.Timeouts.Connect),
		TLSClientConfig: &tls.Config{InsecureSkipVerify: opts.Insecure}}
	conn, resp, err := dl.DialContext(ctx, u, opts.Headers)
	if err == nil {
		msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "wsconform preflight")
		_ = conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
		return conn.Close()
	}
	if resp == nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return fmt.Errorf("target %s accepted the connection but did not answer the WebSocket handshake within %s", u, dl.HandshakeTimeout)
		}
		return nil // other network trouble shows in the scenarios, each with its cause
	}
	if limitStatus(resp) {
		return limitError(u, resp)
	}
	auth := resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden
	if auth && len(ep.d.Paths) > 1 {
		return nil
	}
	why := "it is not a WebSocket endpoint of " + ep.d.Dialect + " (wrong path, or not a WebSocket server)"
	if auth {
		why = "it refused the handshake (pass credentials with --header, or an allowed Origin)"
	}
	return &TargetError{URL: u, Status: resp.Status, Why: why}
}

// TargetError is a target that answered the handshake with an HTTP status
// instead of switching protocols: nothing a scenario does can pass.
type TargetError struct {
	URL, Status, Why string
}

func (e *TargetError) Error() string {
	return fmt.Sprintf("target %s answered the WebSocket handshake with HTTP %s: %s", e.URL, e.Status, e.Why)
}

// reachHosts dials every host once (TCP, and TLS for wss).
func reachHosts(ctx context.Context, t Target, hosts map[string]bool, opts Options) error {
	timeout := opts.Timeouts.scaled(opts.Timeouts.Connect)
	for h := range hosts {
		u, err := url.Parse(h)
		if err != nil {
			return err
		}
		addr := u.Host
		if u.Port() == "" {
			addr = net.JoinHostPort(u.Hostname(), map[string]string{"ws": "80", "wss": "443"}[u.Scheme])
		}
		dctx, cancel := context.WithTimeout(ctx, timeout)
		conn, err := (&net.Dialer{}).DialContext(dctx, "tcp", addr)
		cancel()
		if err != nil {
			return fmt.Errorf("target %s unreachable: %w", t.URL, err)
		}
		if u.Scheme == "wss" {
			tc := tls.Client(conn, &tls.Config{ServerName: u.Hostname(), InsecureSkipVerify: opts.Insecure})
			hctx, cancel := context.WithTimeout(ctx, timeout)
			err = tc.HandshakeContext(hctx)
			cancel()
			if err != nil {
				conn.Close()
				if advice := tlsAdvice(t.URL, err); advice != "" {
					return fmt.Errorf("target %s: TLS handshake: %w (%s)", t.URL, err, advice)
				}
				return fmt.Errorf("target %s: TLS handshake: %w", t.URL, err)
			}
		}
		conn.Close()
	}
	return nil
}
