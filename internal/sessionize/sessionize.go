package proxy

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/wsconform/wsconform/internal/wire"
)

// sessionRule says how a dialect's connections form logical sessions, so
// that reconnections are judged together (a replay after resume is
// compared with the events the earlier connection received).
type sessionRule struct {
	// shared puts every connection of the proxy into one session.
	shared string
	// perConn makes each connection a session of its own.
	perConn bool
	// query is a URL query parameter that names the session: a hint.
	query string
	// server lists where server frames name the session: the first one
	// found binds the connection (the server is authoritative).
	server [][]string
	// client lists where client frames name the session: a hint.
	client [][]string
}

// sessionRules per dialect. The README of cmd/wsproxy documents them.
//
//   - minicodex: the server's welcome names the session
//     (session_state.session_id); any server frame's envelope session_id
//     does too. hello/resume and ?session_id= are hints.
//   - mitto: the server's connected{data.session_id}; ?session_id= is a hint.
//   - myagent: the first server event with a session_id
//     (agent.session_created, replayed events); a client's session_id
//     (user.reconnect_with_state) is a hint.
//   - hostd: one session for every connection (the host's and the apps'),
//     because the checker compares what apps receive with what the host
//     sent.
//   - coworker: one session per connection; the spec has no resumption.
//
// A connection that has not named its session within maxHeldFrames frames
// or maxHeldBytes, or that closes first, joins the session of its hint,
// else becomes a session of its own. A dialect without a rule here (a new
// one) gets a session per connection.
var sessionRules = map[string]sessionRule{
	"minicodex": {query: "session_id", server: [][]string{{"session_state", "session_id"}, {"session_id"}}, client: [][]string{{"session_id"}}},
	"mitto":     {query: "session_id", server: [][]string{{"data", "session_id"}}},
	"myagent":   {server: [][]string{{"session_id"}}, client: [][]string{{"session_id"}}},
	"hostd":     {shared: "hostd"},
	"coworker":  {perConn: true},
}

// How long a connection may stay without a session before the sessionizer
// stops waiting for the server to name it.
const (
	maxHeldFrames = 64
	maxHeldBytes  = 1 << 20
	maxSessionKey = 80
)

// sessionizer turns what connections reveal into session names. It runs
// under the tap's lock, at the place in the frame order where the binding
// is recorded, so that the validator and a later `wsconform validate`
// group frames identically.
type sessionizer struct {
	rule sessionRule
	// names maps logical keys to session names; used guards uniqueness
	// between protocol keys and connections' own sessions.
	names map[string]string
	used  map[string]bool
	// last is the most recent connection bound to each session: the
	// parent of the next one that joins it.
	last map[string]string
}

// sessConn is the sessionizer's view of one connection.
type sessConn struct {
	id      string
	session string
	hint    string
	held    int
	bytes   int
	closed  bool
}

func newSessionizer(dialectName string) *sessionizer {
	r, ok := sessionRules[dialectName]
	if !ok {
		r = sessionRule{perConn: true}
	}
	return &sessionizer{rule: r, names: map[string]string{}, used: map[string]bool{}, last: map[string]string{}}
}

// atOpen binds a connection whose session its URL alone decides, and
// notes a URL hint.
func (s *sessionizer) atOpen(c *sessConn, rawURL string) (session string, ok bool) {
	switch {
	case s.rule.shared != "":
		return s.bind(c, "shared:"+s.rule.shared, s.rule.shared), true
	case s.rule.perConn:
		return s.bind(c, "", ""), true
	}
	if s.rule.query != "" {
		if u, err := url.Parse(rawURL); err == nil {
			if v := u.Query().Get(s.rule.query); v != "" {
				c.hint = v
			}
		}
	}
	return "", false
}

// frame looks for the session in one frame of a pending connection.
func (s *sessionizer) frame(c *sessConn, dir wire.Direction, op wire.Opcode, payload []byte) (session string, ok bool) {
	if c.session != "" {
		return "", false
	}
	c.held++
	c.bytes += len(payload)
	if op == wire.OpText {
		paths := s.rule.client
		if dir == wire.ServerToClient {
			paths = s.rule.server
		}
		for _, p := range paths {
			if v, found := peek(payload, p...); found && v != "" && v != "null" {
				if dir == wire.ServerToClient {
					return s.bind(c, "key:"+v, v), true
				}
				if c.hint == "" {
					c.hint = v
				}
				break
			}
		}
	}
	if c.held >= maxHeldFrames || c.bytes >= maxHeldBytes {
		return s.giveUp(c), true
	}
	return "", false
}

// giveUp binds a connection that never heard its session from the server:
// to the session of its hint, else to one of its own.
func (s *sessionizer) giveUp(c *sessConn) string {
	if c.hint != "" {
		return s.bind(c, "key:"+c.hint, c.hint)
	}
	return s.bind(c, "", "")
}

// bind names the connection's session: the one already named for key, or
// a new name made from want (the connection's id when want is empty).
func (s *sessionizer) bind(c *sessConn, key, want string) string {
	if name, ok := s.names[key]; ok && key != "" {
		c.session = name
		return name
	}
	if want == "" {
		want = c.id
	}
	name := s.unique(sanitizeKey(want))
	if key != "" {
		s.names[key] = name
	}
	c.session = name
	return name
}

func (s *sessionizer) unique(name string) string {
	if !s.used[name] {
		s.used[name] = true
		return name
	}
	for i := 2; ; i++ {
		n := name + "~" + strconv.Itoa(i)
		if !s.used[n] {
			s.used[n] = true
			return n
		}
	}
}

// parent is the connection a newly bound one follows: the one bound to
// its session before it. It does not depend on whether the proxy has
// noticed that connection's end yet (a reloaded tab's old socket and its
// new one race), so it is the same in every run.
func (s *sessionizer) parent(c *sessConn) string {
	if s.rule.shared != "" || s.rule.perConn {
		return "" // not reconnections: hostd's host and apps, coworker
	}
	p := s.last[c.session]
	if p == c.id {
		return ""
	}
	return p
}

// joined notes that c is now the latest connection of its session.
func (s *sessionizer) joined(c *sessConn) { s.last[c.session] = c.id }

func (s *sessionizer) closed(c *sessConn) { c.closed = true }

// sanitizeKey keeps session names printable and short: they come from the
// wire and end up in the console, the recording and the report.
func sanitizeKey(k string) string {
	k = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) && r != '"' && r != '\\' {
			return r
		}
		return '_'
	}, k)
	if r := []rune(k); len(r) > maxSessionKey {
		k = string(r[:maxSessionKey-1]) + "…"
	}
	if k == "" {
		k = "_"
	}
	return k
}
