package replay

import (
	"fmt"
	"io"

	"github.com/wsconform/wsconform/internal/recording"
)

// WriteRecording writes the replay's own traffic as a recording (--record),
// so that the new run can be validated, compared or replayed in turn.
// Credentials are redacted unless h.KeepSecrets.
func WriteRecording(w io.Writer, res *Result, h recording.Header) error {
	if h.Dialect == "" {
		h.Dialect = res.Dialect
	}
	rw, err := recording.NewWriter(w, h)
	if err != nil {
		return fmt.Errorf("failed to write recording: %w", err)
	}
	for _, l := range res.Lines {
		switch l.Kind {
		case recording.KindOpen:
			err = rw.Open(l.Conn, l.Session, l.Parent, l.URL, l.Time)
		case recording.KindClose:
			err = rw.Close(l.Conn, l.Session, l.Code, l.Reason, l.By, l.Time)
		case recording.KindFrame:
			f, ferr := l.Frame()
			if ferr != nil {
				return fmt.Errorf("failed to write recording: %w", ferr)
			}
			f.URL = ""
			err = rw.Frame(l.Session, f)
		}
		if err != nil {
			return fmt.Errorf("failed to write recording: %w", err)
		}
	}
	return nil
}
