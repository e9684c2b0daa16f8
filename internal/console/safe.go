package console

import (
	"fmt"
	"io"

	"github.com/wsconform/wsconform/internal/redact"
)

// safe wraps a Printer method's arguments so that each one, formatted with
// its own verb, reaches the writer redacted and escaped. Wrapping every
// argument, not just strings, leaves no type behind: an error, a
// fmt.Stringer or a struct with a peer's text in it is made safe alike,
// and a number comes out as it was.
func (p *Printer) safe(args []any) []any {
	if len(args) == 0 {
		return nil
	}
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = safeArg{p: p, v: a}
	}
	return out
}

// safeArg is one argument of a Printer method (see safe).
type safeArg struct {
	p *Printer
	v any
}

// Format formats the argument with the directive it was given (flags,
// width and precision included), then redacts and escapes the result.
func (a safeArg) Format(f fmt.State, verb rune) {
	s := fmt.Sprintf(fmt.FormatString(f, verb), a.v)
	_, _ = io.WriteString(f, Escape(a.p.redact(s)))
}

// redact redacts one formatted argument as a report's texts are
// (credential name=value pairs, header lines, JSON members, URL
// passwords) and replaces the secrets Secrets told of. It learns nothing
// from the argument itself: what a peer sends must not grow the printer's
// memory over a long proxy session.
func (p *Printer) redact(s string) string {
	if s == "" {
		return s
	}
	p.mu.Lock()
	s = p.scrub.Literals(s)
	p.mu.Unlock()
	return redact.Text(s)
}

// Secrets tells the printer what is secret before it is printed: it
// redacts each text as a report does (a command line with --header
// 'Authorization: Bearer …' and --var host_token=…, a URL with a token
// query) and remembers the values found, so that the console redacts them
// wherever else they show up (a re-run command, a server echoing the
// token, an error quoting it), as the reports do.
func (p *Printer) Secrets(texts ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range texts {
		_ = p.scrub.Text(t)
	}
}
