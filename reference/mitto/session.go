package mitto

import (
	"sync"

	"github.com/wsconform/wsconform/reference/server"
)

// Bounds of a session's state besides the replay window.
const (
	// maxQueue is how many prompts may wait while the agent is prompting;
	// one more is refused with queue_full.
	maxQueue = 10
	// seenPrompts is how many recent prompt_ids a session remembers to
	// acknowledge a resent prompt without running it twice.
	seenPrompts = 256
)

// session is one Mitto conversation: the server-authoritative state every
// client of it shares. Every event is numbered, stored, and sent to every
// client while mu is held, so each client sees seq and max_seq in order.
type session struct {
	env *server.Env
	id  string

	mu   sync.Mutex
	name string
	seq  int64             // highest seq assigned: max_seq
	log  *server.ReplayLog // stored events (mitto.md §Event Types in load_events), by seq
	// clients of the session; the map gives no order, which only matters
	// per connection.
	clients map[*client]struct{}
	turn    *turn     // the running agent turn, nil when not prompting
	queue   []pending // prompts waiting for the turn to end
	prompts map[string]*uiPrompt
	seen    *idSet
	// lastPromptID and lastPromptSeq feed connected's delivery
	// verification fields.
	lastPromptID  string
	lastPromptSeq int64
	failed        bool // the last turn ended with an error: status "error"
}

func newSession(env *server.Env, id string) *session {
	return &session{
		env:     env,
		id:      id,
		log:     server.NewReplayLog(env.ReplayWindow),
		clients: map[*client]struct{}{},
		prompts: map[string]*uiPrompt{},
		seen:    newIDSet(seenPrompts),
	}
}

// mutate reports whether the server was asked to commit mutation name.
func (s *session) mutate(name string) bool { return s.env.Mutations.Has(name) }

// join adds a client and sends it connected (mitto.md §Backend → Frontend
// Messages; §Delivery Verification Fields) before any live event.
func (s *session) join(c *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clients[c] = struct{}{}
	d := obj{{"session_id", s.id}, {"client_id", c.id}, {"acp_server", acpServer}, {"is_running", true}}
	if s.lastPromptID != "" {
		d = append(d, member{"last_user_prompt_id", s.lastPromptID}, member{"last_user_prompt_seq", s.lastPromptSeq})
	}
	if s.name != "" {
		d = append(d, member{"name", s.name})
	}
	c.sendRaw(s.encode(envelope("connected", d)))
}

// leave removes a client and returns how many remain.
func (s *session) leave(c *client) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.clients, c)
	return len(s.clients)
}

// idle reports whether the session could be forgotten: nobody attached and
// no agent work pending.
func (s *session) idle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.clients) == 0 && s.turn == nil && len(s.queue) == 0
}

// broadcastLocked sends the same bytes to every client. Caller holds mu.
func (s *session) broadcastLocked(frame obj) {
	data := s.encode(frame)
	for c := range s.clients {
		c.liveLocked(data)
	}
}

// liveLocked sends a live event (a numbered event, prompt_complete, a
// question and its dismissal) to this client. Under mutLiveAfterLoad a
// connection gets none until its first load_events, as a real server
// that subscribes a connection when its UI loads the session does.
// Caller holds s.mu.
func (c *client) liveLocked(data []byte) {
	if c.s.mutate(mutLiveAfterLoad) && !c.loaded {
		return
	}
	c.sendRaw(data)
}

// status is keepalive_ack.status (mitto.md §Keepalive Fields): "error"
// after a turn failed until the next one starts, "active" otherwise.
func (s *session) statusLocked() string {
	if s.failed {
		return "error"
	}
	return "active"
}

// idSet remembers the last n ids added.
type idSet struct {
	ring []string
	next int
	has  map[string]bool
}

func newIDSet(n int) *idSet { return &idSet{ring: make([]string, n), has: map[string]bool{}} }

func (s *idSet) add(id string) {
	if s.has[id] {
		return
	}
	if old := s.ring[s.next]; old != "" {
		delete(s.has, old)
	}
	s.ring[s.next] = id
	s.next = (s.next + 1) % len(s.ring)
	s.has[id] = true
}
