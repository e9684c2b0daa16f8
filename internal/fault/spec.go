package fault

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// Kind names one sort of fault.
type Kind string

// The fault kinds; see the package documentation for their meaning.
const (
	DropAfter Kind = "drop-after"
	Close     Kind = "close"
	Delay     Kind = "delay"
	Jitter    Kind = "jitter"
	Duplicate Kind = "duplicate"
	Reorder   Kind = "reorder"
	Pause     Kind = "pause"
)

// Kinds lists every kind with a one-line summary and its syntax, for help
// texts.
var Kinds = []struct {
	Kind    Kind
	Syntax  string
	Summary string
}{
	{DropAfter, "drop-after=N", "drop the TCP connection (no close frame) after N messages"},
	{Close, "close=CODE[@N]", "close with CODE after N messages (default 0)"},
	{Delay, "delay=DUR", "hold every message DUR (e.g. 50ms)"},
	{Jitter, "jitter=DUR", "hold every message a random 0..DUR (seeded)"},
	{Duplicate, "duplicate=N|TYPE", "send the Nth message, or the first of TYPE, twice"},
	{Reorder, "reorder=TYPE", "swap the first message of TYPE with the next one"},
	{Pause, "pause=DUR[@N]", "stop sending for DUR after N messages"},
}

// Spec is one parsed fault.
type Spec struct {
	Kind Kind
	// Dir is the direction the fault applies to.
	Dir wire.Direction
	// N is a message count: after N messages (drop-after, close, pause) or
	// the Nth message (duplicate). Zero when the spec names a type.
	N int
	// Code is the close code of a close fault.
	Code int
	// Dur is the delay, jitter bound or pause length.
	Dur time.Duration
	// Type is the message type a duplicate or reorder fault matches.
	Type string
	// Text is the spec as written, for messages.
	Text string
}

func (s Spec) String() string { return s.Text }

// maxDur bounds delays so a typo cannot hang a test run for hours.
const maxDur = 10 * time.Minute

// Parse reads one spec. Errors say what was wrong and show the syntax.
func Parse(text string) (Spec, error) {
	s := Spec{Dir: wire.ServerToClient, Text: text}
	rest := strings.TrimSpace(text)
	if d, r, ok := strings.Cut(rest, ":"); ok && (d == "c2s" || d == "s2c") {
		s.Dir, rest = wire.Direction(d), r
	}
	name, val, _ := strings.Cut(rest, "=")
	s.Kind = Kind(name)
	var err error
	switch s.Kind {
	case DropAfter:
		s.N, err = count(val)
	case Close:
		code, at, _ := strings.Cut(val, "@")
		if s.Code, err = closeCode(code); err == nil {
			s.N, err = optCount(at)
		}
	case Delay, Jitter:
		s.Dur, err = duration(val)
	case Pause:
		d, at, _ := strings.Cut(val, "@")
		if s.Dur, err = duration(d); err == nil {
			s.N, err = optCount(at)
		}
	case Duplicate:
		if n, cerr := strconv.Atoi(val); cerr == nil {
			if n < 1 {
				err = fmt.Errorf("message number %d: counting starts at 1", n)
			}
			s.N = n
		} else {
			s.Type, err = msgType(val)
		}
	case Reorder:
		s.Type, err = msgType(val)
	default:
		return Spec{}, fmt.Errorf("fault %q: unknown kind %q (known: %s)", text, name, kindList())
	}
	if err != nil {
		return Spec{}, fmt.Errorf("fault %q: %w (syntax: %s)", text, err, syntax(s.Kind))
	}
	return s, nil
}

// ParseAll reads several specs, stopping at the first bad one.
func ParseAll(texts []string) ([]Spec, error) {
	out := make([]Spec, 0, len(texts))
	for _, t := range texts {
		s, err := Parse(t)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func count(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a message count ≥ 0, got %q", v)
	}
	return n, nil
}

func optCount(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	return count(v)
}

// closeCode accepts the codes an endpoint may put on the wire (RFC 6455
// §7.4): 1000-1003, 1007-1014 and the private range 3000-4999. 1005, 1006
// and 1015 only describe what happened and are never sent.
func closeCode(v string) (int, error) {
	c, err := strconv.Atoi(v)
	switch {
	case err != nil:
		return 0, fmt.Errorf("want a close code, got %q", v)
	case wire.SendableCloseCode(c):
		return c, nil
	}
	return 0, fmt.Errorf("close code %d cannot be sent (use 1000-1003, 1007-1014 or 3000-4999)", c)
}

func duration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > maxDur {
		return 0, fmt.Errorf("want a duration between 0 and %v such as 50ms, got %q", maxDur, v)
	}
	return d, nil
}

func msgType(v string) (string, error) {
	if v == "" {
		return "", fmt.Errorf("want a message type")
	}
	return v, nil
}

func kindList() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k.Kind)
	}
	return strings.Join(names, ", ")
}

func syntax(k Kind) string {
	for _, x := range Kinds {
		if x.Kind == k {
			return x.Syntax
		}
	}
	return kindList()
}
