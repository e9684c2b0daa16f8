package myagent

import (
	"net/http"
	"sync"

	"github.com/wsconform/wsconform/reference/server"
)

// Server is the myagent reference server: the registry of sessions.
type Server struct {
	env *server.Env

	mu       sync.Mutex
	sessions map[string]*session
	// detached lists the sessions without a connection, kept for
	// resumption within Config.MaxSessions and SessionTTL: with the replay
	// window they bound the server's memory.
	detached *server.Retained[*session]
}

// New builds the myagent reference server. It serves the manifest's one
// path, /ws, at its root (the caller mounts it under /myagent/ when serving
// several dialects).
func New(env *server.Env) http.Handler {
	s := &Server{env: env, sessions: map[string]*session{}, detached: server.NewRetained[*session](env)}
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", s.serveWS)
	return mux
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if err := server.Serve(w, r, s.env, s.accept); err != nil {
		s.env.Log.Debug("myagent: connection not served", "path", r.URL.Path, "err", err)
	}
}

// create registers a new session with one reference (the connection that
// asked for it).
func (s *Server) create() *session {
	sess := newSession(s.env, s.env.IDs.New("sess_"))
	s.mu.Lock()
	sess.refs = 1
	s.sessions[sess.id] = sess
	gone := s.trim()
	s.mu.Unlock()
	forget(gone)
	return sess
}

// acquire finds session id and counts one more connection on it, so it is
// not forgotten while the connection uses it. A session kept without a
// connection for longer than SessionTTL is gone: not found.
func (s *Server) acquire(id string) (*session, bool) {
	s.mu.Lock()
	sess, ok := s.sessions[id]
	if ok && sess.refs == 0 && s.detached.Back(sess) {
		delete(s.sessions, id)
		s.mu.Unlock()
		sess.forget()
		return nil, false
	}
	if ok {
		sess.refs++
	}
	s.mu.Unlock()
	return sess, ok
}

// release undoes acquire or create; a session left without connections
// joins the detached list, and the ones detached longest beyond
// MaxSessions, or for longer than SessionTTL, are forgotten.
func (s *Server) release(sess *session) {
	s.mu.Lock()
	sess.refs--
	if sess.refs == 0 {
		s.detached.Left(sess)
	}
	gone := s.trim()
	s.mu.Unlock()
	forget(gone)
}

// trim takes the sessions the retention bounds drop out of the registry;
// the caller forgets them once s.mu is released. s.mu held.
func (s *Server) trim() []*session {
	gone := s.detached.Trim(nil)
	for _, g := range gone {
		delete(s.sessions, g.id)
	}
	return gone
}

// forget stops the runs of sessions the server dropped (their events
// would reach no one).
func forget(gone []*session) {
	for _, g := range gone {
		g.forget()
	}
}
