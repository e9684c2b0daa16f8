package minicodex

import (
	"cmp"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/wsconform/wsconform/reference/server"
)

// maxSessions is how many sessions the server keeps before it forgets the
// least recently used idle ones (no connection, no run): memory stays
// bounded however many sessions clients start.
const maxSessions = 1024

// service is the minicodex reference server: sessions by id, each a hub.
type service struct {
	env *server.Env

	mu       sync.Mutex
	sessions map[string]*hub
	// lineage maps a client's lineage cookie to the session it last
	// attached to: how a resume without a session id finds its session.
	lineage map[string]string
	// scanAt is the session count after the last eviction scan; the next
	// scan waits until a quarter more sessions exist, so a server full of
	// busy sessions does not rescan on every new one.
	scanAt int
	// clock orders session activity for eviction.
	clock atomic.Uint64
}

// New builds the minicodex reference server. It serves the dialect's
// documented paths at its root (the caller mounts it under /minicodex/
// when serving several dialects): the WebSocket endpoint /ws, optionally
// /ws?session_id=ID to attach to an existing session.
func New(env *server.Env) http.Handler {
	s := &service{env: env, sessions: map[string]*hub{}, lineage: map[string]string{}}
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
	s.evict()
	return h
}

// join attaches c (not live yet) to session id; nil when there is no such
// session. Under s.mu, so eviction cannot take the session meanwhile.
func (s *service) join(id string, c *client) *hub {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.sessions[id]
	if h == nil {
		return nil
	}
	h.mu.Lock()
	h.attach(c)
	h.mu.Unlock()
	return h
}

// leave detaches c from h.
func (s *service) leave(h *hub, c *client) {
	h.detach(c)
	s.tidy()
}

// tidy forgets idle sessions beyond maxSessions.
func (s *service) tidy() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.evict()
}

// evict drops the least recently used idle sessions down to three quarters
// of maxSessions. s.mu held; takes each hub's mutex in turn (the lock
// order is always server, then hub).
func (s *service) evict() {
	if len(s.sessions) <= max(maxSessions, s.scanAt+maxSessions/4) {
		return
	}
	type idle struct {
		id      string
		touched uint64
	}
	var cands []idle
	for id, h := range s.sessions {
		h.mu.Lock()
		if h.idle() {
			cands = append(cands, idle{id, h.touched})
		}
		h.mu.Unlock()
	}
	defer s.forgetLineage()
	slices.SortFunc(cands, func(a, b idle) int { return cmp.Compare(a.touched, b.touched) })
	for _, c := range cands {
		if len(s.sessions) <= maxSessions*3/4 {
			break
		}
		delete(s.sessions, c.id)
	}
	s.scanAt = len(s.sessions)
}
