package runner

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/url"

	"github.com/wsconform/wsconform/internal/dialect"
)

// preflight reaches every endpoint host of the target once (TCP, and TLS
// for wss) so that a dead target or an untrusted certificate is one clear
// harness error, not a failed scenario each.
func preflight(ctx context.Context, t Target, cases []*Case, opts Options) error {
	hosts := map[string]bool{}
	for _, c := range cases {
		d, err := dialect.Get(c.Dialect)
		if err != nil {
			return err
		}
		ep, err := newEndpoints(t.urlFor(d.Dialect), d)
		if err != nil {
			return err
		}
		hosts[ep.base.Scheme+"://"+ep.base.Host] = true
	}
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
				return fmt.Errorf("target %s: TLS handshake: %w (use --insecure to accept an untrusted certificate)", t.URL, err)
			}
		}
		conn.Close()
	}
	return nil
}
