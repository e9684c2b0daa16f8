package mcpserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/wsconform/wsconform/reports"
)

// liveArgs name a running wsproxy's web view.
type liveArgs struct {
	ProxyURL string `json:"proxy_url" jsonschema:"the address of a running 'wsproxy --web ADDR' view: http://127.0.0.1:PORT/"`
}

// liveFindingsArgs are live_findings' arguments.
type liveFindingsArgs struct {
	ProxyURL string `json:"proxy_url" jsonschema:"the address of a running 'wsproxy --web ADDR' view: http://127.0.0.1:PORT/"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"the cursor of the previous answer; absent: from the start"`
	Limit    int    `json:"limit,omitempty" jsonschema:"most findings to return, 1 to 500 (default 100); the cursor then points after the last returned"`
}

func (a *liveFindingsArgs) check() error {
	if _, err := decodeCursor(a.Cursor); err != nil {
		return err
	}
	return inRange("limit", a.Limit, 1, 500)
}

// liveSession is one session of the proxy.
type liveSession struct {
	ID          string               `json:"id"`
	Dialect     string               `json:"dialect"`
	Verdict     string               `json:"verdict"`
	Frames      int64                `json:"frames"`
	Counts      counts               `json:"counts"`
	Rules       []string             `json:"rules,omitempty" jsonschema:"the rules that fired in the session"`
	Connections []reports.Connection `json:"connections"`
}

// liveSessionsResult is what live_sessions returns.
type liveSessionsResult struct {
	Proxy    string        `json:"proxy"`
	Verdict  string        `json:"verdict" jsonschema:"the proxy's verdict so far"`
	Dialects []string      `json:"dialects"`
	Sessions []liveSession `json:"sessions"`
	Problems []Problem     `json:"problems" jsonschema:"the distinct problems of every session so far"`
	Notes    []string      `json:"notes,omitempty"`
}

// liveFinding is one finding with where the proxy saw it.
type liveFinding struct {
	Session      string   `json:"session"`
	Conn         string   `json:"connection,omitempty"`
	Frame        int64    `json:"frame"`
	Rule         string   `json:"rule"`
	Severity     string   `json:"severity"`
	Evidence     string   `json:"evidence,omitempty"`
	Requirements []string `json:"requirements,omitempty"`
	Spec         string   `json:"spec,omitempty"`
	Message      string   `json:"message"`
	Type         string   `json:"type,omitempty"`
	Pointer      string   `json:"pointer,omitempty"`
	Dir          string   `json:"dir,omitempty"`
	Expected     string   `json:"expected,omitempty"`
	Actual       string   `json:"actual,omitempty"`
}

// liveFindingsResult is what live_findings returns.
type liveFindingsResult struct {
	Proxy    string        `json:"proxy"`
	Cursor   string        `json:"cursor" jsonschema:"give it back as cursor to get only the findings after these"`
	Findings []liveFinding `json:"findings"`
	More     bool          `json:"more" jsonschema:"more findings are there already: call again at once with the cursor"`
	Notes    []string      `json:"notes,omitempty"`
}

// liveSessions reads the proxy's report snapshot and summarises it.
func (s *Server) liveSessions(ctx context.Context, a liveArgs) (liveSessionsResult, error) {
	rep, base, err := s.fetchReport(ctx, a.ProxyURL)
	if err != nil {
		return liveSessionsResult{}, err
	}
	out := liveSessionsResult{Proxy: base, Verdict: string(rep.Verdict), Dialects: rep.Dialects, Sessions: []liveSession{}, Notes: rep.Notes}
	var all []reports.Finding
	for _, ss := range rep.Sessions {
		ls := liveSession{ID: ss.ID, Dialect: ss.Dialect, Verdict: string(ss.Verdict), Frames: ss.FramesTotal, Connections: ss.Conns}
		if ls.Connections == nil {
			ls.Connections = []reports.Connection{}
		}
		for _, f := range ss.Findings {
			ls.Counts.add(f.Severity)
			ls.Rules = addRule(ls.Rules, f.Rule)
			f.Session = ss.ID
			all = append(all, f)
		}
		out.Sessions = append(out.Sessions, ls)
	}
	out.Problems, _ = problems(all, 50)
	return out, nil
}

// liveFindings returns the findings after the cursor, in session order
// then finding order (the proxy only appends to a session's findings).
func (s *Server) liveFindings(ctx context.Context, a liveFindingsArgs) (liveFindingsResult, error) {
	seen, err := decodeCursor(a.Cursor)
	if err != nil {
		return liveFindingsResult{}, err
	}
	rep, base, err := s.fetchReport(ctx, a.ProxyURL)
	if err != nil {
		return liveFindingsResult{}, err
	}
	limit := orDefault(a.Limit, 100)
	out := liveFindingsResult{Proxy: base, Findings: []liveFinding{}}
	next := map[string]int{}
	for _, ss := range rep.Sessions {
		from := seen[ss.ID]
		if from > len(ss.Findings) {
			out.Notes = append(out.Notes, fmt.Sprintf("session %s has fewer findings than the cursor counted: is this the proxy the cursor came from? its findings are given from the start", ss.ID))
			from = 0
		}
		i := from
		for ; i < len(ss.Findings) && len(out.Findings) < limit; i++ {
			f := ss.Findings[i]
			out.Findings = append(out.Findings, liveFinding{Session: ss.ID, Conn: f.Conn, Frame: f.Frame, Rule: f.Rule,
				Severity: f.Severity.String(), Evidence: string(f.Evidence), Requirements: f.Requires, Spec: f.Spec,
				Message: f.Message, Type: f.Type, Pointer: f.Pointer, Dir: string(f.Dir), Expected: f.Expected, Actual: f.Actual})
		}
		out.More = out.More || i < len(ss.Findings)
		if i > 0 {
			next[ss.ID] = i
		}
	}
	out.Cursor = encodeCursor(next)
	return out, nil
}

// addRule appends a rule id once.
func addRule(list []string, r string) []string {
	for _, x := range list {
		if x == r {
			return list
		}
	}
	return append(list, r)
}

// maxCursor bounds a cursor argument before it is decoded.
const maxCursor = 48 << 10

// cursorPrefix marks a cursor of this form, so that a later form can be
// told apart.
const cursorPrefix = "c1."

// encodeCursor writes how many findings of each session were returned.
func encodeCursor(seen map[string]int) string {
	b, _ := json.Marshal(seen) // a map of strings to ints always encodes
	return cursorPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor; "" is the start.
func decodeCursor(c string) (map[string]int, error) {
	if c == "" {
		return map[string]int{}, nil
	}
	bad := func(why string) error {
		return fmt.Errorf("argument \"cursor\": %s; give back the cursor of live_findings' previous answer unchanged, or none to start over", why)
	}
	if len(c) > maxCursor {
		return nil, bad("it is too long")
	}
	rest, ok := strings.CutPrefix(c, cursorPrefix)
	if !ok {
		return nil, bad("not a cursor of this server")
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return nil, bad("it is damaged")
	}
	var seen map[string]int
	if err := json.Unmarshal(b, &seen); err != nil || seen == nil {
		return nil, bad("it is damaged")
	}
	for _, n := range seen {
		if n < 0 {
			return nil, bad("it is damaged")
		}
	}
	return seen, nil
}

// noRedirects is the client of the live tools: a redirect could lead
// beyond loopback, past checkURL, so it is an error instead.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
	return errors.New("the web view redirected; give its own address")
}}

// fetchReport reads /report.json of a wsproxy web view. Every way it can
// fail says what was tried and what to check.
func (s *Server) fetchReport(ctx context.Context, raw string) (*reports.Report, string, error) {
	u, err := s.checkURL("proxy_url", raw, "http", "https")
	if err != nil {
		return nil, "", err
	}
	base := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}).String()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"report.json", nil)
	if err != nil {
		return nil, "", fmt.Errorf("argument \"proxy_url\": %w", err)
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		hint := ""
		if errors.Is(err, syscall.ECONNREFUSED) {
			hint = ": nothing listens there; is `wsproxy --web ADDR` running, and is this its web view's address (not the proxy's)?"
		}
		return nil, "", fmt.Errorf("cannot reach the wsproxy web view at %s: %w%s", base, err, hint)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return nil, "", fmt.Errorf("the wsproxy web view at %s answered %s to /report.json: %s", base, resp.Status, strings.TrimSpace(string(b)))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, s.cfg.MaxFileBytes+1))
	if err != nil {
		return nil, "", fmt.Errorf("read %sreport.json: %w", base, err)
	}
	if int64(len(body)) > s.cfg.MaxFileBytes {
		return nil, "", fmt.Errorf("%sreport.json is larger than the %d bytes this server reads (wsconform mcp --max-file-bytes)", base, s.cfg.MaxFileBytes)
	}
	rep, err := reports.ReadJSON(bytes.NewReader(body))
	if err != nil {
		return nil, "", fmt.Errorf("%s is not a wsproxy web view: its /report.json: %w", base, err)
	}
	return rep, base, nil
}
