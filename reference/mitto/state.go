package mitto

import "encoding/json"

// keepalive answers keepalive with keepalive_ack and the session state a
// second tab needs (mitto.md §Keepalive Fields), plus the session name.
func (s *session) keepalive(c *client, clientTime json.Number) {
	s.mu.Lock()
	defer s.mu.Unlock()
	maxSeq := s.seq
	if s.mutate(mutKeepaliveStale) {
		maxSeq = 0
	}
	d := obj{
		{"client_time", clientTime},
		{"server_time", s.env.Now().UnixMilli()},
		{"max_seq", maxSeq},
		{"is_prompting", s.turn != nil},
		{"is_running", true},
		{"queue_length", len(s.queue)},
		{"status", s.statusLocked()},
	}
	if s.name != "" {
		d = append(d, member{"name", s.name})
	}
	c.sendRaw(s.encode(envelope("keepalive_ack", d)))
}

// rename sets the session's name. The spec defines no reply; the name
// shows in connected and keepalive_ack.
func (s *session) rename(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.name = name
}
