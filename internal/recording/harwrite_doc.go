package recording

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// The members of a HAR document as Chrome DevTools writes them for a
// WebSocket. Chrome's importer (and HAR 1.2) wants every one of them, even
// when the recording knows nothing of it: request and response headers
// (the recording keeps no handshake; none are invented), sizes (-1:
// unknown), cache, timings.

// harLogHead is the log without its entries, which are written after it
// one by one.
type harLogHead struct {
	Version string        `json:"version"`
	Creator harCreator    `json:"creator"`
	Pages   []struct{}    `json:"pages"`
	Wsconf  harLogPrivate `json:"_wsconform"`
}

type harCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// harLogPrivate is what the recording said of itself.
type harLogPrivate struct {
	Format  string `json:"format"`
	Dialect string `json:"dialect,omitempty"`
	// Recorder is the tool that wrote the recording (its header).
	Recorder string `json:"recorder,omitempty"`
	Session  string `json:"session,omitempty"`
}

type harEntryHead struct {
	StartedDateTime string          `json:"startedDateTime"`
	Time            float64         `json:"time"`
	Request         harRequest      `json:"request"`
	Response        harResponse     `json:"response"`
	Cache           struct{}        `json:"cache"`
	Timings         harTimings      `json:"timings"`
	ResourceType    string          `json:"_resourceType"`
	Wsconf          harEntryPrivate `json:"_wsconform"`
}

type harNameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type harRequest struct {
	Method      string         `json:"method"`
	URL         string         `json:"url"`
	HTTPVersion string         `json:"httpVersion"`
	Headers     []harNameValue `json:"headers"`
	QueryString []harNameValue `json:"queryString"`
	Cookies     []harNameValue `json:"cookies"`
	HeadersSize int            `json:"headersSize"`
	BodySize    int            `json:"bodySize"`
}

type harResponse struct {
	Status      int            `json:"status"`
	StatusText  string         `json:"statusText"`
	HTTPVersion string         `json:"httpVersion"`
	Headers     []harNameValue `json:"headers"`
	Cookies     []harNameValue `json:"cookies"`
	Content     harContent     `json:"content"`
	RedirectURL string         `json:"redirectURL"`
	HeadersSize int            `json:"headersSize"`
	BodySize    int            `json:"bodySize"`
}

type harContent struct {
	Size     int    `json:"size"`
	MimeType string `json:"mimeType"`
}

// harTimings puts a connection's lifetime in receive, so that time is the
// sum of the timings as HAR requires; the phases before it are unknown.
type harTimings struct {
	Blocked float64 `json:"blocked"`
	DNS     float64 `json:"dns"`
	SSL     float64 `json:"ssl"`
	Connect float64 `json:"connect"`
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
}

// harEntryPrivate is what a HAR has no member for: the recording's
// connection id and session ties (a HAR reader re-derives them with
// internal/sessionize), the unjudged reason, how the connection ended,
// and the control frames Chrome does not list.
type harEntryPrivate struct {
	Conn        string          `json:"conn"`
	Session     string          `json:"session,omitempty"`
	Parent      string          `json:"parent,omitempty"`
	Unjudged    string          `json:"unjudged,omitempty"`
	Close       *harEnd         `json:"close,omitempty"`
	CloseFrames []harCloseFrame `json:"closeFrames,omitempty"`
	Pings       int             `json:"pings,omitempty"`
	Pongs       int             `json:"pongs,omitempty"`
	// An HTTP exchange's (harhttp.go): its endpoint, Authorization scheme,
	// place among the messages (epoch seconds) and cut bodies.
	Endpoint    string   `json:"endpoint,omitempty"`
	Auth        string   `json:"auth,omitempty"`
	At          *harSecs `json:"at,omitempty"`
	RequestCut  bool     `json:"requestCut,omitempty"`
	ResponseCut bool     `json:"responseCut,omitempty"`
}

// write writes the document: the log's head, then each exported entry
// with its messages copied from the spool and the buffer.
func (ex *harExport) write(w *bufio.Writer) error {
	head, err := ex.marshal(ex.logHead())
	if err != nil {
		return err
	}
	w.WriteString("{\n\"log\": ")
	w.Write(bytes.TrimSuffix(head, []byte("}")))
	w.WriteString(",\n\"entries\": [")
	n := 0
	for _, c := range ex.order {
		if !ex.exported(c) {
			continue
		}
		if n++; n > 1 {
			w.WriteString(",")
		}
		if err := ex.writeEntry(w, c); err != nil {
			return err
		}
	}
	_, err = w.WriteString("\n]}}\n")
	return err
}

func (ex *harExport) logHead() harLogHead {
	name, ver := creator(ex.opts.Creator)
	return harLogHead{Version: "1.2", Creator: harCreator{Name: name, Version: ver}, Pages: []struct{}{},
		Wsconf: harLogPrivate{Format: Format, Dialect: ex.dialect, Recorder: ex.tool, Session: ex.opts.Session}}
}

// creator splits "wsconform 0.3.0" into name and version.
func creator(s string) (string, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "wsconform", ""
	}
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

func (ex *harExport) writeEntry(w *bufio.Writer, c *harOut) error {
	if c.http != nil {
		return ex.writeHTTPEntry(w, c)
	}
	head, err := ex.marshal(entryHead(c))
	if err != nil {
		return err
	}
	w.WriteString("\n")
	w.Write(bytes.TrimSuffix(head, []byte("}")))
	w.WriteString(",\"_webSocketMessages\":[")
	for _, ch := range c.chunks {
		if _, err := io.Copy(w, io.NewSectionReader(ex.spool, ch.off, ch.n)); err != nil {
			return fmt.Errorf("read back spooled messages: %w", err)
		}
	}
	w.Write(c.buf)
	_, err = w.WriteString("]}")
	return err
}

func entryHead(c *harOut) harEntryHead {
	life := 0.0
	if !c.opened.IsZero() && c.last.After(c.opened) {
		life = float64(c.last.Sub(c.opened).Microseconds()) / 1e3
	}
	u := wsURL(c.url)
	return harEntryHead{
		StartedDateTime: harISOTime(c.opened),
		Time:            life,
		Request: harRequest{Method: "GET", URL: u, HTTPVersion: "HTTP/1.1", Headers: []harNameValue{},
			QueryString: queryString(u), Cookies: []harNameValue{}, HeadersSize: -1, BodySize: 0},
		Response: harResponse{Status: 101, StatusText: "Switching Protocols", HTTPVersion: "HTTP/1.1",
			Headers: []harNameValue{}, Cookies: []harNameValue{}, Content: harContent{Size: 0, MimeType: ""},
			HeadersSize: -1, BodySize: 0},
		Timings:      harTimings{Blocked: -1, DNS: -1, SSL: -1, Connect: -1, Receive: life},
		ResourceType: "websocket",
		Wsconf: harEntryPrivate{Conn: c.id, Session: c.session, Parent: c.parent, Unjudged: c.unjudged,
			Close: c.end, CloseFrames: c.closeFrames, Pings: c.pings, Pongs: c.pongs},
	}
}

// marshal encodes v without HTML escaping and without the newline.
func (ex *harExport) marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode HAR: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
