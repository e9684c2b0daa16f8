package hostd

import (
	"errors"
	"fmt"

	"github.com/wsconform/wsconform/reference/server"
)

// Why a command could not be forwarded. HTTP answers map them to status
// codes (see errorStatus); on /ws/app they are logged, as hostd-mvp.md
// defines no error message.
var (
	errRunUnknown  = errors.New("run not found")
	errRunExited   = errors.New("run has exited")
	errHostOffline = errors.New("the run's host is offline")
	errInputReused = errors.New("input_id was already used with another text")
)

// inputOutcome says what became of an accepted input.
type inputOutcome string

const (
	inputForwarded inputOutcome = "forwarded"
	// inputDuplicate: the input_id was seen before (forwarded or recorded
	// by the host); nothing was forwarded this time.
	inputDuplicate inputOutcome = "duplicate"
)

// input forwards run.send_input to the run's host once per input_id
// (hostd-mvp.md §HTTP Endpoints, §Identifiers: idempotent input_id). A
// repeated id with the same text is a duplicate; with another text it is
// refused. Duplicates are recognised before the run's state is judged, so
// a client retrying an input that went through learns that it did even
// when the host went offline since.
func (h *hub) input(runID, inputID, text string) (inputOutcome, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.runs[runID]
	if r == nil {
		return "", fmt.Errorf("run %q: %w", runID, errRunUnknown)
	}
	if e := r.inputs.get(inputID); e != nil {
		if e.sum != textSum(text) {
			return "", fmt.Errorf("input_id %s of run %q: %w", inputID, runID, errInputReused)
		}
		if h.env.Mutations.Has(mutInputReforwarded) {
			if hc := h.route(r); hc != nil {
				h.sendCommand(hc, r, typeSendInput, sendInputData{InputID: inputID, Text: text})
			}
		}
		return inputDuplicate, nil
	}
	if r.exited {
		return "", fmt.Errorf("run %q: %w", runID, errRunExited)
	}
	hc := h.route(r)
	if hc == nil {
		return "", fmt.Errorf("run %q of host %q: %w", runID, r.hostID, errHostOffline)
	}
	r.inputs.forwarded(inputID, text, hc)
	h.track(r)
	h.sendCommand(hc, r, typeSendInput, sendInputData{InputID: inputID, Text: text})
	return inputForwarded, nil
}

// stop forwards run.stop to the run's host (§Commands); signal is already
// checked (term or kill).
func (h *hub) stop(runID, signal string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.runs[runID]
	switch {
	case r == nil:
		return fmt.Errorf("run %q: %w", runID, errRunUnknown)
	case r.exited:
		return fmt.Errorf("run %q: %w", runID, errRunExited)
	}
	hc := h.route(r)
	if hc == nil {
		return fmt.Errorf("run %q of host %q: %w", runID, r.hostID, errHostOffline)
	}
	h.sendCommand(hc, r, typeStop, stopData{Signal: signal})
	return nil
}

// sendCommand sends a command to a host connection. Call with mu held.
func (h *hub) sendCommand(hc *hostConn, r *run, typ string, data any) {
	b, err := server.Marshal(command{Type: typ, TS: h.env.Stamp(), HostID: r.hostID, RunID: r.id, Data: data})
	if err != nil {
		return
	}
	_ = hc.c.SendRaw(b)
}
