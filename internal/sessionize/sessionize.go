package sessionize

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
	// resume is a client message that asks to continue an earlier session
	// which the server then answers under a new id (myagent's
	// user.reconnect_with_state), typeField the member naming a message's
	// type, and resumeAt where the request names the old session (a
	// signed_state string is decoded, see resumeTarget). A connection that
	// sent it joins the old session, and the server's new id becomes
	// another name of that session, unless the server's answer is an error.
	typeField string
	resume    string
	resumeAt  [][]string
	// client lists where client frames name the session: a hint.
	client [][]string
	// bareResume is a client message type that may name no session
	// (minicodex's Resume has no session_id): a connection that sends it
	// without a hint and never hears its session from the server (the
	// server refused the resume) joins the only session named so far,
	// the spec's single-session reading, rather than one of its own.
	bareResume string
}

// sessionRules per dialect. The README of cmd/wsproxy documents them.
//
//   - minicodex: the server's welcome names the session
//     (session_state.session_id); any server frame's envelope session_id
//     does too. hello/resume and ?session_id= are hints. A resume with no
//     session id that the server does not answer with a welcome (a
//     refusal) joins the only session there is, if there is one.
//   - mitto: the server's connected{data.session_id}; ?session_id= is a hint.
//   - myagent: the first server event with a session_id
//     (agent.session_created, replayed events); a client's session_id is a
//     hint. A user.reconnect_with_state ties its connection to the session
//     it names (session_id, content.session_id, or the session_id inside
//     signed_state, an object or a base64/JWT-style string): the server
//     answers it under a new session_id (JasonDZS/myagent), which becomes
//     another name of the old session, so the replay is judged against the
//     events the earlier connection received.
//   - hostd: one session for every connection (the host's and the apps'),
//     because the checker compares what apps receive with what the host
//     sent.
//   - coworker: the sessionId of server_hello. The spec has no resumption,
//     so every connection normally gets a session of its own; one whose
//     server_hello carries a sessionId an earlier connection was given
//     (a reconnect with ?resumeSessionId=) continues that session, so that
//     coworker.no-resumption names the server once and the continued
//     turn is not blamed on the client.
//
// A connection that has not named its session within MaxHeldFrames frames
// or MaxHeldBytes, or that closes first, joins the session of its hint,
// else becomes a session of its own. A dialect without a rule here (a new
// one) gets a session per connection.
var sessionRules = map[string]sessionRule{
	"minicodex": {query: "session_id", server: [][]string{{"session_state", "session_id"}, {"session_id"}}, client: [][]string{{"session_id"}}, bareResume: "resume"},
	"mitto":     {query: "session_id", server: [][]string{{"data", "session_id"}}},
	"myagent": {server: [][]string{{"session_id"}}, client: [][]string{{"session_id"}},
		typeField: "event", resume: "user.reconnect_with_state",
		resumeAt: [][]string{{"session_id"}, {"content", "session_id"}, {"signed_state", "state", "session_id"}, {"signed_state", "session_id"},
			{"content", "signed_state", "state", "session_id"}, {"content", "signed_state", "session_id"}, {"signed_state"}, {"content", "signed_state"}}},
	"hostd":    {shared: "hostd"},
	"coworker": {server: [][]string{{"sessionId"}}},
}

// How long a connection may stay without a session before the sessionizer
// stops waiting for the server to name it.
const (
	MaxHeldFrames = 64
	MaxHeldBytes  = 1 << 20
	maxSessionKey = 80
)

// Sessionizer turns what connections reveal into session names. The proxy
// runs it under its tap's lock, at the place in the frame order where the
// binding is recorded; `wsconform validate` runs it over the connections of
// a HAR file, which records no session. One copy of the rules, so a capture
// is grouped the same whichever way it was taken.
//
// A Sessionizer is not safe for concurrent use.
type Sessionizer struct {
	rule sessionRule
	// names maps logical keys to session names; used guards uniqueness
	// between protocol keys and connections' own sessions.
	names map[string]string
	used  map[string]bool
	// last is the most recent connection bound to each session: the
	// parent of the next one that joins it.
	last map[string]string
}

// Conn is the sessionizer's view of one connection. The caller sets ID;
// Session is set once the connection is bound, Closed once Closed was
// called.
type Conn struct {
	ID      string
	Session string
	Closed  bool
	hint    string
	bare    bool   // sent the rule's bareResume without naming a session
	resume  string // the session the rule's resume request named
	held    int
	bytes   int
}

// New returns the sessionizer of a dialect (a session per connection for a
// dialect without a rule).
func New(dialectName string) *Sessionizer {
	r, ok := ruleOf(dialectName)
	if !ok {
		r = sessionRule{perConn: true}
	}
	return &Sessionizer{rule: r, names: map[string]string{}, used: map[string]bool{}, last: map[string]string{}}
}

// AtOpen binds a connection whose session its URL alone decides, and
// notes a URL hint.
func (s *Sessionizer) AtOpen(c *Conn, rawURL string) (session string, ok bool) {
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

// Named is the session a URL names by the dialect's query hint (such as
// ?session_id=) when a connection already joined it; it binds nothing. The
// proxy asks it about a handshake that was refused: a refused
// reconnection of a session is not a stray connection.
func (s *Sessionizer) Named(rawURL string) (string, bool) {
	if s.rule.query == "" {
		return "", false
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", false
	}
	v := u.Query().Get(s.rule.query)
	if v == "" {
		return "", false
	}
	name, ok := s.names["key:"+v]
	return name, ok
}

// Frame looks for the session in one frame of a pending connection.
func (s *Sessionizer) Frame(c *Conn, dir wire.Direction, op wire.Opcode, payload []byte) (session string, ok bool) {
	if c.Session != "" {
		return "", false
	}
	c.held++
	c.bytes += len(payload)
	if op == wire.OpText {
		if dir == wire.ClientToServer && s.rule.resume != "" {
			if typ, _ := Peek(payload, s.rule.typeField); typ == s.rule.resume {
				if old := resumeTarget(payload, s.rule.resumeAt); old != "" {
					c.resume = old
				}
			}
		}
		paths := s.rule.client
		if dir == wire.ServerToClient {
			paths = s.rule.server
		}
		for _, p := range paths {
			if v, found := Peek(payload, p...); found && v != "" && v != "null" {
				if dir == wire.ServerToClient {
					if c.resume != "" && v != c.resume && !s.refusal(payload) {
						return s.tie(c, v), true
					}
					return s.bind(c, "key:"+v, v), true
				}
				if c.hint == "" {
					c.hint = v
				}
				break
			}
		}
		if dir == wire.ClientToServer && c.resume != "" {
			c.hint = c.resume // the session the client asked to continue
		}
		if dir == wire.ClientToServer && s.rule.bareResume != "" && c.hint == "" {
			if typ, _ := Peek(payload, "type"); typ == s.rule.bareResume {
				c.bare = true
			}
		}
	}
	if c.held >= MaxHeldFrames || c.bytes >= MaxHeldBytes {
		return s.GiveUp(c), true
	}
	return "", false
}

// tie binds a connection that asked to continue session c.resume to that
// session, and makes the id the server answered under (newID) another name
// of it, so that later connections the server names newID join it too.
func (s *Sessionizer) tie(c *Conn, newID string) string {
	name := s.bind(c, "key:"+c.resume, c.resume)
	if _, named := s.names["key:"+newID]; !named {
		s.names["key:"+newID] = name
	}
	return name
}

// refusal reports whether a server message is an error (error.*,
// system.error, agent.error): a server that refused a resume request and
// names a session in its error did not continue the old one.
func (s *Sessionizer) refusal(payload []byte) bool {
	if s.rule.typeField == "" {
		return false
	}
	typ, _ := Peek(payload, s.rule.typeField)
	return strings.HasPrefix(typ, "error.") || strings.HasSuffix(typ, ".error") || typ == "error"
}

// GiveUp binds a connection that never heard its session from the server:
// to the session of its hint, else to one of its own.
func (s *Sessionizer) GiveUp(c *Conn) string {
	if c.hint != "" {
		return s.bind(c, "key:"+c.hint, c.hint)
	}
	if c.bare {
		if key, ok := s.soleKey(); ok {
			return s.bind(c, key, "")
		}
	}
	return s.bind(c, "", "")
}

// soleKey is the key of the only session a protocol key named, if
// exactly one was.
func (s *Sessionizer) soleKey() (string, bool) {
	found := ""
	for k := range s.names {
		if !strings.HasPrefix(k, "key:") {
			continue
		}
		if found != "" {
			return "", false
		}
		found = k
	}
	return found, found != ""
}

// bind names the connection's session: the one already named for key, or
// a new name made from want (the connection's id when want is empty).
func (s *Sessionizer) bind(c *Conn, key, want string) string {
	if name, ok := s.names[key]; ok && key != "" {
		c.Session = name
		return name
	}
	if want == "" {
		want = c.ID
	}
	name := s.unique(sanitizeKey(want))
	if key != "" {
		s.names[key] = name
	}
	c.Session = name
	return name
}

func (s *Sessionizer) unique(name string) string {
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

// Shared is the session every connection of the dialect joins (hostd's
// host and apps), and so the one an HTTP exchange of its protocol belongs
// to; "" for a dialect whose connections name their sessions.
func (s *Sessionizer) Shared() string {
	if s.rule.shared == "" {
		return ""
	}
	return s.bind(&Conn{}, "shared:"+s.rule.shared, s.rule.shared)
}

// Parent is the connection a newly bound one follows: the one bound to
// its session before it. It does not depend on whether the proxy has
// noticed that connection's end yet (a reloaded tab's old socket and its
// new one race), so it is the same in every run.
func (s *Sessionizer) Parent(c *Conn) string {
	if s.rule.shared != "" || s.rule.perConn {
		return "" // not reconnections: hostd's host and apps, coworker
	}
	p := s.last[c.Session]
	if p == c.ID {
		return ""
	}
	return p
}

// Joined notes that c is now the latest connection of its session.
func (s *Sessionizer) Joined(c *Conn) { s.last[c.Session] = c.ID }

// Closed notes that c ended.
func (s *Sessionizer) Closed(c *Conn) { c.Closed = true }

// Reserve keeps name out of the sessionizer's hands: a connection judged
// as a session of its own before the sessionizer existed (the proxy's
// connections closed while it detected the dialect) owns it.
func (s *Sessionizer) Reserve(name string) { s.used[name] = true }

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
