package recording

import (
	"bufio"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// HTTP exchanges in a HAR file. WriteHAR exports a recording's http lines
// as ordinary HAR entries (request with postData, response with content,
// _resourceType "fetch"), so DevTools shows them beside the sockets, and
// keeps in the entry's _wsconform what HAR has no member for: the
// exchange's id, session and endpoint, the Authorization scheme (the
// header itself is not recorded), cut bodies, and the exact place among
// the messages (at, epoch seconds: startedDateTime has milliseconds only).
//
// The reader turns every entry without _webSocketMessages whose method
// carries a body (not GET, HEAD or OPTIONS) into an http line, placed
// among the messages at its end (startedDateTime + time, or _wsconform.at),
// as the proxy records an exchange once it is answered. Which of them
// belong to the protocol is the dialect's to say (dialect.HTTPEndpoint):
// the checker judges those and ignores the rest. Bodies over
// MaxHTTPBodyBytes are dropped and marked cut; only the Authorization
// header's scheme is kept.

// MaxHTTPBodyBytes is the largest body of an HTTP exchange a HAR reader
// keeps (wsproxy keeps the same: proxy.MaxHTTPBody).
const MaxHTTPBodyBytes = 1 << 20

// maxHARExchanges bounds the exchanges a HAR reader holds for the merge.
const maxHARExchanges = 100000

// harHTTP is an exchange the index pass found, with its place in time.
type harHTTP struct {
	entry int
	at    float64
	line  Line
}

type harHTTPEntry struct {
	StartedDateTime string          `json:"startedDateTime"`
	Time            float64         `json:"time"`
	Request         harHTTPRequest  `json:"request"`
	Response        harHTTPResponse `json:"response"`
	Cache           struct{}        `json:"cache"`
	Timings         harTimings      `json:"timings"`
	ResourceType    string          `json:"_resourceType"`
	Wsconf          harEntryPrivate `json:"_wsconform"`
}

type harHTTPRequest struct {
	Method      string         `json:"method"`
	URL         string         `json:"url"`
	HTTPVersion string         `json:"httpVersion"`
	Headers     []harNameValue `json:"headers"`
	QueryString []harNameValue `json:"queryString"`
	Cookies     []harNameValue `json:"cookies"`
	HeadersSize int            `json:"headersSize"`
	BodySize    int            `json:"bodySize"`
	PostData    *harPostData   `json:"postData,omitempty"`
}

type harPostData struct {
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
	// Encoding is ours: "base64" for a body that is not UTF-8.
	Encoding string `json:"_encoding,omitempty"`
}

type harHTTPResponse struct {
	Status      int            `json:"status"`
	StatusText  string         `json:"statusText"`
	HTTPVersion string         `json:"httpVersion"`
	Headers     []harNameValue `json:"headers"`
	Cookies     []harNameValue `json:"cookies"`
	Content     harBody        `json:"content"`
	RedirectURL string         `json:"redirectURL"`
	HeadersSize int            `json:"headersSize"`
	BodySize    int            `json:"bodySize"`
}

// harBody is a response's content: text, base64 when Encoding says so.
type harBody struct {
	Size     int    `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Encoding string `json:"encoding,omitempty"`
}

// httpEntry renders an http line as a HAR entry; origin is the scheme and
// host of the recording's sockets (a line has only the path).
func httpEntry(c *harOut, origin string) harHTTPEntry {
	l := c.http.line
	x, _ := l.Exchange() // ScanEach only hands on readable lines
	started := l.Time
	dur := c.http.at - epochSeconds(started)
	if dur < 0 || started.IsZero() {
		dur = 0
	}
	ms := dur * 1000
	req := harHTTPRequest{Method: x.Method, URL: origin + x.Path, HTTPVersion: "HTTP/1.1", Headers: []harNameValue{},
		QueryString: []harNameValue{}, Cookies: []harNameValue{}, HeadersSize: -1, BodySize: len(x.Request)}
	if x.Auth != "" {
		req.Headers = append(req.Headers, harNameValue{Name: "Authorization", Value: authLabel(x.Auth) + " (not recorded)"})
	}
	if len(x.Request) > 0 {
		pd := &harPostData{MimeType: "application/json", Text: string(x.Request)}
		if !utf8.Valid(x.Request) {
			pd.Text, pd.Encoding = base64.StdEncoding.EncodeToString(x.Request), "base64"
		}
		req.PostData = pd
	}
	resp := harHTTPResponse{Status: x.Status, StatusText: http.StatusText(x.Status), HTTPVersion: "HTTP/1.1", Headers: []harNameValue{},
		Cookies: []harNameValue{}, HeadersSize: -1, BodySize: len(x.Response), Content: harBody{Size: len(x.Response), MimeType: "application/json"}}
	if utf8.Valid(x.Response) {
		resp.Content.Text = string(x.Response)
	} else {
		resp.Content.Text, resp.Content.Encoding = base64.StdEncoding.EncodeToString(x.Response), "base64"
	}
	at := harSecs(c.http.at)
	return harHTTPEntry{StartedDateTime: harISOTime(started), Time: ms, Request: req, Response: resp,
		Timings: harTimings{Blocked: -1, DNS: -1, SSL: -1, Connect: -1, Wait: ms}, ResourceType: "fetch",
		Wsconf: harEntryPrivate{Conn: c.id, Session: c.session, Endpoint: x.Endpoint, Auth: x.Auth, At: &at,
			RequestCut: x.RequestCut, ResponseCut: x.ResponseCut}}
}

// authLabel is a scheme as headers write it ("Bearer").
func authLabel(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// httpOrigin is the http(s) origin of a socket URL, "" when it has none.
func httpOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	switch u.Scheme {
	case "wss", "https":
		return "https://" + u.Host
	}
	return "http://" + u.Host
}

func (ex *harExport) writeHTTPEntry(w *bufio.Writer, c *harOut) error {
	origin := ex.origin
	if origin == "" {
		origin = "http://localhost"
	}
	b, err := ex.marshal(httpEntry(c, origin))
	if err != nil {
		return err
	}
	w.WriteString("\n")
	_, err = w.Write(b)
	return err
}

// harEntryHTTP is what the index pass reads of an entry's request and
// response for an exchange.
type harEntryHTTP struct {
	method, path, auth string
	status             int
	dur                float64 // the entry's time, ms
	req, resp          []byte
	reqCut, respCut    bool
}

type harReqIn struct {
	URL      string         `json:"url"`
	Method   string         `json:"method"`
	Headers  []harNameValue `json:"headers"`
	PostData *harPostData   `json:"postData"`
}

type harRespIn struct {
	Status  int     `json:"status"`
	Content harBody `json:"content"`
}

// takeRequest keeps what an exchange needs of a request.
func (h *harEntryHTTP) takeRequest(r harReqIn) {
	h.method = strings.ToUpper(r.Method)
	if u, err := url.Parse(r.URL); err == nil {
		h.path = u.Path
	}
	for _, hd := range r.Headers {
		if strings.EqualFold(hd.Name, "Authorization") {
			scheme, _, _ := strings.Cut(strings.TrimSpace(hd.Value), " ")
			h.auth = strings.ToLower(scheme)
		}
	}
	if r.PostData != nil {
		h.req, h.reqCut = harBodyBytes(r.PostData.Text, r.PostData.Encoding)
	}
}

func (h *harEntryHTTP) takeResponse(r harRespIn) {
	h.status = r.Status
	h.resp, h.respCut = harBodyBytes(r.Content.Text, r.Content.Encoding)
}

// harBodyBytes decodes a HAR body; one over the limit (or not decodable)
// is dropped and marked cut.
func harBodyBytes(text, encoding string) ([]byte, bool) {
	b := []byte(text)
	if encoding == "base64" {
		var err error
		if b, err = base64.StdEncoding.DecodeString(text); err != nil {
			return nil, true
		}
	}
	if len(b) > MaxHTTPBodyBytes {
		return nil, true
	}
	return b, false
}

// carriesBody says whether a method is one whose requests the reader
// turns into exchanges.
func carriesBody(method string) bool {
	switch method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return false
	}
	return true
}

// exchange is the http line of an entry, if it is one.
func (ix *harIndex) exchange(started time.Time, priv *harEntryPrivate) {
	h := ix.http
	if !carriesBody(h.method) || !strings.HasPrefix(h.path, "/") || len(ix.https) >= maxHARExchanges {
		return
	}
	at := epochSeconds(started) + h.dur/1000
	l := Line{Kind: KindHTTP, Conn: harConnID(ix.entry), Time: started.UTC(), Method: h.method, Path: h.path,
		Status: h.status, Auth: h.auth, Millis: h.dur, RequestCut: h.reqCut, ResponseCut: h.respCut}
	if h.status < 100 || h.status > 999 {
		l.Status = 0 // DevTools writes 0 (or -1) for a request that got no answer
	}
	if priv != nil {
		l.Endpoint = priv.Endpoint
		if priv.Auth != "" {
			l.Auth = priv.Auth
		}
		if priv.At != nil {
			at = float64(*priv.At)
		}
		l.RequestCut, l.ResponseCut = l.RequestCut || priv.RequestCut, l.ResponseCut || priv.ResponseCut
	}
	l.Request, l.RequestBase64 = bodyText(h.req)
	l.Response, l.ResponseBase64 = bodyText(h.resp)
	ix.https = append(ix.https, harHTTP{entry: ix.entry, at: at, line: l})
}

// emitHTTP hands on the exchanges placed before a message at time t of
// entry (all of them when t is +Inf), numbering them with the frames.
func emitHTTP(https []harHTTP, next *int, t float64, entry int, index *int64, line func(Line) error) error {
	for *next < len(https) {
		x := https[*next]
		if x.at > t || x.at == t && x.entry > entry {
			return nil
		}
		*next++
		*index++
		l := x.line
		l.Index = *index
		if err := line(l); err != nil {
			return err
		}
	}
	return nil
}
