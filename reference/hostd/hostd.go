package hostd

import (
	"net/http"

	"github.com/wsconform/wsconform/reference/server"
)

// New builds the hostd reference server. It serves the dialect's
// documented paths at its root (the caller mounts it under /hostd/ when
// serving several dialects):
//
//	POST /auth/login              {username, password} → {access_token}
//	POST /runs/{run_id}/input     Bearer ACCESS_TOKEN; {input_id, text} → run.send_input to the host
//	GET  /ws/app?token=TOKEN      app WebSocket: run events in, run.send_input / run.stop out
//	GET  /ws/host?host_id=ID&host_token=TOKEN   host WebSocket: events out, commands and run.ack in
//	GET  /health, GET /runs       the relay web app's extras (runs.go)
func New(env *server.Env) http.Handler {
	s := &srv{env: env, hub: newHub(env)}
	mux := http.NewServeMux()
	mux.HandleFunc("/auth/login", s.login)
	mux.HandleFunc("/runs/{run_id}/input", s.postInput)
	mux.HandleFunc("/ws/app", s.appSocket)
	mux.HandleFunc("/ws/host", s.hostSocket)
	mux.HandleFunc("GET /health", s.getHealth)
	mux.HandleFunc("GET /runs", s.listRuns)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such endpoint: "+r.URL.Path)
	})
	// The HTTP endpoints get the Host check (DNS rebinding) the sockets
	// get in server.Serve.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if env.AdmitHost(w, r) {
			mux.ServeHTTP(w, r)
		}
	})
}

// srv holds one hostd server's handlers and state.
type srv struct {
	env *server.Env
	hub *hub
}
