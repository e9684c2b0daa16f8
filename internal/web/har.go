package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/version"
)

// harAvailable says whether "Save HAR" can work: there is a recording.
func (s *Server) harAvailable() bool { return s.cfg.Recording != "" }

// har exports the recording so far as a HAR file that Chrome DevTools,
// HAR viewers and `wsconform validate` read (?session=ID: that session's
// connections only). The recording is read up to its last complete line:
// the proxy keeps appending to it meanwhile.
func (s *Server) har(w http.ResponseWriter, r *http.Request) {
	if !s.harAvailable() {
		http.Error(w, "wsproxy web view: no recording to export (start wsproxy with --record FILE or --web)", http.StatusNotFound)
		return
	}
	f, err := os.Open(s.cfg.Recording)
	if err != nil {
		http.Error(w, "wsproxy web view: "+err.Error(), http.StatusInternalServerError)
		return
	}
	defer f.Close()
	src, err := completeLines(f)
	if err != nil {
		http.Error(w, "wsproxy web view: "+err.Error(), http.StatusInternalServerError)
		return
	}
	session := r.URL.Query().Get("session")
	name := "wsproxy-" + time.Now().Format("20060102-150405") + ".har"
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	out := &trackWriter{w: w}
	err = recording.WriteHAR(out, src, recording.HAROptions{Creator: "wsproxy " + version.String(), Session: session})
	switch {
	case err == nil || out.n > 0:
		// written; an error after the first byte can only cut the download
	case errors.Is(err, recording.ErrNothingToExport):
		w.Header().Del("Content-Disposition")
		http.Error(w, "wsproxy web view: nothing recorded yet to export", http.StatusNotFound)
	default:
		w.Header().Del("Content-Disposition")
		http.Error(w, "wsproxy web view: "+err.Error(), http.StatusInternalServerError)
	}
}

// trackWriter counts what was written, so that an error before the first
// byte can still be an HTTP error.
type trackWriter struct {
	w io.Writer
	n int64
}

func (t *trackWriter) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.n += int64(n)
	return n, err
}

// completeLines is f up to the end of its last complete line, as it is
// now: a line being written is left out.
func completeLines(f *os.File) (io.Reader, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("failed to read the recording: %w", err)
	}
	end := st.Size()
	buf := make([]byte, 4096)
	for end > 0 {
		n := int64(len(buf))
		if n > end {
			n = end
		}
		if _, err := f.ReadAt(buf[:n], end-n); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("failed to read the recording: %w", err)
		}
		for i := n - 1; i >= 0; i-- {
			if buf[i] == '\n' {
				return io.NewSectionReader(f, 0, end-n+i+1), nil
			}
		}
		end -= n
	}
	return io.NewSectionReader(f, 0, 0), nil
}
