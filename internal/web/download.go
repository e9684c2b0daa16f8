package web

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/wsconform/wsconform/reports"
)

// snapshotTimeout bounds how long a download waits for the validator
// (which answers between two batches).
const snapshotTimeout = 10 * time.Second

// report is the proxy's report so far, as the files on exit show it:
// redacted unless KeepSecrets, with the command line.
func (s *Server) report(ctx context.Context) (*reports.Report, error) {
	box := s.src.Load()
	if box == nil {
		return nil, errNoSource
	}
	ctx, cancel := context.WithTimeout(ctx, snapshotTimeout)
	defer cancel()
	r, err := box.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	if s.cfg.Command != "" {
		r.Command = s.cfg.Command
	}
	if !s.cfg.KeepSecrets {
		r = reports.Redact(r)
	}
	return r, nil
}

// download serves the report so far with one of the report writers used
// on exit ("Download report").
func (s *Server) download(ctype string, write func(io.Writer, *reports.Report) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rep, err := s.report(r.Context())
		if err != nil {
			http.Error(w, "wsproxy web view: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		var b bytes.Buffer
		if err := write(&b, rep); err != nil {
			http.Error(w, "wsproxy web view: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Cache-Control", "no-store")
		if r.URL.Query().Has("download") {
			w.Header().Set("Content-Disposition", `attachment; filename="wsproxy-`+time.Now().Format("20060102-150405")+
				"-"+r.URL.Path[1:]+`"`)
		}
		w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
		_, _ = w.Write(b.Bytes())
	}
}
