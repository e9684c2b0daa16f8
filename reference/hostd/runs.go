package hostd

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/wsconform/wsconform/internal/version"
)

// The relay project's web app (aipper/relay web/, the client hostd-mvp.md
// was written for) asks two endpoints the spec does not list before it
// opens /ws/app: GET /health (its Connect button fails without it) and
// GET /runs (the runs a user can select to send input to). The reference
// answers both in the relay server's shapes so that the real web app can
// be driven against it (ci/field/hostd/); they are extensions, judged by
// no rule and no scenario.

// health is GET /health's body, the relay server's HealthResponse.
type health struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// runRow is one row of GET /runs, the relay server's db::RunRow.
type runRow struct {
	ID        string  `json:"id"`
	HostID    string  `json:"host_id"`
	Tool      string  `json:"tool"`
	Cwd       string  `json:"cwd"`
	Status    string  `json:"status"`
	StartedAt string  `json:"started_at"`
	EndedAt   *string `json:"ended_at"`
	ExitCode  *int64  `json:"exit_code"`
}

// Run statuses of GET /runs, the relay server's.
const (
	statusRunning  = "running"
	statusAwaiting = "awaiting_input"
	statusExited   = "exited"
)

// runInfo is what GET /runs shows of a run, kept from its events.
type runInfo struct {
	tool, cwd, status, startedAt string
	endedAt                      *string
	exitCode                     *int64
}

// getHealth is GET /health.
func (s *srv) getHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, health{Name: "wsconform-reference-hostd", Version: version.Number()})
}

// listRuns is GET /runs (Bearer auth): the runs the server remembers,
// newest first, as the relay server lists them.
func (s *srv) listRuns(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, s.hub.rows())
}

// rows lists the runs, newest first.
func (h *hub) rows() []runRow {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]runRow, 0, len(h.order))
	for _, r := range slices.Backward(h.order) {
		out = append(out, runRow{ID: r.id, HostID: r.hostID, Tool: r.info.tool, Cwd: r.info.cwd,
			Status: r.info.status, StartedAt: r.info.startedAt, EndedAt: r.info.endedAt, ExitCode: r.info.exitCode})
	}
	return out
}

// note updates what GET /runs shows from an event the server accepted.
// Call with mu held.
func (h *hub) note(r *run, ev envelope) {
	ts := ev.TS
	if ts == "" {
		ts = h.env.Stamp()
	}
	in := &r.info
	if in.startedAt == "" {
		in.startedAt, in.status = ts, statusRunning
	}
	switch ev.Type {
	case typeStarted:
		tool, _ := ev.Data["tool"].(string)
		cwd, _ := ev.Data["cwd"].(string)
		*in = runInfo{tool: tool, cwd: cwd, status: statusRunning, startedAt: ts}
	case typeAwaiting:
		in.status = statusAwaiting
	case typeInput:
		in.status = statusRunning
	case typeExited:
		in.status, in.endedAt = statusExited, &ts
		if n, ok := ev.Data["exit_code"].(json.Number); ok {
			if c, err := n.Int64(); err == nil {
				in.exitCode = &c
			}
		}
	}
}
