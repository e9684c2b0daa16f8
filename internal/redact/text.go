package redact

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// MinLiteral is the shortest secret value Text replaces wherever it is
// quoted: shorter ones ("pw", "demo") would wipe ordinary words, and are
// only redacted where a credential name says what they are.
const MinLiteral = 6

// Scrubber redacts like the package's functions and remembers the secret
// values it redacted (and those given to Add), so that Text can replace
// them wherever else they are quoted: a finding's Actual, a step's text
// with a --var expanded, an error message. A nil *Scrubber redacts but
// remembers nothing. A Scrubber is not safe for concurrent use.
type Scrubber struct {
	secrets map[string]bool
	rep     *strings.Replacer // nil until Text needs it after an Add
}

// NewScrubber returns an empty Scrubber.
func NewScrubber() *Scrubber { return &Scrubber{secrets: map[string]bool{}} }

// Add remembers a secret value. Values shorter than MinLiteral characters
// and markers are ignored.
func (s *Scrubber) Add(v string) {
	if s == nil || utf8.RuneCountInString(v) < MinLiteral || IsMarker(v) || s.secrets[v] {
		return
	}
	if s.secrets == nil {
		s.secrets = map[string]bool{}
	}
	s.secrets[v] = true
	s.rep = nil
}

// Len is how many secret values s remembers.
func (s *Scrubber) Len() int {
	if s == nil {
		return 0
	}
	return len(s.secrets)
}

// Text redacts free text: name=value pairs with a credential name (URLs'
// queries, --var host_token=…, WSCONFORM_PASSWORD=…), header lines with a
// credential ("Authorization: Bearer …", as in --header '…'), credential
// members of JSON quoted in it, a URL's user-info password, the token
// shapes (Bearer …, sk-…, JWTs, ghp_…, AWS keys: shapes.go), and every
// secret value s remembers.
func Text(t string) string { return (*Scrubber)(nil).Text(t) }

// pairRE finds name=value pairs; the value ends at a separator, a space or
// a quote, and does not take the punctuation that ends a sentence or a
// clause ("dial ws://h/?token=abc: refused").
// A URLMarker is matched whole, so that redacting twice changes nothing.
var pairRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.\-]*)=(redacted\(\d+\)|[^\s&#'"<>;,]*[^\s&#'"<>;,:.)\]])`)

// headerRE finds "Name: value" up to the end of the line or a quote.
var headerRE = regexp.MustCompile(`([A-Za-z][A-Za-z0-9\-]*)[ \t]*:[ \t]*([^\r\n'"]*[^\s'"])`)

// userInfoRE finds the password of scheme://user:password@host.
var userInfoRE = regexp.MustCompile(`://([^/\s:@'"]*):([^/\s@'"]+)@`)

// Text is the package's Text that also replaces the remembered secrets.
func (s *Scrubber) Text(t string) string {
	if t == "" {
		return t
	}
	if strings.IndexByte(t, '"') >= 0 {
		if b, ok := s.JSON([]byte(t)); ok {
			t = string(b)
		}
	}
	if strings.IndexByte(t, '=') >= 0 {
		t = replaceSubmatch(pairRE, t, func(m []string) string {
			if !QueryName(unescape(m[1])) || IsMarker(m[2]) {
				return m[0]
			}
			s.addEscaped(m[2])
			return m[1] + "=" + URLMarker(runeCountUnescaped(m[2]))
		})
	}
	if strings.IndexByte(t, ':') >= 0 {
		t = replaceSubmatch(headerRE, t, func(m []string) string {
			if !HeaderName(m[1]) {
				return m[0]
			}
			prefix := m[0][:len(m[0])-len(m[2])]
			return prefix + s.Header(m[1], m[2])
		})
		t = replaceSubmatch(userInfoRE, t, func(m []string) string {
			if IsMarker(m[2]) {
				return m[0]
			}
			s.addEscaped(m[2])
			return "://" + m[1] + ":" + URLMarker(runeCountUnescaped(m[2])) + "@"
		})
	}
	if len(t) >= minShape {
		if b, ok := s.tokens([]byte(t), formText); ok {
			t = string(b)
		}
	}
	return s.literals(t)
}

// literals replaces every remembered secret in t.
func (s *Scrubber) literals(t string) string {
	if s.Len() == 0 {
		return t
	}
	if s.rep == nil {
		vals := make([]string, 0, len(s.secrets))
		for v := range s.secrets {
			vals = append(vals, v)
		}
		// Longest first: a secret that contains another is replaced whole.
		sort.Slice(vals, func(i, j int) bool {
			if len(vals[i]) != len(vals[j]) {
				return len(vals[i]) > len(vals[j])
			}
			return vals[i] < vals[j]
		})
		args := make([]string, 0, 2*len(vals))
		for _, v := range vals {
			args = append(args, v, Marker(utf8.RuneCountInString(v)))
		}
		s.rep = strings.NewReplacer(args...)
	}
	return s.rep.Replace(t)
}

// replaceSubmatch is regexp's ReplaceAllStringFunc with the submatches.
func replaceSubmatch(re *regexp.Regexp, t string, f func([]string) string) string {
	idx := re.FindAllStringSubmatchIndex(t, -1)
	if idx == nil {
		return t
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		sub := make([]string, len(m)/2)
		for i := range sub {
			if m[2*i] >= 0 {
				sub[i] = t[m[2*i]:m[2*i+1]]
			}
		}
		b.WriteString(t[last:m[0]])
		b.WriteString(f(sub))
		last = m[1]
	}
	b.WriteString(t[last:])
	return b.String()
}

// Literals replaces in t every secret value s remembers, and nothing else:
// for payloads, where a pattern could cut through JSON escapes but a
// secret quoted in a string (an error message echoing a token) can be
// replaced without breaking the JSON.
func (s *Scrubber) Literals(t string) string { return s.literals(t) }
