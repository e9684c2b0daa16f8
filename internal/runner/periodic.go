package runner

import "github.com/wsconform/wsconform/internal/check"

// Periodic messages (client.json "periodic": myagent's system.heartbeat,
// minicodex's heartbeat) come on the server's timer, not in answer to
// anything the scenario did: whether one lands between two messages a
// step looks at depends only on when the scenario started. So a step that
// does not name the type does not see them (a "receives nothing" is not
// broken by a tick, the first message is the first other one, a failure
// lists what else came), and a finding that rests on one (a numbered
// heartbeat that overtakes a held chunk: "seq 11 after 12") is a root
// cause of the run, never the verdict of a scenario that does not name
// the type. A scenario about the heartbeat names it and sees every tick.

// periodic says whether typ is one of the dialect's periodic messages.
func (w *World) periodic(typ string) bool {
	if w.spec == nil || typ == "" {
		return false
	}
	for _, p := range w.spec.Periodic {
		if p.Type == typ {
			return true
		}
	}
	return false
}

// unnamedPeriodic says whether m is a periodic message of a type other
// than named (the type the step is about).
func (w *World) unnamedPeriodic(m message, named string) bool {
	return m.typ != named && w.periodic(m.typ)
}

// notePeriodic remembers a server frame of a periodic type the scenario
// never names. Caller holds w.mu.
func (w *World) notePeriodic(index int64, typ string) {
	if !w.periodic(typ) || w.sc.c.Mentions[typ] {
		return
	}
	if w.timed == nil {
		w.timed = map[int64]bool{}
	}
	w.timed[index] = true
}

// byTimer says whether a finding is on, or compares with, a periodic
// frame the scenario does not name: when that frame came decided the
// finding. Caller holds w.mu.
func (w *World) byTimer(f check.Finding) bool {
	if w.timed[f.Frame] {
		return true
	}
	for _, idx := range f.Related {
		if w.timed[idx] {
			return true
		}
	}
	return false
}
