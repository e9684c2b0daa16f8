package mcpserver

import (
	"context"
	"encoding/base64"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/redact"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// framesArgs are the frames tool's arguments: a window around one index
// and filters, all of which a frame must match.
type framesArgs struct {
	Path       string `json:"path" jsonschema:"path of a recording or HAR file under the server's roots"`
	Dialect    string `json:"dialect,omitempty" jsonschema:"the dialect; absent or auto: from the recording"`
	Around     int64  `json:"around,omitempty" jsonschema:"a frame index (from a problem's frames): return the frames from around-before to around+after"`
	Before     *int   `json:"before,omitempty" jsonschema:"frames before around, 0 to 50 (default 5)"`
	After      *int   `json:"after,omitempty" jsonschema:"frames after around, 0 to 50 (default 5)"`
	Type       string `json:"type,omitempty" jsonschema:"only frames of this message type"`
	Conn       string `json:"connection,omitempty" jsonschema:"only frames of this connection id"`
	Dir        string `json:"dir,omitempty" jsonschema:"only frames of this direction: c2s (client to server) or s2c"`
	Rule       string `json:"rule,omitempty" jsonschema:"only frames with a finding of this rule"`
	AfterIndex int64  `json:"after_index,omitempty" jsonschema:"only frames with a larger index: to page on, give the next_after_index of the last answer"`
	Limit      int    `json:"limit,omitempty" jsonschema:"most frames to return, 1 to 200 (default 20)"`
	MaxBytes   int    `json:"max_bytes,omitempty" jsonschema:"payload bytes kept per frame, 16 to 65536 (default 2000); longer payloads are cut"`
}

func (a *framesArgs) check() error {
	if err := checkDialect(a.Dialect, "auto"); err != nil {
		return err
	}
	if a.Dir != "" && a.Dir != string(wire.ClientToServer) && a.Dir != string(wire.ServerToClient) {
		return fmt.Errorf("argument \"dir\": %q: want c2s or s2c", a.Dir)
	}
	if a.Around < 0 || a.AfterIndex < 0 || a.Around > maxIndex || a.AfterIndex > maxIndex {
		return fmt.Errorf("arguments \"around\" and \"after_index\": frame indexes are 0 to %d", maxIndex)
	}
	for _, w := range []struct {
		name string
		v    *int
	}{{"before", a.Before}, {"after", a.After}} {
		if w.v != nil && (*w.v < 0 || *w.v > 50) {
			return fmt.Errorf("argument %q: %d is out of range: give 0 to 50", w.name, *w.v)
		}
	}
	if err := inRange("limit", a.Limit, 1, 200); err != nil {
		return err
	}
	return inRange("max_bytes", a.MaxBytes, 16, 65536)
}

// maxIndex bounds frame index arguments, so a window around one cannot
// overflow.
const maxIndex = 1 << 53

// frameOut is one frame as the tool returns it.
type frameOut struct {
	Index     int64          `json:"index"`
	Session   string         `json:"session,omitempty"`
	Conn      string         `json:"connection"`
	Dir       string         `json:"dir"`
	Time      time.Time      `json:"time,omitzero"`
	Opcode    string         `json:"opcode"`
	Type      string         `json:"type,omitempty"`
	Seq       string         `json:"seq,omitempty" jsonschema:"the dialect's ordering field (event_id, seq, index), when present"`
	Size      int            `json:"size"`
	Payload   string         `json:"payload" jsonschema:"text as is (redacted), or base64 when binary is set"`
	Binary    bool           `json:"binary,omitempty"`
	Truncated bool           `json:"truncated,omitempty"`
	CloseCode int            `json:"close_code,omitempty"`
	Findings  []frameFinding `json:"findings,omitempty"`
}

// frameFinding is a finding on a frame, short: validate_recording and
// explain say the rest.
type frameFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Pointer  string `json:"pointer,omitempty"`
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
}

// framesResult is what the frames tool returns.
type framesResult struct {
	Path    string     `json:"path"`
	Dialect string     `json:"dialect"`
	Judged  int        `json:"judged_frames" jsonschema:"frames the file holds that were judged"`
	Matched int        `json:"matched" jsonschema:"frames that matched the window and filters"`
	Frames  []frameOut `json:"frames"`
	// NextAfterIndex is set when more frames matched than limit.
	NextAfterIndex int64 `json:"next_after_index,omitempty" jsonschema:"set when more frames matched: call again with after_index set to it"`
}

// frameWalker is the validate.Observer that keeps the frames the
// arguments select, with their findings, and nothing else: memory stays
// bounded by limit whatever the file's size.
type frameWalker struct {
	a        framesArgs
	d        *dialect.Dialect
	lo, hi   int64
	limit    int
	maxBytes int
	res      *framesResult
}

func (w *frameWalker) Begin(name, _ string)        { w.d, _ = dialect.Get(name) }
func (w *frameWalker) Line(recording.Line)         {}
func (w *frameWalker) Unreadable(validate.Finding) {}
func (w *frameWalker) Bound(string, string)        {}
func (w *frameWalker) Judged(session string, f wire.Frame, fs []validate.Finding) {
	w.res.Judged++
	if !w.match(f, fs) {
		return
	}
	w.res.Matched++
	if len(w.res.Frames) >= w.limit {
		if w.res.NextAfterIndex == 0 {
			w.res.NextAfterIndex = w.res.Frames[len(w.res.Frames)-1].Index
		}
		return
	}
	typ, seq := reports.Describe(w.d, f)
	out := frameOut{Index: f.Index, Session: session, Conn: f.Conn, Dir: string(f.Dir), Time: f.Time, Opcode: f.Op.String(),
		Type: typ, Seq: seq, Size: len(f.Payload), CloseCode: f.CloseCode}
	out.Payload, out.Binary, out.Truncated = payloadText(f, w.maxBytes)
	for _, x := range fs {
		x.Finding = reports.RedactFinding(x.Finding)
		out.Findings = append(out.Findings, frameFinding{Rule: x.Rule, Severity: x.Severity.String(), Message: x.Message,
			Pointer: x.Pointer, Expected: x.Expected, Actual: x.Actual})
	}
	w.res.Frames = append(w.res.Frames, out)
}

// match applies the window and the filters.
func (w *frameWalker) match(f wire.Frame, fs []validate.Finding) bool {
	a := w.a
	switch {
	case f.Index <= a.AfterIndex,
		a.Around > 0 && (f.Index < w.lo || f.Index > w.hi),
		a.Conn != "" && f.Conn != a.Conn,
		a.Dir != "" && string(f.Dir) != a.Dir:
		return false
	}
	if a.Type != "" {
		if typ, _ := reports.Describe(w.d, f); typ != a.Type {
			return false
		}
	}
	if a.Rule != "" {
		for _, x := range fs {
			if x.Rule == a.Rule {
				return true
			}
		}
		return false
	}
	return true
}

// payloadText is a frame's payload for an agent: redacted, cut to max
// bytes (never inside a UTF-8 sequence), base64 when binary.
func payloadText(f wire.Frame, max int) (string, bool, bool) {
	p := f.Payload
	binary := f.Op == wire.OpBinary || !utf8.Valid(p)
	switch {
	case binary:
		p, _, _ = redact.Binary(p)
	case f.Op == wire.OpText:
		p, _ = redact.JSON(p)
	default:
		p = []byte(redact.Text(string(p)))
	}
	cut := len(p) > max
	if cut {
		p = p[:max]
		for len(p) > 0 && !binary && !utf8.Valid(p) {
			p = p[:len(p)-1]
		}
	}
	if binary {
		return base64.StdEncoding.EncodeToString(p), true, cut
	}
	return string(p), false, cut
}

// frames walks a recording with validate.File (so the findings are those
// validate_recording reports) and keeps the selected frames.
func (s *Server) frames(ctx context.Context, a framesArgs) (framesResult, error) {
	path, err := s.openPath("path", a.Path)
	if err != nil {
		return framesResult{}, err
	}
	res := framesResult{Path: a.Path, Frames: []frameOut{}}
	before, after := int64(5), int64(5)
	if a.Before != nil {
		before = int64(*a.Before)
	}
	if a.After != nil {
		after = int64(*a.After)
	}
	w := &frameWalker{a: a, lo: a.Around - before, hi: a.Around + after, limit: orDefault(a.Limit, 20),
		maxBytes: orDefault(a.MaxBytes, 2000), res: &res}
	v, err := validate.File(ctx, path, validate.Options{Dialect: orAuto(a.Dialect), Observer: w,
		Check: check.Options{Limits: check.DefaultLimits}})
	if err != nil {
		return framesResult{}, fileError(a.Path, err)
	}
	res.Dialect = v.Dialect
	return res, nil
}
