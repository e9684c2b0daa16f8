package console

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/redact"
	"github.com/wsconform/wsconform/reports"
)

// Printer writes human output to one writer. What it prints is safe for
// a terminal and free of credentials whoever supplied it: every argument
// of its methods is redacted (package redact, as the reports are) and
// escaped (Escape), while its format strings, the tool's own words, keep
// their newlines and its colours. A Printer is safe for concurrent use as
// far as its own state goes; writers that must not interleave are
// serialised by Shared.
type Printer struct {
	w                        io.Writer
	red, yellow, cyan, green *color.Color
	bold, dim                *color.Color

	mu    sync.Mutex
	scrub *redact.Scrubber // the secrets Secrets told of; guarded by mu
}

// ColorModes accepted by New.
const (
	ColorAuto   = "auto"
	ColorAlways = "always"
	ColorNever  = "never"
)

// UseColor decides whether output to w is colored: never when NO_COLOR is
// set (https://no-color.org) or TERM is dumb, always or never when asked,
// otherwise only when w is a terminal.
func UseColor(w io.Writer, mode string) bool {
	switch mode {
	case ColorAlways:
		return true
	case ColorNever:
		return false
	}
	if _, set := os.LookupEnv("NO_COLOR"); set || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// NewColor returns a color that is on or off whatever fatih/color guessed
// from the process's stdout: the decision is UseColor's, per writer.
func NewColor(on bool, attrs ...color.Attribute) *color.Color {
	c := color.New(attrs...)
	if on {
		c.EnableColor()
	} else {
		c.DisableColor()
	}
	return c
}

// New returns a Printer for w; mode is one of the Color constants.
func New(w io.Writer, mode string) *Printer {
	on := UseColor(w, mode)
	mk := func(attrs ...color.Attribute) *color.Color { return NewColor(on, attrs...) }
	return &Printer{w: w,
		red: mk(color.FgRed, color.Bold), yellow: mk(color.FgYellow, color.Bold), cyan: mk(color.FgCyan),
		green: mk(color.FgGreen, color.Bold), bold: mk(color.Bold), dim: mk(color.Faint),
		scrub: redact.NewScrubber()}
}

// Printf writes plain text.
func (p *Printer) Printf(format string, args ...any) { fmt.Fprintf(p.w, format, p.safe(args)...) }

// Bold writes emphasized text.
func (p *Printer) Bold(format string, args ...any) { p.Color(p.bold, format, args...) }

// Dim writes secondary text.
func (p *Printer) Dim(format string, args ...any) { p.Color(p.dim, format, args...) }

// Pass writes a success verdict.
func (p *Printer) Pass(format string, args ...any) { p.Color(p.green, format, args...) }

// Fail writes a failure verdict.
func (p *Printer) Fail(format string, args ...any) { p.Color(p.red, format, args...) }

// Info writes an observation: what the spec leaves open, reported and
// never judged.
func (p *Printer) Info(format string, args ...any) { p.Color(p.cyan, format, args...) }

// Warn writes a non-strict verdict.
func (p *Printer) Warn(format string, args ...any) { p.Color(p.yellow, format, args...) }

// Color writes text in c (made by NewColor), its arguments redacted and
// escaped like Printf's: for a console with colours of its own.
func (p *Printer) Color(c *color.Color, format string, args ...any) {
	c.Fprintf(p.w, format, p.safe(args)...)
}

// Severity writes a severity label padded to a column, in its color.
func (p *Printer) Severity(s check.Severity) {
	switch s {
	case check.Error:
		p.Color(p.red, "✗ %-7s", s)
	case check.Warning:
		p.Color(p.yellow, "! %-7s", s)
	default:
		p.Color(p.cyan, "i %-7s", s)
	}
}

// Evidence prints what a finding rests on: its kind of evidence and the
// spec's words, cut to one line.
func (p *Printer) Evidence(e check.Evidence, quote, indent string) {
	if e == "" {
		return
	}
	p.Dim("%sevidence: ", indent)
	p.Printf("%s", e)
	if quote != "" {
		const max = 160
		q := strings.Join(strings.Fields(quote), " ")
		if len([]rune(q)) > max {
			q = string([]rune(q)[:max]) + "…"
		}
		p.Dim(" — %s", q)
	}
	p.Printf("\n")
}

// Finding prints one finding; where names its session when there are
// several.
// Its texts are redacted as a report's are (a credential member's Actual
// included), whatever the caller did.
func (p *Printer) Finding(f check.Finding, where string) {
	f = reports.RedactFinding(f)
	p.Printf("  ")
	p.Severity(f.Severity)
	p.Bold(" %s", f.Rule)
	p.Dim("  %s\n", locate(f, where))
	const indent = "            "
	p.Printf("%s%s\n", indent, f.Message)
	if f.Pointer != "" {
		p.Dim("%sat:       ", indent)
		p.Printf("%s\n", f.Pointer)
	}
	p.Evidence(f.Evidence, f.Quote, indent)
	if f.Expected != "" || f.Actual != "" {
		p.Dim("%sexpected: ", indent)
		p.Printf("%s\n", f.Expected)
		p.Dim("%sactual:   ", indent)
		p.Printf("%s\n", f.Actual)
	}
	if f.Diff != "" {
		for i, line := range strings.Split(f.Diff, "\n") {
			label := "          "
			if i == 0 {
				label = "diff:     "
			}
			p.Dim("%s%s", indent, label)
			switch {
			case strings.HasPrefix(line, "- "):
				p.Color(p.red, "%s\n", line)
			case strings.HasPrefix(line, "+ "):
				p.Color(p.green, "%s\n", line)
			default:
				p.Printf("%s\n", line)
			}
		}
	}
	if f.Spec != "" {
		p.Dim("%sspec:     %s\n", indent, f.Spec)
	}
}

func locate(f check.Finding, where string) string {
	parts := []string{fmt.Sprintf("frame %d", f.Frame)}
	if f.HTTP {
		parts[0] = fmt.Sprintf("http exchange %d", f.Frame)
	}
	if where != "" {
		parts = append(parts, "session "+where)
	}
	conn := f.Conn
	if f.Dir != "" {
		conn += " " + f.Dir.Arrow()
	}
	if f.Type != "" {
		conn += " " + f.Type
	}
	if strings.TrimSpace(conn) != "" {
		parts = append(parts, strings.TrimSpace(conn))
	}
	return strings.Join(parts, " · ")
}

// Counts tallies findings by severity.
type Counts struct{ Errors, Warnings, Infos int }

// Add counts one finding.
func (c *Counts) Add(s check.Severity) {
	switch s {
	case check.Error:
		c.Errors++
	case check.Warning:
		c.Warnings++
	default:
		c.Infos++
	}
}

func (c Counts) String() string {
	return fmt.Sprintf("%s, %s, %s", plural(c.Errors, "error"), plural(c.Warnings, "warning"), plural(c.Infos, "info"))
}

func plural(n int, word string) string {
	if n == 1 || word == "info" {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
