package web

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/redact"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

// pageEvent is an event as the page's script reads it: short keys, since
// a busy session sends thousands a second. Kinds: o open, f frame,
// s session, c close, x finding, d dialect, n note.
type pageEvent struct {
	K       string `json:"k"`
	T       int64  `json:"t"` // ms since the epoch
	Conn    string `json:"c,omitempty"`
	Session string `json:"s,omitempty"`
	Parent  string `json:"pa,omitempty"`
	URL     string `json:"u,omitempty"`

	Dir     string `json:"d,omitempty"`
	Index   int64  `json:"i,omitempty"`
	Op      string `json:"o,omitempty"`
	Size    int    `json:"z,omitempty"`
	Type    string `json:"y,omitempty"`
	Seq     string `json:"q,omitempty"`
	Payload string `json:"p,omitempty"`
	Binary  bool   `json:"b,omitempty"`
	Cut     bool   `json:"cut,omitempty"`

	Code   int    `json:"cc,omitempty"`
	Reason string `json:"r,omitempty"`
	By     string `json:"by,omitempty"`
	Frames int64  `json:"fr,omitempty"`
	Err    bool   `json:"e,omitempty"`

	Dialect  string `json:"dl,omitempty"`
	SeqLabel string `json:"sl,omitempty"`

	// A finding: severity (0 info, 1 warning, 2 error), rule, message
	// (for the text filter) and its HTML, rendered by the report's
	// template; the member pointer, with the rule and the message type,
	// tells the page a repeat of a finding it showed (shown compactly).
	Sev  int    `json:"sv,omitempty"`
	Rule string `json:"ru,omitempty"`
	Msg  string `json:"m,omitempty"`
	Ptr  string `json:"pt,omitempty"`
	HTML string `json:"h,omitempty"`
}

var kindLetter = map[proxy.LiveKind]string{proxy.LiveOpen: "o", proxy.LiveFrame: "f", proxy.LiveSession: "s",
	proxy.LiveClose: "c", proxy.LiveFinding: "x", proxy.LiveDialect: "d", proxy.LiveNote: "n"}

// encoder turns items into SSE messages, redacting unless told not to.
type encoder struct {
	keep bool
	buf  bytes.Buffer
	html bytes.Buffer
	enc  *json.Encoder // on buf
	pe   pageEvent     // reused: a following page encodes thousands a second
}

// batch appends one SSE message holding a batch of events and the
// stats that follow it: "id: N\ndata: [event,…,stats]\n\n", N the id
// of its last event, so that a page resuming with Last-Event-ID resumes
// after the whole batch. One message per batch, not one per event: the
// browser dispatches one task and the page parses one array per batch
// instead of hundreds (measured alone, with the page still drawing every
// row, it changed nothing visible; the page's cost was its drawing).
func (e *encoder) batch(out *bytes.Buffer, items []item, stats *streamStats) error {
	if len(items) > 0 {
		out.WriteString("id: ")
		out.WriteString(strconv.FormatUint(items[len(items)-1].id, 10))
		out.WriteByte('\n')
	}
	out.WriteString("data: [")
	for i := range items {
		if err := e.json(out, e.convert(&items[i])); err != nil {
			return err
		}
		out.WriteByte(',')
	}
	if err := e.json(out, stats); err != nil {
		return err
	}
	out.WriteString("]\n\n")
	return nil
}

// data appends "data: JSON\n\n" without an id (hello, replays).
func (e *encoder) data(out *bytes.Buffer, v any) error {
	out.WriteString("data: ")
	if err := e.json(out, v); err != nil {
		return err
	}
	out.WriteString("\n\n")
	return nil
}

// json appends v to out as JSON on one line (JSON has no raw newline, so
// it is one SSE data line).
func (e *encoder) json(out *bytes.Buffer, v any) error {
	e.buf.Reset()
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
		e.enc.SetEscapeHTML(false) // the page sets it as text or parses it; never as markup
	}
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	out.Write(bytes.TrimRight(e.buf.Bytes(), "\n"))
	return nil
}

func (e *encoder) convert(it *item) *pageEvent {
	ev := &it.ev
	pe := &e.pe
	*pe = pageEvent{K: kindLetter[ev.Kind], T: ev.Time.UnixMilli(), Conn: ev.Conn, Session: ev.Session, Parent: ev.Parent,
		URL: e.url(ev.URL)}
	switch ev.Kind {
	case proxy.LiveFrame:
		pe.Dir, pe.Index, pe.Op, pe.Size, pe.Type, pe.Seq = string(ev.Dir), ev.Index, ev.Op.String(), ev.Size, ev.Type, ev.Seq
		pe.Cut, pe.Code = len(ev.Payload) < ev.Size, ev.CloseCode
		p := cutRune(ev.Payload, pe.Cut)
		switch {
		case ev.Op == wire.OpBinary || !utf8.Valid(p):
			b := ev.Payload
			if !e.keep {
				b, _, _ = redact.Binary(b)
			}
			pe.Payload, pe.Binary = base64.StdEncoding.EncodeToString(b), true
		case ev.Op == wire.OpText && !e.keep:
			p, _ = redact.JSON(p)
			pe.Payload = string(p)
		default: // a close reason, a ping's or a pong's text
			pe.Payload = e.text(string(p))
		}
	case proxy.LiveClose:
		pe.Code, pe.Reason, pe.By, pe.Frames = ev.CloseCode, e.text(ev.Reason), ev.By, ev.Frames
	case proxy.LiveDialect:
		pe.Dialect, pe.Reason = ev.Dialect, ev.Reason
		if ev.Dialect != "" {
			pe.SeqLabel = reports.SeqLabel(ev.Dialect)
		}
	case proxy.LiveNote:
		pe.Reason, pe.Err = e.text(ev.Reason), ev.IsErr
	case proxy.LiveFinding:
		f := it.finding
		if !e.keep {
			f.Finding = reports.RedactFinding(f.Finding)
		}
		pe.Index, pe.Sev, pe.Rule, pe.Msg, pe.Type, pe.Dir = f.Frame, int(f.Severity), f.Rule, f.Message, f.Type, string(f.Dir)
		pe.Ptr = f.Pointer
		e.html.Reset()
		if reports.FindingHTML(&e.html, f, "live", int(it.id)) == nil {
			pe.HTML = e.html.String()
		} // else the page shows the rule and message alone
	}
	return pe
}

// cutRune drops the last, incomplete UTF-8 sequence of a cut payload, so
// that a text frame cut mid-character is not taken for binary.
func cutRune(p []byte, cut bool) []byte {
	if !cut {
		return p
	}
	for i := 0; i < utf8.UTFMax && i < len(p); i++ {
		if utf8.Valid(p[:len(p)-i]) {
			return p[:len(p)-i]
		}
	}
	return p
}

func (e *encoder) url(u string) string {
	if e.keep || u == "" {
		return u
	}
	return redact.URL(u)
}

func (e *encoder) text(t string) string {
	if e.keep {
		return t
	}
	return redact.Text(t)
}
