package minicodex

import (
	"net/http"
	"strconv"
	"strings"
)

// lineageCookie names the cookie the server sets on every upgrade: an
// opaque token for "this client" (a browser keeps it across reconnects),
// so that a resume without a session id rejoins the session this client
// had. See doc.go, "Resume without a session id".
const lineageCookie = "minicodex_client"

// maxLineages bounds the lineage map; beyond it the tokens of forgotten
// sessions go first, then arbitrary ones.
const maxLineages = 4096

// lineageToken is the request's lineage cookie, or a new one, which the
// 101 response sets.
func (s *service) lineageToken(w http.ResponseWriter, r *http.Request) string {
	if ck, err := r.Cookie(lineageCookie); err == nil && validToken(ck.Value) {
		return ck.Value
	}
	token := s.env.IDs.New("client_")
	http.SetCookie(w, &http.Cookie{Name: lineageCookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return token
}

// validToken accepts the tokens this server makes: short, printable,
// no separators.
func validToken(v string) bool {
	if v == "" || len(v) > 64 {
		return false
	}
	return !strings.ContainsFunc(v, func(r rune) bool {
		return !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
}

// remember notes that the client of lineage token attached to session sid.
func (s *service) remember(token, sid string) {
	if token == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lineage[token] = sid
	if len(s.lineage) > maxLineages {
		s.forgetLineage()
		for t := range s.lineage {
			if len(s.lineage) <= maxLineages*3/4 {
				break
			}
			delete(s.lineage, t)
		}
	}
}

// forgetLineage drops tokens whose session is gone. s.mu held.
func (s *service) forgetLineage() {
	for t, sid := range s.lineage {
		if s.sessions[sid] == nil {
			delete(s.lineage, t)
		}
	}
}

// resumeTarget is the session a resume without a session id rejoins: the
// one this client's lineage cookie last attached to, else the server's
// only session, else its only session with no connection attached (the
// spec's single-session reading: one agent instance, one session).
// Anything else is ambiguous: MISSING_FIELD, as before.
func (s *service) resumeTarget(token string) (string, *cmdError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sid, ok := s.lineage[token]; ok && s.sessions[sid] != nil {
		return sid, nil
	}
	if len(s.sessions) == 1 {
		for sid := range s.sessions {
			return sid, nil
		}
	}
	only := ""
	for sid, h := range s.sessions {
		h.mu.Lock()
		detached := len(h.clients) == 0
		h.mu.Unlock()
		if detached {
			if only != "" {
				only = ""
				break
			}
			only = sid
		}
	}
	if only != "" {
		return only, nil
	}
	e := missing("session_id", "resume")
	e.Message = "resume needs session_id here: this client has no session on the server and the server holds " +
		plural(len(s.sessions)) + ", not one to resume"
	e.Details["sessions"] = len(s.sessions)
	return "", e
}

func plural(n int) string {
	if n == 1 {
		return "1 session"
	}
	return strconv.Itoa(n) + " sessions"
}
