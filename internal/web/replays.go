package web

import (
	"bytes"
	"net/http"

	"github.com/wsconform/wsconform/reports"
)

// replays serves the replay diffs of the report so far (Report.Replays,
// from gate --replay) as the report renders them, side by side; an empty
// body when there are none (wsproxy never has any).
func (s *Server) replays(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	rep, err := s.report(r.Context())
	if err != nil {
		http.Error(w, "wsproxy web view: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	var b bytes.Buffer
	for _, d := range rep.Replays {
		if err := reports.ReplayDiffHTML(&b, d); err != nil {
			http.Error(w, "wsproxy web view: "+err.Error(), http.StatusInternalServerError)
			return
		}
	}
	_, _ = w.Write(b.Bytes())
}
