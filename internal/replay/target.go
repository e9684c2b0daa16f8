package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/redact"
	"github.com/wsconform/wsconform/internal/wire"
)

// target is the server a replay plays against: the --against URL that
// takes the place of the recorded scheme and host (and is a prefix of the
// recorded path), with the handshake headers and the query values that
// replace the recorded ones (credentials are redacted in recordings).
type target struct {
	base   *url.URL
	header http.Header
	query  map[string]string
}

func newTarget(against string, header http.Header, query map[string]string) (*target, error) {
	u, err := wire.ParseURL(against)
	if err != nil {
		return nil, fmt.Errorf("--against %q: %w", against, err)
	}
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	if header == nil {
		header = http.Header{}
	}
	return &target{base: u, header: header, query: query}, nil
}

// urlFor maps a recorded request URL onto the target: the target's scheme
// and host, its path as a prefix (unless the recorded path already starts
// with it), the recorded query with learned ids put in and the given
// values (--query, --login) in place of the recorded ones.
func (t *target) urlFor(recorded string, ids *IDs) string {
	out := *t.base
	out.RawQuery, out.Fragment = "", ""
	r, err := url.Parse(recorded)
	if err != nil || r == nil {
		r = &url.URL{}
	}
	path := r.Path
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if v, ok := ids.Lookup(s); ok && s != "" {
			segs[i] = v
		}
	}
	path = strings.Join(segs, "/")
	switch {
	case t.base.Path == "" || strings.HasPrefix(path, t.base.Path+"/") || path == t.base.Path:
		out.Path = path
	case path == "" || path == "/":
		out.Path = t.base.Path
	default:
		out.Path = t.base.Path + path
	}
	q := r.Query()
	for k, vs := range q {
		for i, v := range vs {
			if nv, ok := ids.Lookup(v); ok {
				vs[i] = nv
			}
		}
		if v, ok := t.query[k]; ok {
			q[k] = []string{v}
		}
	}
	out.RawQuery = encodeQuery(q, r.RawQuery)
	return out.String()
}

// encodeQuery encodes q in the order its names first appear in raw (the
// recorded order), so the new URL reads like the recorded one.
func encodeQuery(q url.Values, raw string) string {
	if len(q) == 0 {
		return ""
	}
	var order []string
	seen := map[string]bool{}
	for _, part := range strings.Split(raw, "&") {
		k, _, _ := strings.Cut(part, "=")
		if k, err := url.QueryUnescape(k); err == nil && !seen[k] {
			if _, ok := q[k]; ok {
				order = append(order, k)
				seen[k] = true
			}
		}
	}
	var rest []string
	for k := range q {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	var sb strings.Builder
	for _, k := range append(order, rest...) {
		for _, v := range q[k] {
			if sb.Len() > 0 {
				sb.WriteByte('&')
			}
			sb.WriteString(url.QueryEscape(k))
			sb.WriteByte('=')
			sb.WriteString(url.QueryEscape(v))
		}
	}
	return sb.String()
}

// RedactedQuery lists, per query parameter name, the connections whose
// recorded URL carries a redacted value of it and that the given values do
// not replace: a replay would send the marker, and the server would refuse
// it. The caller asks for them (--query NAME=VALUE, --login).
func RedactedQuery(p *Plan, given map[string]string) map[string][]string {
	out := map[string][]string{}
	for _, c := range p.Conns {
		u, err := url.Parse(c.URL)
		if err != nil || c.Unjudged != "" {
			continue
		}
		for k, vs := range u.Query() {
			if _, ok := given[k]; ok {
				continue
			}
			for _, v := range vs {
				if redact.IsMarker(v) {
					out[k] = append(out[k], c.ID)
					break
				}
			}
		}
	}
	return out
}

// HTTPBase is the http(s) form of a WebSocket base URL, for the HTTP steps
// a dialect needs before its handshakes (hostd's login).
func HTTPBase(against string) (*url.URL, error) {
	u, err := wire.ParseURL(against)
	if err != nil {
		return nil, err
	}
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// loginTimeout bounds hostd's login request.
const loginTimeout = 10 * time.Second

// Login asks a hostd server for a fresh access token (POST /auth/login
// {username, password} → {access_token}): recordings redact the token of
// /ws/app?token=…, so a replay needs its own. A server that cannot be
// reached is ErrUnreachable; one that refuses the login says why.
func Login(ctx context.Context, against, userPass string, header http.Header) (string, error) {
	user, pass, ok := strings.Cut(userPass, ":")
	if !ok || user == "" {
		return "", errors.New("--login wants USER:PASSWORD")
	}
	base, err := HTTPBase(against)
	if err != nil {
		return "", err
	}
	// A base that names an endpoint (ws://h/ws/app) logs in at the root.
	base.Path = strings.TrimSuffix(strings.TrimSuffix(base.Path, "/ws/app"), "/ws/host")
	body, err := json.Marshal(map[string]string{"username": user, "password": pass})
	if err != nil {
		return "", fmt.Errorf("failed to encode login: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, loginTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base.String()+"/auth/login", bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("failed to build login request: %w", err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("%w: login at %s: %w", ErrUnreachable, req.URL, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("login at %s: %w", req.URL, err)
	}
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("login at %s: %s: %s", req.URL, resp.Status, strings.TrimSpace(string(raw)))
	}
	var lr struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(raw, &lr); err != nil || lr.AccessToken == "" {
		return "", fmt.Errorf("login at %s: the answer has no access_token", req.URL)
	}
	return lr.AccessToken, nil
}
