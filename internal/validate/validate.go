package validate

import (
	"context"
	"errors"
	"fmt"
	"os"

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
	// By default a connection's recorded session decides, and a connection
	// without one (HAR files) is a session of its own, so that two
	// unrelated tabs are never compared with each other.
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
	// frame, close, dialect), before it is judged.
	Line(l recording.Line)
	// Bound is called when conn joins session (see Grouper.Bound).
	Bound(conn, session string)
	// Judged is called for every frame judged in session, with the
	// findings it gave (see Grouper.Observed).
	Judged(session string, f wire.Frame, fs []Finding)
}

// Finding is a check finding located in its session.
type Finding struct {
	check.Finding
	Session string `json:"session,omitempty"`
}

// Result is what one file held and what the checker found in it.
type Result struct {
	Path          string              `json:"path"`
	Source        recording.Source    `json:"source"`
	Dialect       string              `json:"dialect"`
	DialectReason string              `json:"dialect_reason"`
	Sessions      int                 `json:"sessions"`
	Conns         int                 `json:"connections"`
	Frames        int                 `json:"frames"`
	Problems      []recording.Problem `json:"problems,omitempty"`
	Findings      []Finding           `json:"findings"`
}

// Errors that say what kind of failure the caller should report.
var (
	// ErrUnreadable: the file could not be opened or read at all.
	ErrUnreadable = errors.New("unreadable input")
	// ErrNoDialect: auto-detection could not decide.
	ErrNoDialect = errors.New("dialect not detected")
)

// detectSample is how many data frames auto-detection looks at.
const detectSample = 64

// File judges one recording or HAR file.
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
	g := NewGrouper(d, opts)
	if o := opts.Observer; o != nil {
		o.Begin(name, reason)
		g.Observed, g.Bound = o.Judged, o.Bound
	}
	src, problems, err := recording.Scan(f, func(l recording.Line) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if opts.Observer != nil {
			opts.Observer.Line(l)
		}
		res.Findings = append(res.Findings, g.Line(l)...)
		return nil
	})
	if err == nil {
		res.Findings = append(res.Findings, g.End()...)
	}
	res.Source, res.Problems = src, problems
	res.Sessions, res.Conns, res.Frames = g.Sessions(), g.Conns(), g.Frames()
	if err != nil {
		if ctx.Err() != nil {
			return res, err
		}
		return res, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	return res, nil
}

// chooseDialect honours --dialect, then the recording header or a dialect
// line (a proxy that detected the dialect live), then the frames
// themselves.
func chooseDialect(path, want string) (string, string, error) {
	if want != "" && want != "auto" {
		if !dialect.Known(want) {
			return "", "", fmt.Errorf("unknown dialect %q (known: %v)", want, dialect.Names())
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
	)
	errEnough := errors.New("enough")
	_, problems, err := recording.Scan(f, func(l recording.Line) error {
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
	})
	if err != nil && !errors.Is(err, errEnough) {
		return "", "", fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	if dialect.Known(header) {
		return header, reason, nil
	}
	if len(sample) == 0 && len(problems) > 0 {
		return "", "", fmt.Errorf("%w: no readable frame (%d malformed lines, first: %s)", ErrUnreadable, len(problems), problems[0])
	}
	r, err := detect.Dialect(urls, sample)
	if err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrNoDialect, err)
	}
	return r.Dialect, "detected: " + r.Reason, nil
}
