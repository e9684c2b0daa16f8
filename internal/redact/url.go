package redact

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// URL returns u with the values of its credential query parameters (in
// the query and in a fragment of name=value pairs, where OAuth puts an
// access_token), the password of its user info and the token shapes
// anywhere in it (a GitHub token as a path segment, sk-… as the value of
// any parameter: shapes.go) replaced by URLMarker. Everything else stays
// byte for byte, escapes included.
func URL(u string) string { return (*Scrubber)(nil).URL(u) }

// URL is the package's URL that also remembers the secret values.
func (s *Scrubber) URL(u string) string {
	if len(u) >= minShape {
		if b, ok := s.tokens([]byte(u), formURL); ok {
			u = string(b)
		}
	}
	if !strings.ContainsAny(u, "?#@") {
		return u
	}
	rest, frag, hasFrag := strings.Cut(u, "#")
	base, query, hasQuery := strings.Cut(rest, "?")
	var b strings.Builder
	b.Grow(len(u))
	b.WriteString(s.userInfo(base))
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(s.query(query))
	}
	if hasFrag {
		b.WriteByte('#')
		if strings.Contains(frag, "=") {
			frag = s.query(frag)
		}
		b.WriteString(frag)
	}
	return b.String()
}

// userInfo redacts the password of scheme://user:password@host/path.
func (s *Scrubber) userInfo(base string) string {
	i := strings.Index(base, "://")
	if i < 0 {
		return base
	}
	auth := base[i+3:]
	if j := strings.IndexByte(auth, '/'); j >= 0 {
		auth = auth[:j]
	}
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return base
	}
	user, pass, ok := strings.Cut(auth[:at], ":")
	if !ok || pass == "" || IsMarker(pass) {
		return base
	}
	s.addEscaped(pass)
	return base[:i+3] + user + ":" + URLMarker(runeCountUnescaped(pass)) + base[i+3+at:]
}

// query redacts a query string's credential values, keeping the order,
// the separators and every other pair as it was.
func (s *Scrubber) query(q string) string {
	var b strings.Builder
	b.Grow(len(q))
	for k, pair := range strings.Split(q, "&") {
		if k > 0 {
			b.WriteByte('&')
		}
		name, val, ok := strings.Cut(pair, "=")
		if !ok || val == "" || IsMarker(val) || !QueryName(unescape(name)) {
			b.WriteString(pair)
			continue
		}
		s.addEscaped(val)
		b.WriteString(name)
		b.WriteByte('=')
		b.WriteString(URLMarker(runeCountUnescaped(val)))
	}
	return b.String()
}

// addEscaped remembers a value as written and as decoded.
func (s *Scrubber) addEscaped(v string) {
	s.Add(v)
	if d := unescape(v); d != v {
		s.Add(d)
	}
}

func unescape(v string) string {
	d, err := url.QueryUnescape(v)
	if err != nil {
		return v
	}
	return d
}

func runeCountUnescaped(v string) int { return utf8.RuneCountInString(unescape(v)) }
