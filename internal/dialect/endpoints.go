package dialect

import (
	"fmt"
	"strings"
)

// HTTPEndpoint is one HTTP request of a dialect's protocol, declared in its
// manifest (httpEndpoints): hostd's POST /auth/login and POST
// /runs/:run_id/input. The proxy records the exchanges that match one, and
// the check engine judges them with the session's frames, because a
// protocol guarantee can span HTTP and WebSocket (hostd's input_id).
// Other HTTP traffic of an app (static files, its own REST calls) is not
// the protocol's and stays unrecorded.
type HTTPEndpoint struct {
	// Name is the endpoint's short name, written in recordings.
	Name   string `json:"name"`
	Method string `json:"method"`
	// Path is the spec's path; a segment ":name" matches any one segment
	// and names it (Params).
	Path string `json:"path"`
	// Request and Response name body schemas of the manifest's http list;
	// Response judges 2xx answers only (an error body has no documented
	// shape). Empty: the body is not judged.
	Request  string `json:"request,omitempty"`
	Response string `json:"response,omitempty"`
	// Auth is "bearer" where the spec states Bearer auth.
	Auth string `json:"auth,omitempty"`
	Spec string `json:"spec"`
}

// Endpoint returns the declared endpoint a request is, and the values of
// its path parameters. The declared path matches the end of the request's
// path, so an app served under a prefix (/api/auth/login) is still judged,
// as hostd's WebSocket roles allow /api/ws/host.
func (d *Dialect) Endpoint(method, path string) (HTTPEndpoint, map[string]string, bool) {
	for _, ep := range d.HTTPEndpoints {
		if !strings.EqualFold(ep.Method, method) {
			continue
		}
		if params, ok := matchPath(ep.Path, path); ok {
			return ep, params, true
		}
	}
	return HTTPEndpoint{}, nil, false
}

// EndpointNamed returns a declared endpoint by name.
func (d *Dialect) EndpointNamed(name string) (HTTPEndpoint, bool) {
	for _, ep := range d.HTTPEndpoints {
		if ep.Name == name {
			return ep, true
		}
	}
	return HTTPEndpoint{}, false
}

// AnyEndpoint is Endpoint over every dialect, for a recorder that does not
// know its dialect yet (wsproxy --dialect auto: hostd's login comes before
// any WebSocket). It returns the first dialect, in name order, that
// declares the request.
func AnyEndpoint(method, path string) (string, HTTPEndpoint, bool) {
	for _, name := range Names() {
		d, err := Get(name)
		if err != nil {
			continue
		}
		if ep, _, ok := d.Endpoint(method, path); ok {
			return name, ep, true
		}
	}
	return "", HTTPEndpoint{}, false
}

// HasEndpoints reports whether a dialect declares HTTP endpoints ("" or
// "auto": whether any dialect does).
func HasEndpoints(name string) bool {
	if name != "" && name != "auto" {
		d, err := Get(name)
		return err == nil && len(d.HTTPEndpoints) > 0
	}
	for _, n := range Names() {
		if HasEndpoints(n) {
			return true
		}
	}
	return false
}

// matchPath matches a declared path against the last segments of a
// request path.
func matchPath(pattern, path string) (map[string]string, bool) {
	want := segments(pattern)
	got := segments(path)
	if len(want) == 0 || len(got) < len(want) {
		return nil, false
	}
	got = got[len(got)-len(want):]
	var params map[string]string
	for i, w := range want {
		if name, ok := strings.CutPrefix(w, ":"); ok {
			if got[i] == "" {
				return nil, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[name] = got[i]
			continue
		}
		if w != got[i] {
			return nil, false
		}
	}
	return params, true
}

func segments(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// checkEndpoints refuses a manifest whose endpoints name body schemas it
// does not list, or that lack a name, method or path.
func (d *Dialect) checkEndpoints() error {
	seen := map[string]bool{}
	for _, ep := range d.HTTPEndpoints {
		if ep.Name == "" || ep.Method == "" || !strings.HasPrefix(ep.Path, "/") {
			return fmt.Errorf("manifest of %s: an http endpoint needs a name, a method and a path starting with /: %+v", d.Dialect, ep)
		}
		if seen[ep.Name] {
			return fmt.Errorf("manifest of %s: http endpoint %q declared twice", d.Dialect, ep.Name)
		}
		seen[ep.Name] = true
		for _, s := range []string{ep.Request, ep.Response} {
			if _, ok := d.http[s]; s != "" && !ok {
				return fmt.Errorf("manifest of %s: http endpoint %q names body schema %q, not in the http list", d.Dialect, ep.Name, s)
			}
		}
		if ep.Auth != "" && ep.Auth != "bearer" {
			return fmt.Errorf("manifest of %s: http endpoint %q: auth %q, want bearer or nothing", d.Dialect, ep.Name, ep.Auth)
		}
	}
	return nil
}
