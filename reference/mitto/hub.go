package mitto

import (
	"sync"

	"github.com/wsconform/wsconform/reference/server"
)

// hub owns the sessions of one server. Lock order: hub.mu before
// session.mu.
type hub struct {
	env      *server.Env
	mu       sync.Mutex
	sessions map[string]*session
	// detached lists sessions without clients, least recently left first,
	// kept within Config.MaxSessions and SessionTTL (server.Retained): memory
	// follows the number of live sessions, not the server's uptime.
	detached *server.Retained[*session]
}

func newHub(env *server.Env) *hub {
	return &hub{env: env, sessions: map[string]*session{}, detached: server.NewRetained[*session](env)}
}

// attach joins the connection to session id (a new session when id is
// empty, created under that id when unknown, or when it was kept without
// a client for longer than SessionTTL and is idle) and greets it with
// connected.
func (h *hub) attach(conn *server.Conn, id string, legacy bool) *client {
	h.mu.Lock()
	defer h.mu.Unlock()
	if id == "" {
		id = h.env.IDs.New("session-")
	}
	s := h.sessions[id]
	if s != nil && h.detached.Back(s) && s.idle() {
		s = nil // expired: a client that comes back this late starts over
	}
	if s == nil {
		s = newSession(h.env, id)
		h.sessions[id] = s
	}
	c := &client{conn: conn, id: h.env.IDs.New("client-"), s: s, hub: h, legacy: legacy}
	s.join(c)
	return c
}

// detach removes a client that went away; a session left without clients
// joins the detached list, and the list is trimmed.
func (h *hub) detach(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := c.s
	if s.leave(c) == 0 {
		h.detached.Left(s)
	}
	h.trim()
}

// trim forgets the detached sessions beyond MaxSessions, or kept longer
// than SessionTTL, that are idle (no turn running, nothing queued), the
// least recently left first. A session still running a turn stays; it is
// looked at again on a later trim. h.mu held.
func (h *hub) trim() {
	for _, s := range h.detached.Trim((*session).idle) {
		delete(h.sessions, s.id)
	}
}
