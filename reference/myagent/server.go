package myagent

import (
	"net/http"
	"sync"

	"github.com/wsconform/wsconform/reference/server"
)

// maxDetached bounds the sessions kept for resumption after their last
// connection ended; the one detached longest is forgotten first. With the
// replay window it bounds the server's memory.
const maxDetached = 256

// Server is the myagent reference server: the registry of sessions.
type Server struct {
	env *server.Env

	mu       sync.Mutex
	sessions map[string]*session
	// detached lists the sessions without a connection, oldest first.
	detached []*session
}

// New builds the myagent reference server. It serves the manifest's one
// path, /ws, at its root (the caller mounts it under /myagent/ when serving
// several dialects).
func New(env *server.Env) http.Handler {
	s := &Server{env: env, sessions: map[string]*session{}}
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
	defer s.mu.Unlock()
	sess.refs = 1
	s.sessions[sess.id] = sess
	return sess
}

// acquire finds session id and counts one more connection on it, so it is
// not forgotten while the connection uses it.
func (s *Server) acquire(id string) (*session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok {
		return nil, false
	}
	sess.refs++
	if sess.refs == 1 {
		s.detached = remove(s.detached, sess)
	}
	return sess, true
}

// release undoes acquire or create; a session left without connections
// joins the detached list, and the oldest detached beyond maxDetached is
// forgotten.
func (s *Server) release(sess *session) {
	var gone *session
	s.mu.Lock()
	sess.refs--
	if sess.refs == 0 {
		s.detached = append(s.detached, sess)
		if len(s.detached) > maxDetached {
			gone = s.detached[0]
			s.detached = append(s.detached[:0], s.detached[1:]...)
			delete(s.sessions, gone.id)
		}
	}
	s.mu.Unlock()
	if gone != nil {
		gone.forget()
	}
}

func remove(list []*session, x *session) []*session {
	for i, y := range list {
		if y == x {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}
