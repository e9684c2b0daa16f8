package runner

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// Target is a server under test. URL is either one endpoint (ws://h/ws) or
// a base URL (ws://h, ws://h/prefix) for dialects with several endpoints.
type Target struct {
	Name string
	URL  string
	// Reference marks the embedded reference server, which understands the
	// scripted agent's hints.
	Reference bool
	// URLs, when set, gives a dialect its own URL (the reference server
	// mounts each dialect under its own prefix).
	URLs map[string]string
}

// urlFor returns the target URL of a dialect.
func (t Target) urlFor(d string) string {
	if u, ok := t.URLs[d]; ok {
		return u
	}
	return t.URL
}

// ParseTargetURL checks a target URL: ws, wss, http or https, with a host.
func ParseTargetURL(raw string) (*url.URL, error) {
	u, err := wire.ParseURL(raw)
	if err != nil {
		return nil, fmt.Errorf("target %q: %w", raw, err)
	}
	return u, nil
}

// endpoints resolves the paths a feature names against a target.
type endpoints struct {
	base    *url.URL // scheme://host/prefix, no trailing slash
	custom  string   // a single-endpoint dialect served at an undocumented path
	d       *dialect.Dialect
	targetQ url.Values
}

func newEndpoints(raw string, d *dialect.Dialect) (*endpoints, error) {
	u, err := ParseTargetURL(raw)
	if err != nil {
		return nil, err
	}
	e := &endpoints{d: d, targetQ: u.Query()}
	u.RawQuery, u.Fragment = "", ""
	path := strings.TrimSuffix(u.Path, "/")
	for _, p := range d.Paths {
		if strings.HasSuffix(path, p) {
			u.Path = strings.TrimSuffix(path, p)
			e.base = u
			return e, nil
		}
	}
	if len(d.Paths) == 1 && path != "" {
		e.custom = path
	}
	u.Path = path
	e.base = u
	if e.custom != "" {
		b := *u
		b.Path = ""
		e.base = &b
	}
	return e, nil
}

// ws resolves a feature path ("" for the dialect's first endpoint,
// "/ws/host?host_id=h1") to a WebSocket URL, keeping the target's query.
func (e *endpoints) ws(ref string) (string, error) {
	path, query, _ := strings.Cut(ref, "?")
	if path == "" {
		path = e.d.Paths[0]
	}
	if !strings.HasPrefix(path, "/") {
		return "", harnessf("endpoint %q: a path must start with /", ref)
	}
	u := *e.base
	if e.custom != "" && path == e.d.Paths[0] {
		u.Path = e.custom
	} else {
		u.Path = e.base.Path + path
	}
	return e.withQuery(&u, query)
}

// http resolves a feature path to an http(s) URL on the target.
func (e *endpoints) http(ref string) (string, error) {
	path, query, _ := strings.Cut(ref, "?")
	if !strings.HasPrefix(path, "/") {
		return "", harnessf("HTTP path %q must start with /", ref)
	}
	u := *e.base
	u.Path = e.base.Path + path
	if u.Scheme == "wss" {
		u.Scheme = "https"
	} else {
		u.Scheme = "http"
	}
	return e.withQuery(&u, query)
}

func (e *endpoints) withQuery(u *url.URL, query string) (string, error) {
	q, err := url.ParseQuery(query)
	if err != nil {
		return "", harnessf("query %q: %v", query, err)
	}
	for k, vs := range e.targetQ {
		if _, ok := q[k]; !ok {
			q[k] = vs
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}
