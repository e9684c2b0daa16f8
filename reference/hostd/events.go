package hostd

import (
	"fmt"
	"maps"

	"github.com/wsconform/wsconform/reference/server"
)

// hostEvent persists one event a host sent and relays it to the apps
// (hostd-mvp.md §Events, §Acknowledgements):
//   - an event with a seq above the run's last persisted seq is logged,
//     fanned out and acknowledged with run.ack{run_id, last_seq: seq};
//   - an event with a seq the server already has (spool replay after a
//     reconnect, or a late straggler) is acknowledged with the run's last
//     persisted seq and NOT relayed: no app gets a seq twice or out of order;
//   - an event without a seq is relayed live, neither logged nor acked.
func (h *hub) hostEvent(hc *hostConn, ev envelope) error {
	if err := checkData(ev.Data, eventFields[ev.Type]); err != nil {
		return fmt.Errorf("%s of run %q: %w", ev.Type, ev.RunID, err)
	}
	// Encoding happens outside the lock (every host and app waits on it);
	// for an event the server already has, the bytes go unused.
	data, err := h.relayed(hc, ev)
	if err != nil {
		return err
	}
	last, acked, err := h.persist(hc, ev, data)
	if err == nil && acked {
		// Only this connection's reader acks it: acks stay in order
		// without the lock.
		h.ack(hc, ev.RunID, last)
	}
	return err
}

// persist logs and relays an event under the lock; it returns the seq to
// acknowledge, if any.
func (h *hub) persist(hc *hostConn, ev envelope, data []byte) (last int64, ack bool, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.runFor(hc, ev.RunID)
	if r == nil {
		return 0, false, fmt.Errorf("%s: run %q belongs to another host", ev.Type, ev.RunID)
	}
	r.via = hc
	switch {
	case !ev.HasSeq:
		h.apply(r, ev)
		h.fanout(r, data)
		return 0, false, nil
	case r.persisted && ev.Seq <= r.last:
		return h.redelivered(r, ev), true, nil
	}
	r.log.Append(ev.Seq, data)
	r.last, r.persisted = ev.Seq, true
	h.apply(r, ev)
	h.relay(r, data)
	return r.last, true, nil
}

// redelivered answers an event the server already persisted: acknowledge
// the run's last seq so the host deletes its spool, relay nothing. Call
// with mu held.
func (h *hub) redelivered(r *run, ev envelope) int64 {
	if h.env.Mutations.Has(mutReplayDuplicates) {
		if entries, _ := r.log.After(ev.Seq - 1); len(entries) > 0 && entries[0].ID == ev.Seq {
			h.fanout(r, entries[0].Data)
		}
	}
	if h.env.Mutations.Has(mutAckRegresses) {
		return ev.Seq
	}
	return r.last
}

// relayed builds the bytes every app receives for an event: the envelope
// rebuilt by the server (host_id from the connection; ts the host's when
// valid, else the time the server received it), data as the host sent it,
// its unknown members included.
func (h *hub) relayed(hc *hostConn, ev envelope) ([]byte, error) {
	out := event{Type: ev.Type, TS: ev.TS, HostID: hc.hostID, RunID: ev.RunID, Data: ev.Data}
	if out.TS == "" {
		out.TS = h.env.Stamp()
	}
	if ev.HasSeq {
		seq := ev.Seq
		out.Seq = &seq
	}
	if ev.Type == typeOutput && h.env.Mutations.Has(mutForwardAlters) {
		out.Data = maps.Clone(ev.Data)
		out.Data["text"] = fmt.Sprint(ev.Data["text"]) + " [altered in relay]"
	}
	return server.Marshal(out)
}

// apply updates run state from an event the server accepted.
func (h *hub) apply(r *run, ev envelope) {
	h.note(r, ev)
	switch ev.Type {
	case typeExited:
		r.exited = true
	case typeStarted:
		r.exited = false
	case typeInput:
		id, _ := ev.Data["input_id"].(string)
		sum, _ := ev.Data["text_sha256"].(string)
		r.inputs.recorded(id, sum)
		h.track(r)
	}
}

// relay fans a newly persisted event out; the hostd-fanout-reorders
// mutation holds a run's first event back and sends it after the second.
func (h *hub) relay(r *run, data []byte) {
	if !h.env.Mutations.Has(mutFanoutReorders) || r.reorders {
		h.fanout(r, data)
		return
	}
	if r.held == nil {
		r.held = data
		return
	}
	h.fanout(r, data)
	h.fanout(r, r.held)
	r.held, r.reorders = nil, true
}

// ack sends run.ack{run_id, last_seq} to the host connection that sent
// the event.
func (h *hub) ack(hc *hostConn, runID string, last int64) {
	data := map[string]any{"run_id": runID, "last_seq": last}
	switch {
	case h.env.Mutations.Has(mutAckAhead):
		data["last_seq"] = last + 1
	case h.env.Mutations.Has(mutAckNoLastSeq):
		delete(data, "last_seq")
	}
	b, err := server.Marshal(ack{Type: typeAck, TS: h.env.Stamp(), HostID: hc.hostID, RunID: runID, Data: data})
	if err != nil {
		return
	}
	_ = hc.c.SendRaw(b)
	if h.env.Mutations.Has(mutAckToApps) {
		h.mu.Lock()
		defer h.mu.Unlock()
		if r := h.runs[runID]; r != nil {
			h.fanout(r, b)
		}
	}
}
