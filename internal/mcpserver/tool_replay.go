package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/replay"
	"github.com/wsconform/wsconform/reports"
)

// replayArgs are replay's arguments.
type replayArgs struct {
	Path            string            `json:"path" jsonschema:"path of the recording or HAR file to replay, under the server's roots"`
	Against         string            `json:"against" jsonschema:"the server to replay against: a ws:// URL on loopback (its scheme and host replace the recorded ones)"`
	Dialect         string            `json:"dialect,omitempty" jsonschema:"the dialect; absent or auto: from the recording"`
	AnswerTimeoutMS int               `json:"answer_timeout_ms,omitempty" jsonschema:"longest wait in ms for each answer the recorded client had before its next frame, 100 to 60000 (default 10000); then it is missing"`
	Ignore          []string          `json:"ignore,omitempty" jsonschema:"members left out of the diff: /data/ts, ts (any depth), TYPE:/pointer"`
	Query           map[string]string `json:"query,omitempty" jsonschema:"query parameters replacing recorded (often redacted) values, e.g. {\"token\": \"...\"}"`
	MaxRows         int               `json:"max_rows,omitempty" jsonschema:"differing rows listed per connection, 1 to 200 (default 20)"`
}

func (a *replayArgs) check() error {
	if err := checkDialect(a.Dialect, "auto"); err != nil {
		return err
	}
	if err := inRange("answer_timeout_ms", a.AnswerTimeoutMS, 100, 60000); err != nil {
		return err
	}
	if len(a.Ignore) > 50 || len(a.Query) > 50 {
		return fmt.Errorf("arguments \"ignore\" and \"query\": at most 50 each")
	}
	if _, err := replay.VolatileMasks("", a.Ignore); err != nil {
		return fmt.Errorf("argument \"ignore\": %w", err)
	}
	return inRange("max_rows", a.MaxRows, 1, 200)
}

// replayRow is one differing row of a connection's diff.
type replayRow struct {
	Op            string               `json:"op" jsonschema:"missing (recorded, not answered now), extra (answered now, not recorded) or changed"`
	Type          string               `json:"type,omitempty"`
	Seq           string               `json:"seq,omitempty"`
	RecordedFrame int64                `json:"recorded_frame,omitempty"`
	ReplayedFrame int64                `json:"replayed_frame,omitempty"`
	Members       []reports.MemberDiff `json:"members,omitempty"`
}

// replayConn is one recorded connection and its replay.
type replayConn struct {
	Conn     string         `json:"connection"`
	Replayed string         `json:"replayed,omitempty"`
	URL      string         `json:"url"`
	Matched  bool           `json:"matched"`
	Counts   map[string]int `json:"counts" jsonschema:"rows per operation: same, changed, missing, extra, moved, late"`
	Diffs    []replayRow    `json:"diffs,omitempty"`
	Error    string         `json:"error,omitempty"`
}

// replayResult is what replay returns.
type replayResult struct {
	Against     string       `json:"against"`
	Dialect     string       `json:"dialect"`
	Verdict     string       `json:"verdict" jsonschema:"passed (every connection matches and no error finding), non-strict or failed"`
	Matched     int          `json:"matched_connections"`
	Connections []replayConn `json:"connections"`
	Problems    []Problem    `json:"problems" jsonschema:"distinct problems the check engine found in the new traffic"`
	Notes       []string     `json:"notes,omitempty"`
}

// replay plays a recording as `wsconform replay` does and summarises the
// diff.
func (s *Server) replay(ctx context.Context, a replayArgs) (replayResult, error) {
	path, err := s.openPath("path", a.Path)
	if err != nil {
		return replayResult{}, err
	}
	if _, err := s.checkURL("against", a.Against, "ws", "wss"); err != nil {
		return replayResult{}, err
	}
	if _, err := replay.HTTPBase(a.Against); err != nil {
		return replayResult{}, fmt.Errorf("argument \"against\": %w", err)
	}
	plan, err := replay.Load(path, orAuto(a.Dialect))
	if err != nil {
		if errors.Is(err, replay.ErrNoFrames) {
			return replayResult{}, fmt.Errorf("%s: nothing to replay: it holds no data frame (or is not a recording)", a.Path)
		}
		return replayResult{}, fmt.Errorf("%s: %w", a.Path, err)
	}
	opts := replay.Options{Against: a.Against, Pace: replay.PaceFast, Ignore: a.Ignore, Header: http.Header{}, Query: map[string]string{},
		AnswerTimeout: time.Duration(orDefault(a.AnswerTimeoutMS, int(replay.DefaultAnswerTimeout/time.Millisecond))) * time.Millisecond,
		Limits:        reports.DefaultWireLimits, Check: check.Options{Limits: check.DefaultLimits}}
	for k, v := range a.Query {
		opts.Query[k] = v
	}
	if missing := replay.RedactedQuery(plan, opts.Query); len(missing) > 0 {
		var names []string
		for k := range missing {
			names = append(names, k)
		}
		sort.Strings(names)
		return replayResult{}, fmt.Errorf("the recording redacted the query value of %s: give it in the query argument ({%q: \"VALUE\"})",
			strings.Join(names, ", "), names[0])
	}
	started := time.Now()
	res, err := replay.Run(ctx, plan, opts)
	if err != nil {
		return replayResult{}, fmt.Errorf("replay against %s: %w", a.Against, err)
	}
	rep := reports.New(reports.KindReplay, s.cfg.Version, started)
	rep.Finished = time.Now()
	rep.Sessions, rep.Replays, rep.Notes = res.Sessions, res.Diffs, res.Notes
	for _, pr := range plan.Problems {
		rep.Notes = append(rep.Notes, "skipped an unreadable part of the recording: "+pr.String())
	}
	rep.Tally()
	rep = reports.Redact(rep)
	out := replayResult{Against: a.Against, Dialect: plan.Dialect, Verdict: string(rep.Verdict), Connections: []replayConn{}, Notes: rep.Notes}
	maxRows := orDefault(a.MaxRows, 20)
	for _, d := range rep.Replays {
		c := replayConn{Conn: d.Conn, Replayed: d.Replayed, URL: d.URL, Matched: d.Matched, Counts: d.Counts(), Error: d.Error}
		if d.Matched {
			out.Matched++
		}
		for _, r := range d.Rows {
			if !r.Differs() || len(c.Diffs) >= maxRows {
				continue
			}
			c.Diffs = append(c.Diffs, rowOf(r))
		}
		out.Connections = append(out.Connections, c)
	}
	var all []reports.Finding
	for _, ss := range rep.Sessions {
		for _, f := range ss.Findings {
			f.Session = ss.ID
			all = append(all, f)
		}
	}
	out.Problems, _ = problems(all, 50)
	return out, nil
}

// rowOf is a diff row with the frame it is about.
func rowOf(r reports.ReplayRow) replayRow {
	out := replayRow{Op: r.Op, Members: r.Members}
	f := r.Recorded
	if f == nil {
		f = r.Replayed
	}
	if f != nil {
		out.Type, out.Seq = f.Type, f.Seq
	}
	if r.Recorded != nil {
		out.RecordedFrame = r.Recorded.Index
	}
	if r.Replayed != nil {
		out.ReplayedFrame = r.Replayed.Index
	}
	return out
}
