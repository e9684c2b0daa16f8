package fault

import (
	"math/rand/v2"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// Injector applies the specs of one direction of one connection to the
// messages flowing that way. It decides; the caller acts (it owns the
// messages and the socket). Not safe for concurrent use: the connection's
// writer owns it.
type Injector struct {
	specs []Spec
	rng   *rand.Rand
	n     int // messages seen so far
	// fired remembers one-shot faults (pause, duplicate and reorder by
	// type) that already happened.
	fired   map[int]bool
	holding bool
}

// Plan is what to do with one message.
type Plan struct {
	// Wait is how long to hold the message before sending it.
	Wait time.Duration
	// Copies is how many times to send it: 1 normally, 2 when duplicated,
	// 0 when it is held back to be sent after the next one (reorder).
	Copies int
	// ReleaseHeld says to send the message held back earlier right after
	// this one.
	ReleaseHeld bool
	// End, when set, ends the connection after this message.
	End End
}

// End is how a fault ends a connection.
type End struct {
	// Drop closes the TCP connection without a close frame.
	Drop bool
	// Code, when not zero, is the close code to send.
	Code int
}

// Ends reports whether e ends the connection.
func (e End) Ends() bool { return e.Drop || e.Code != 0 }

// New returns an injector for the specs of direction dir, or nil when none
// applies, so callers take a fast path. seed makes jitter reproducible.
func New(specs []Spec, dir wire.Direction, seed uint64) *Injector {
	var mine []Spec
	for _, s := range specs {
		if s.Dir == dir {
			mine = append(mine, s)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	return &Injector{specs: mine, rng: rand.New(rand.NewPCG(seed, 0x5eed)), fired: map[int]bool{}}
}

// NeedsType reports whether some spec matches messages by type, so the
// caller only extracts types when they matter.
func (in *Injector) NeedsType() bool {
	for _, s := range in.specs {
		if s.Type != "" {
			return true
		}
	}
	return false
}

// Start is checked once before the first message: a fault "after 0
// messages" ends the connection straight away.
func (in *Injector) Start() End {
	return in.endAfter(0)
}

// Next plans the next message, of type typ ("" when unknown).
func (in *Injector) Next(typ string) Plan {
	in.n++
	p := Plan{Copies: 1}
	if in.holding {
		in.holding = false
		p.ReleaseHeld = true
	}
	for i, s := range in.specs {
		switch s.Kind {
		case Delay:
			p.Wait += s.Dur
		case Jitter:
			if s.Dur > 0 {
				p.Wait += time.Duration(in.rng.Int64N(int64(s.Dur) + 1))
			}
		case Pause:
			if in.n == s.N+1 && !in.fired[i] {
				in.fired[i] = true
				p.Wait += s.Dur
			}
		case Duplicate:
			if s.N == in.n || (s.Type != "" && s.Type == typ && !in.fired[i]) {
				in.fired[i] = true
				p.Copies = 2
			}
		case Reorder:
			if s.Type == typ && !in.fired[i] && !p.ReleaseHeld {
				in.fired[i] = true
				in.holding = true
				p.Copies = 0
			}
		}
	}
	p.End = in.endAfter(in.n)
	if p.End.Ends() && in.holding {
		// Nothing comes after this message: send the held one now rather
		// than lose it silently.
		in.holding = false
		p.Copies, p.ReleaseHeld = 1, false
	}
	return p
}

func (in *Injector) endAfter(n int) End {
	var e End
	for _, s := range in.specs {
		switch {
		case s.Kind == DropAfter && s.N == n:
			e.Drop = true
		case s.Kind == Close && s.N == n && e.Code == 0:
			e.Code = s.Code
		}
	}
	return e
}
