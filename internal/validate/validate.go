package validate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/detect"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// Options choose the dialect and how connections form sessions.
type Options struct {
	// Dialect is a dialect name, or "" / "auto" to detect it.
	Dialect string
	// OneSession judges every connection of a file as one logical session.
	// By default a connection's recorded session decides; the connections
	// of a HAR file, which records none, are tied into sessions by the
	// dialect's sessionizer (internal/sessionize), the proxy's, so that a
	// page refresh is one session and two unrelated tabs are two.
	OneSession bool
	Check      check.Options
	// Observer, when set, sees what File reads and judges, for callers
	// that report more than findings (the HTML and JUnit reports).
	Observer Observer
}

// Observer sees a file as File judges it, from File's goroutine and in
// input order: every line read, every connection bound to its logical
// session, every frame judged.
type Observer interface {
	// Begin is called once, before the first line, with the dialect the
	// file is judged as and why.
	Begin(dialect, reason string)
	// Line is called for every readable line (header, open, session,
	// frame, close, dialect), before it is judged. For a HAR file these
	// are the lines the reader makes of it, with the session lines of the
	// sessionizer.
	Line(l recording.Line)
	// Unreadable is called for every part of the file that could not be
	// read (a recording.unreadable finding), in its place among the lines.
	Unreadable(f Finding)
	// Bound is called when conn joins session (see Grouper.Bound).
	Bound(conn, session string)
	// Judged is called for every frame judged in session, with the
	// findings it gave (see Grouper.Observed).
	Judged(session string, f wire.Frame, fs []Finding)
}

// HTTPObserver is what an Observer implements to see the HTTP exchanges
// of the protocol too (recording lines "http"), as they are judged.
type HTTPObserver interface {
	JudgedHTTP(session string, x wire.Exchange, fs []Finding)
}

// Finding is a check finding located in its session.
type Finding struct {
	check.Finding
	Session string `json:"session,omitempty"`
}

// Result is what one file held and what the checker found in it.
type Result struct {
	Path          string           `json:"path"`
	Source        recording.Source `json:"source"`
	Dialect       string           `json:"dialect"`
	DialectReason string           `json:"dialect_reason"`
	Sessions      int              `json:"sessions"`
	Conns         int              `json:"connections"`
	Frames        int              `json:"frames"`
	// Exchanges counts the HTTP exchanges of the protocol judged (hostd's
	// login and input, recording lines "http").
	Exchanges int `json:"http_exchanges,omitempty"`
	// Problems are the parts of the file that could not be read (the first
	// MaxUnreadable of them); each is a recording.unreadable finding too.
	Problems []recording.Problem `json:"problems,omitempty"`
	Findings []Finding           `json:"findings"`
	// Notes say what a reader should know that is not a finding: the
	// connections the recorder relayed but did not judge (not the
	// dialect's traffic), once per path with the reason.
	Notes []string `json:"notes,omitempty"`
}

// Errors that say what kind of failure the caller should report.
var (
	// ErrUnreadable: the file could not be opened or read at all.
	ErrUnreadable = errors.New("unreadable input")
	// ErrNoDialect: auto-detection could not decide.
	ErrNoDialect = errors.New("dialect not detected")
	// ErrNoFrames: the file holds no frame to judge (empty, only a header,
	// or nothing readable): a harness error, never a pass.
	ErrNoFrames = errors.New("no frame to judge")
)

// MaxUnreadable is how many unreadable parts of one file are reported one
// by one; the rest are counted in one more finding, so that a file of
// millions of broken lines does not fill memory with findings.
const MaxUnreadable = 1000

// detectSample is how many data frames auto-detection looks at.
const detectSample = 64

// File judges one recording or HAR file. A part of it that cannot be read
// is a recording.unreadable finding in its place, and reading goes on after
// it; a file without any frame is ErrNoFrames.
func File(ctx context.Context, path string, opts Options) (Result, error) {
	res := Result{Path: path, Findings: []Finding{}}
	name, reason, err := chooseDialect(path, opts.Dialect)
	if err != nil {
		return res, err
	}
	d, err := dialect.Get(name)
	if err != nil {
		return res, err
	}
	res.Dialect, res.DialectReason = name, reason
	f, err := os.Open(path)
	if err != nil {
		return res, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	defer f.Close()
	src := recording.Detect(f)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return res, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	pre := &prescan{}
	if src == recording.SourceJSONL {
		if pre, err = scanRecording(f, name); err != nil {
			return res, fmt.Errorf("%w: %w", ErrUnreadable, err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return res, fmt.Errorf("%w: %w", ErrUnreadable, err)
		}
	}
	g := NewGrouper(d, opts)
	if o := opts.Observer; o != nil {
		o.Begin(name, reason)
		g.Observed, g.Bound = o.Judged, o.Bound
		if ho, ok := o.(HTTPObserver); ok {
			g.ObservedHTTP = ho.JudgedHTTP
		}
	}
	judgePrepared := func(l recording.Line, p *Prepared) {
		if !pre.rewrite(&l) {
			return
		}
		if opts.Observer != nil {
			opts.Observer.Line(l)
		}
		res.Findings = append(res.Findings, g.LinePrepared(l, p)...)
	}
	judge := func(l recording.Line) { judgePrepared(l, nil) }
	// A JSONL file's frames are decoded and schema-checked on the cores
	// that parse its lines, ahead of the sessions that judge them in order.
	prepare := func(l recording.Line) any { return PrepareLine(d, l, opts.Check.Limits) }
	if src == recording.SourceHAR {
		prepare = nil
	}
	var hs *harSessions
	if src == recording.SourceHAR {
		hs = newHARSessions(name)
	}
	u := unreadable{res: &res, obs: opts.Observer}
	lines := 0
	src, err = recording.ScanEachPrepared(f, prepare, func(l recording.Line, p any) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		lines++
		if hs != nil {
			if l.Kind == recording.KindSession && l.Unjudged != "" {
				pre.markUnjudged(l.Conn, l.URL, l.Unjudged) // a HAR file's mark comes before the connection's lines
				return nil
			}
			hs.line(l, judge)
		} else {
			pl, _ := p.(*Prepared)
			judgePrepared(l, pl)
		}
		return nil
	}, u.add)
	if err == nil {
		res.Findings = append(res.Findings, g.End()...)
		u.end()
	}
	res.Source = src
	res.Sessions, res.Conns, res.Frames, res.Exchanges = g.Sessions(), g.Conns(), g.Frames(), g.Exchanges()
	res.Notes = pre.notes(name)
	if err != nil {
		if ctx.Err() != nil {
			return res, err
		}
		return res, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	if res.Frames == 0 {
		return res, noFrames(src, lines, u)
	}
	return res, nil
}

// noFrames says in one line why a file had nothing to judge.
func noFrames(src recording.Source, lines int, u unreadable) error {
	what := "a recording"
	if src == recording.SourceHAR {
		what = "a HAR file"
	}
	switch {
	case u.n > 0:
		return fmt.Errorf("%w: %s with no readable frame (%d unreadable; the first, %s)", ErrNoFrames, what, u.n, u.first)
	case lines == 0 && src == recording.SourceHAR:
		return fmt.Errorf("%w: a HAR file without WebSocket messages (no entry has _webSocketMessages)", ErrNoFrames)
	case lines == 0:
		return fmt.Errorf("%w: the recording is empty", ErrNoFrames)
	}
	return fmt.Errorf("%w: %s with %d lines and no frame", ErrNoFrames, what, lines)
}

// unreadable turns the parts of a file that could not be read into
// recording.unreadable findings, the first MaxUnreadable one by one.
type unreadable struct {
	res   *Result
	obs   Observer
	n     int
	first recording.Problem
	last  recording.Problem
}

func (u *unreadable) add(p recording.Problem) {
	u.n++
	if u.n == 1 {
		u.first = p
	}
	u.last = p
	if u.n > MaxUnreadable {
		return
	}
	u.res.Problems = append(u.res.Problems, p)
	u.report(Finding{Finding: check.Unreadable(p.Where(), p.Err)})
}

// end reports the unreadable parts beyond MaxUnreadable as one finding.
func (u *unreadable) end() {
	if more := u.n - MaxUnreadable; more > 0 {
		u.report(Finding{Finding: check.Unreadable(fmt.Sprintf("%d more parts of the file (the last: %s)", more, u.last.Where()),
			"each as the ones reported above: "+u.last.Err)})
	}
}

func (u *unreadable) report(f Finding) {
	u.res.Findings = append(u.res.Findings, f)
	if u.obs != nil {
		u.obs.Unreadable(f)
	}
}

// chooseDialect honours --dialect, then the recording header or a dialect
// line (a proxy that detected the dialect live), then the frames
// themselves.
func chooseDialect(path, want string) (string, string, error) {
	if want != "" && want != "auto" {
		if !dialect.Known(want) {
			return "", "", fmt.Errorf("unknown dialect %q (known: %s)", want, strings.Join(dialect.Names(), ", "))
		}
		return want, "--dialect " + want, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	defer f.Close()
	var (
		header string
		reason string
		urls   []string
		sample []wire.Frame
		frames int
	)
	errEnough := errors.New("enough")
	var (
		problems int
		first    recording.Problem
	)
	_, err = recording.ScanEach(f, func(l recording.Line) error {
		switch l.Kind {
		case recording.KindHeader:
			header = l.Dialect
			if dialect.Known(header) {
				reason = "the recording header names " + header
				return errEnough
			}
		case recording.KindDialect:
			if dialect.Known(l.Dialect) {
				header = l.Dialect
				reason = "the recording names " + header + " (detected live: " + l.Reason + ")"
				return errEnough
			}
		case recording.KindOpen:
			urls = append(urls, l.URL)
		case recording.KindFrame:
			frames++
			// Data frames only: control frames say nothing of the dialect,
			// and the proxy writes its dialect line within the first 64
			// data frames.
			if fr, err := l.Frame(); err == nil && (fr.Op == wire.OpText || fr.Op == wire.OpBinary) {
				sample = append(sample, fr)
			}
		}
		if len(sample) >= detectSample {
			return errEnough
		}
		return nil
	}, func(p recording.Problem) {
		if problems++; problems == 1 {
			first = p
		}
	})
	if err != nil && !errors.Is(err, errEnough) {
		return "", "", fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	if dialect.Known(header) {
		return header, reason, nil
	}
	if strings.HasPrefix(header, dialect.ImportedPrefix) {
		return "", "", fmt.Errorf("%w: the recording header names %s, a protocol read from an AsyncAPI document: give that document with --protocol FILE", ErrNoDialect, header)
	}
	if frames == 0 {
		if problems > 0 {
			return "", "", fmt.Errorf("%w: no readable frame (%d unreadable; the first, %s)", ErrNoFrames, problems, first)
		}
		return "", "", fmt.Errorf("%w: the file holds no frame to detect the dialect from", ErrNoFrames)
	}
	r, err := detect.Dialect(urls, sample)
	if err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrNoDialect, err)
	}
	return r.Dialect, "detected: " + r.Reason, nil
}
