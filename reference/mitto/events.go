package mitto

// event is one entry of a session's history (mitto.md §Event Types in
// load_events): its type and body, the members other than seq, max_seq,
// is_prompting and is_mine, which depend on when and to whom it is sent.
type event struct {
	typ  string
	body obj
	// sender is the client_id of a user_prompt's sender, for is_mine.
	sender string
}

// stored is the event as events_loaded lists it: {type, seq, data}.
func (e event) stored(seq int64) obj {
	return obj{{"type", e.typ}, {"seq", seq}, {"data", e.body}}
}

// live is the event as it is streamed: {type, data:{seq, max_seq, …body,
// is_prompting}}; user_prompt has no is_prompting but is_mine, which
// differs per client.
func (e event) live(seq, max int64, isMine bool) obj {
	d := make(obj, 0, len(e.body)+3)
	d = append(d, member{"seq", seq}, member{"max_seq", max})
	d = append(d, e.body...)
	if e.typ == "user_prompt" {
		d = append(d, member{"is_mine", isMine})
	} else {
		d = append(d, member{"is_prompting", true})
	}
	return envelope(e.typ, d)
}

func userPromptEvent(p pending) event {
	body := obj{{"sender_id", p.sender}, {"prompt_id", p.id}, {"message", p.message}}
	return event{typ: "user_prompt", body: body, sender: p.sender}
}

func thoughtEvent(text string) event { return event{typ: "agent_thought", body: obj{{"text", text}}} }

func messageEvent(html string) event { return event{typ: "agent_message", body: obj{{"html", html}}} }

func toolCallEvent(id, title, status string) event {
	return event{typ: "tool_call", body: obj{{"id", id}, {"title", title}, {"status", status}}}
}

func toolUpdateEvent(id, status string) event {
	return event{typ: "tool_update", body: obj{{"id", id}, {"status", status}}}
}

// emitLocked numbers an event, stores it and streams it to every client.
// Caller holds s.mu. It returns the seq.
func (s *session) emitLocked(e event) int64 {
	s.seq++
	seq := s.seq
	s.store(seq, e)
	s.streamLocked(e, seq)
	return seq
}

// emitSwappedLocked numbers two events and streams them in reverse seq
// order: the mitto-seq-swapped mutation. The store keeps seq order.
func (s *session) emitSwappedLocked(a, b event) {
	first, second := s.seq+1, s.seq+2
	s.seq += 2
	s.store(first, b)
	s.store(second, a)
	s.streamLocked(a, second)
	s.streamLocked(b, first)
}

func (s *session) store(seq int64, e event) {
	if data := s.encode(e.stored(seq)); data != nil {
		s.log.Append(seq, data)
	}
}

// streamLocked sends the live form of a numbered event to every client,
// marshalled once (twice for user_prompt: mine and not mine).
func (s *session) streamLocked(e event, seq int64) {
	max := s.seq
	if s.mutate(mutMaxSeqBelowSeq) {
		max = seq - 1
	}
	if e.typ != "user_prompt" {
		s.broadcastLocked(e.live(seq, max, false))
		return
	}
	mine, other := s.encode(e.live(seq, max, true)), s.encode(e.live(seq, max, false))
	for c := range s.clients {
		if (c.id == e.sender) != s.mutate(mutIsMineInverted) {
			c.liveLocked(mine)
		} else {
			c.liveLocked(other)
		}
	}
}
