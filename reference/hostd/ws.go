package hostd

import (
	"net/http"
	"net/url"

	"github.com/gorilla/websocket"

	"github.com/wsconform/wsconform/reference/server"
)

// Close codes for a WebSocket whose credentials are refused. hostd-mvp.md
// names none; these mirror HTTP 400 and 401 in the private range
// (RFC 6455 §7.4.2) because a browser cannot read the HTTP status of a
// failed handshake but does see the close code.
const (
	closeBadRequest   = 4400
	closeUnauthorized = 4401
)

// maxHostID bounds host_id so a close reason or log line stays small.
const maxHostID = 256

// wsPreflight answers, with a JSON error, requests that cannot become a
// WebSocket: wrong method, no upgrade (server.Serve answers a bad ?fault=). It reports
// whether to go on.
func (s *srv) wsPreflight(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", r.Method+" "+r.URL.Path+": a WebSocket is opened with GET")
		return false
	}
	if !websocket.IsWebSocketUpgrade(r) {
		w.Header().Set("Upgrade", "websocket")
		writeError(w, http.StatusUpgradeRequired, "websocket_required", r.URL.Path+" is a WebSocket endpoint")
		return false
	}
	return true
}

// appSocket is GET /ws/app?token=ACCESS_TOKEN (or Authorization: Bearer
// for clients that can set headers). A missing or unknown token is
// accepted and then closed with 4401. Optional run_id= and host_id=
// parameters (repeatable) narrow the runs the app receives.
func (s *srv) appSocket(w http.ResponseWriter, r *http.Request) {
	if !s.wsPreflight(w, r) {
		return
	}
	q := r.URL.Query()
	tok := q.Get("token")
	if tok == "" {
		tok, _ = bearer(r)
	}
	refusal := ""
	switch {
	case tok == "":
		refusal = "missing access token: /ws/app?token=ACCESS_TOKEN"
	case !s.hub.validToken(tok) || s.env.Mutations.Has(mutAppRefusesAll):
		refusal = "invalid access token: log in again"
	}
	f := filterOf(q)
	err := server.Serve(w, r, s.env, func(c *server.Conn) server.Handler {
		if refusal != "" {
			c.Close(closeUnauthorized, refusal)
			return refused{}
		}
		a := &appConn{c: c, filter: f}
		s.hub.addApp(a)
		return &appHandler{s: s, a: a}
	})
	if err != nil {
		s.env.Log.Warn("hostd: app connection", "err", err)
	}
}

// hostSocket is GET /ws/host?host_id=ID&host_token=TOKEN. A wrong or
// missing token is closed with 4401, a missing host_id with 4400.
func (s *srv) hostSocket(w http.ResponseWriter, r *http.Request) {
	if !s.wsPreflight(w, r) {
		return
	}
	q := r.URL.Query()
	tok := q.Get("host_token")
	if tok == "" {
		tok, _ = bearer(r)
	}
	hostID := q.Get("host_id")
	var code int
	var refusal string
	switch {
	case tok == "":
		code, refusal = closeUnauthorized, "missing host token: /ws/host?host_id=ID&host_token=TOKEN"
	case !sameSecret(tok, s.env.Auth.HostToken) || s.env.Mutations.Has(mutHostRefusesAll):
		code, refusal = closeUnauthorized, "invalid host token"
	case hostID == "" || len(hostID) > maxHostID:
		code, refusal = closeBadRequest, "missing or overlong host_id: /ws/host?host_id=ID&host_token=TOKEN"
	}
	err := server.Serve(w, r, s.env, func(c *server.Conn) server.Handler {
		if refusal != "" {
			c.Close(code, refusal)
			return refused{}
		}
		hc := &hostConn{c: c, hostID: hostID}
		s.hub.addHost(hc)
		return &hostHandler{s: s, hc: hc}
	})
	if err != nil {
		s.env.Log.Warn("hostd: host connection", "err", err)
	}
}

// filter is the set of runs an app connection wants; empty sets mean all.
type filter struct {
	runs, hosts map[string]bool
}

func filterOf(q url.Values) filter {
	set := func(vals []string) map[string]bool {
		if len(vals) == 0 {
			return nil
		}
		m := map[string]bool{}
		for _, v := range vals {
			m[v] = true
		}
		return m
	}
	return filter{runs: set(q["run_id"]), hosts: set(q["host_id"])}
}

func (f filter) wants(r *run) bool {
	return (f.runs == nil || f.runs[r.id]) && (f.hosts == nil || f.hosts[r.hostID])
}

// refused is the handler of a connection being closed for its
// credentials: whatever it sends is dropped.
type refused struct{}

func (refused) Message(server.Inbound) {}
func (refused) Closed()                {}

// appHandler handles one app connection: run.send_input and run.stop.
type appHandler struct {
	s *srv
	a *appConn
}

// Message handles one app message. hostd-mvp.md defines no error message,
// so a message that cannot be acted on is logged and dropped; the
// connection and the server's state stay as they were.
func (h *appHandler) Message(in server.Inbound) {
	if h.a.c.FailInvalidText(in) {
		return
	}
	ev, err := h.s.inbound(in)
	if err == nil {
		err = h.command(ev)
	}
	if err != nil {
		h.s.env.Log.Warn("hostd: app message dropped", "conn", h.a.c.ID, "err", err)
	}
}

func (h *appHandler) command(ev envelope) error {
	fields, ok := commandFields[ev.Type]
	if !ok {
		return errNotForApps(ev.Type)
	}
	if err := checkData(ev.Data, fields); err != nil {
		return err
	}
	if ev.Type == typeStop {
		signal, _ := ev.Data["signal"].(string)
		if signal == "" {
			signal = "term" // §Commands: default term
		}
		return h.s.hub.stop(ev.RunID, signal)
	}
	_, err := h.s.hub.input(ev.RunID, ev.Data["input_id"].(string), ev.Data["text"].(string))
	return err
}

func (h *appHandler) Closed() { h.s.hub.removeApp(h.a) }

// hostHandler handles one host connection: run events.
type hostHandler struct {
	s  *srv
	hc *hostConn
}

// Message handles one host message; like an app's, a message that cannot
// be acted on is logged and dropped, and an event that is not persisted is
// not acknowledged (it stays in the host's spool).
func (h *hostHandler) Message(in server.Inbound) {
	if h.hc.c.FailInvalidText(in) {
		return
	}
	ev, err := h.s.inbound(in)
	if err == nil {
		if !isEvent(ev.Type) {
			err = errNotForHosts(ev.Type)
		} else {
			err = h.s.hub.hostEvent(h.hc, ev)
		}
	}
	if err != nil {
		h.s.env.Log.Warn("hostd: host message dropped", "conn", h.hc.c.ID, "host_id", h.hc.hostID, "err", err)
	}
}

func (h *hostHandler) Closed() { h.s.hub.removeHost(h.hc) }
