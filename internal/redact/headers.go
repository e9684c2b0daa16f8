package redact

import (
	"net/http"
	"strings"
)

// Header returns a header's value with its credential redacted when the
// header carries one (Authorization, Proxy-Authorization, Cookie,
// Set-Cookie, X-Api-Key, X-Auth-Token, …): an Authorization keeps its
// scheme ("Bearer «redacted: 40 chars»"), a Cookie its cookie names, a
// Set-Cookie its name and attributes. Other headers keep their value but
// for the token shapes in it (shapes.go).
func Header(name, value string) string { return (*Scrubber)(nil).Header(name, value) }

// Header is the package's Header that also remembers the secret values.
func (s *Scrubber) Header(name, value string) string {
	if value == "" {
		return value
	}
	if !HeaderName(name) {
		if b, ok := s.tokens([]byte(value), formText); ok {
			return string(b)
		}
		return value
	}
	var arr [maxName]byte
	switch string(normalize(name, arr[:0])) {
	case "authorization", "proxy_authorization":
		return s.authorization(value)
	case "cookie":
		return s.cookies(value, false)
	case "set_cookie":
		return s.cookies(value, true)
	}
	s.Add(strings.TrimSpace(value))
	return redactString(value)
}

// HTTPHeader returns h with every credential redacted as Header does: h
// itself when none is, else a copy.
func HTTPHeader(h http.Header) http.Header { return (*Scrubber)(nil).HTTPHeader(h) }

// HTTPHeader is the package's HTTPHeader that also remembers the secret
// values.
func (s *Scrubber) HTTPHeader(h http.Header) http.Header {
	var out http.Header
	for name, vals := range h {
		var red []string
		for i, v := range vals {
			r := s.Header(name, v)
			if r == v && red == nil {
				continue
			}
			if red == nil {
				red = append(make([]string, 0, len(vals)), vals[:i]...)
			}
			red = append(red, r)
		}
		if red == nil {
			continue
		}
		if out == nil {
			out = h.Clone()
		}
		out[name] = red
	}
	if out == nil {
		return h
	}
	return out
}

// authorization keeps the scheme of "Scheme credentials".
func (s *Scrubber) authorization(v string) string {
	if IsMarker(strings.TrimSpace(v)) { // redacted whole: "«redacted: 1 char»" is no scheme
		return v
	}
	scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " ")
	cred = strings.TrimSpace(cred)
	if !ok || strings.ContainsAny(scheme, "=,") || cred == "" {
		s.Add(strings.TrimSpace(v))
		return redactString(v)
	}
	if IsMarker(cred) {
		return v
	}
	s.Add(cred)
	return scheme + " " + redactString(cred)
}

// cookies redacts the values of "a=1; b=2", or only the first pair's of a
// Set-Cookie ("sid=…; Path=/; HttpOnly").
func (s *Scrubber) cookies(v string, set bool) string {
	parts := strings.Split(v, ";")
	for i, p := range parts {
		if set && i > 0 {
			break
		}
		name, val, ok := strings.Cut(p, "=")
		val = strings.TrimSpace(val)
		if !ok || val == "" || IsMarker(val) {
			continue
		}
		s.Add(val)
		parts[i] = name + "=" + redactString(val)
	}
	return strings.Join(parts, ";")
}
