package minicodex

import (
	"net/http"
	"sync"

	"github.com/wsconform/wsconform/reference/server"
)

// service is the minicodex reference server: sessions by id, each a hub.
type service struct {
	env *server.Env

	mu       sync.Mutex
	sessions map[string]*hub
	// lineage maps a client's lineage cookie to the session it last
	// attached to: how a resume without a session id finds its session.
	lineage map[string]string
	// detached lists the sessions without a connection, kept for a resume
	// within Config.MaxSessions and SessionTTL (server.Retained): memory
	// stays bounded however many sessions clients start.
	detached *server.Retained[*hub]
}

// New builds the minicodex reference server. It serves the dialect's
// documented paths at its root (the caller mounts it under /minicodex/
// when serving several dialects): the WebSocket endpoint /ws, optionally
// /ws?session_id=ID to attach to an existing session.
func New(env *server.Env) http.Handler {
	s := &service{env: env, sessions: map[string]*hub{}, lineage: map[string]string{}, detached: server.NewRetained[*hub](env)}
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", s.serveWS)
	return mux
}

func (s *service) serveWS(w http.ResponseWriter, r *http.Request) {
	sid := r.URL.Query().Get("session_id")
	token := s.lineageToken(w, r)
	err := server.Serve(w, r, s.env, func(c *server.Conn) server.Handler { return s.newClient(c, sid, token) })
	if err != nil {
		s.env.Log.Debug("minicodex: connection not served", "err", err)
	}
}

// has reports whether mutation name is on.
func (s *service) has(name string) bool { return s.env.Mutations.Has(name) }

// replayMax is the most events a resume replays: the replay window, and
// never more than fits in a client's send queue next to the welcome.
func (s *service) replayMax() int {
	return min(s.env.ReplayWindow, s.env.QueueSize-16)
}

// create starts a session whose first client is c (not live yet).
func (s *service) create(c *client) *hub {
	h := newHub(s, s.env.IDs.New("sess_"))
	h.attach(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions[h.id] = h
	s.trim()
	return h
}

// join attaches c (not live yet) to session id; nil when there is no such
// session, or when it was kept without a connection for longer than
// SessionTTL and is idle (then it is forgotten). Under s.mu, so the
// retention bounds cannot take the session meanwhile.
func (s *service) join(id string, c *client) *hub {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.sessions[id]
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if s.detached.Back(h) && h.idle() {
		delete(s.sessions, id)
		s.forgetLineage()
		return nil
	}
	h.attach(c)
	return h
}

// leave detaches c from h; a session left without connections joins the
// detached list.
func (s *service) leave(h *hub, c *client) {
	h.detach(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	h.mu.Lock()
	if len(h.clients) == 0 && s.sessions[h.id] == h {
		s.detached.Left(h)
	}
	h.mu.Unlock()
	s.trim()
}

// tidy applies the retention bounds (a run that ended may have left an
// idle session to forget).
func (s *service) tidy() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trim()
}

// trim forgets the idle detached sessions (no connection, no run) beyond
// MaxSessions or kept longer than SessionTTL, the one left longest first.
// s.mu held; takes each hub's mutex in turn (the lock order is always
// server, then hub).
func (s *service) trim() {
	gone := s.detached.Trim(func(h *hub) bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.idle()
	})
	for _, h := range gone {
		delete(s.sessions, h.id)
	}
	if len(gone) > 0 {
		s.forgetLineage()
	}
}
