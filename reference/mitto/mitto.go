package mitto

import (
	"net/http"
	"regexp"

	"github.com/wsconform/wsconform/reference/server"
)

// acpServer is what connected.acp_server names: the agent behind the
// session, here the scripted one.
const acpServer = "wsconform-scripted-agent"

// sessionIDPattern bounds what ?session_id= may be: printable, URL-safe and
// short, so a session id can be logged and echoed without surprises.
var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// New builds the mitto reference server. It serves the dialect's documented
// paths at its root (the caller mounts it under /mitto/ when serving several
// dialects): the WebSocket at /ws.
func New(env *server.Env) http.Handler {
	h := newHub(env)
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", h.serveWS)
	return mux
}

// serveWS picks the session from the query and accepts the WebSocket. The
// spec (mitto.md) names no path or session parameter: ?session_id=ID joins
// (or creates) session ID, no parameter starts a new session whose id the
// connected message names. ?legacy=1 asks for the legacy permission message
// instead of ui_prompt for permission requests.
func (h *hub) serveWS(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id := q.Get("session_id")
	if q.Has("session_id") && !sessionIDPattern.MatchString(id) {
		http.Error(w, "session_id must be 1 to 128 characters of A-Z a-z 0-9 . _ : -", http.StatusBadRequest)
		return
	}
	legacy := q.Get("legacy") == "1" || q.Get("legacy") == "true"
	err := server.Serve(w, r, h.env, func(c *server.Conn) server.Handler {
		return h.attach(c, id, legacy)
	})
	if err != nil {
		h.env.Log.Debug("mitto: connection not served", "path", r.URL.Path, "err", err)
	}
}
