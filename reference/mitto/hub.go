package mitto

import (
	"container/list"
	"sync"

	"github.com/wsconform/wsconform/reference/server"
)

// maxDetached bounds the sessions kept with no client attached: beyond it
// the least recently left idle session is forgotten, so memory follows the
// number of live sessions, not the server's uptime.
const maxDetached = 256

// hub owns the sessions of one server. Lock order: hub.mu before
// session.mu.
type hub struct {
	env      *server.Env
	mu       sync.Mutex
	sessions map[string]*session
	// detached lists sessions without clients, least recently left first.
	detached *list.List
}

func newHub(env *server.Env) *hub {
	return &hub{env: env, sessions: map[string]*session{}, detached: list.New()}
}

// attach joins the connection to session id (a new session when id is
// empty, created under that id when unknown) and greets it with connected.
func (h *hub) attach(conn *server.Conn, id string, legacy bool) *client {
	h.mu.Lock()
	defer h.mu.Unlock()
	if id == "" {
		id = h.env.IDs.New("session-")
	}
	s := h.sessions[id]
	if s == nil {
		s = newSession(h.env, id)
		h.sessions[id] = s
	}
	if s.elem != nil {
		h.detached.Remove(s.elem)
		s.elem = nil
	}
	c := &client{conn: conn, id: h.env.IDs.New("client-"), s: s, hub: h, legacy: legacy}
	s.join(c)
	return c
}

// detach removes a client that went away; a session left without clients
// joins the detached list, and the list is trimmed to maxDetached.
func (h *hub) detach(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := c.s
	if s.leave(c) == 0 && s.elem == nil {
		s.elem = h.detached.PushBack(s)
	}
	h.trim()
}

// trim forgets the oldest detached sessions that are idle (no turn running,
// nothing queued) while more than maxDetached are kept. A session still
// running a turn stays; it is looked at again on a later trim.
func (h *hub) trim() {
	for e := h.detached.Front(); e != nil && h.detached.Len() > maxDetached; {
		next := e.Next()
		s := e.Value.(*session)
		if s.idle() {
			h.detached.Remove(e)
			s.elem = nil
			delete(h.sessions, s.id)
		}
		e = next
	}
}
