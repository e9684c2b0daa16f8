package mitto_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// loaded sends load_events with data and returns the events_loaded.
func loaded(c *reftest.Client, data map[string]any) reftest.Msg {
	c.Send(frame("load_events", data))
	return c.Expect("events_loaded")
}

// storedSeqs lists the seq of each stored event of an events_loaded.
func storedSeqs(t *testing.T, m reftest.Msg) []int64 {
	t.Helper()
	v, _ := m.Get("/data/events")
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("events is not an array: %s", m)
	}
	out := make([]int64, len(list))
	for i, e := range list {
		n, err := e.(map[string]any)["seq"].(json.Number).Int64()
		if err != nil {
			t.Fatalf("event %d seq: %v", i, err)
		}
		out[i] = n
	}
	return out
}

func seqRange(lo, hi int64) []int64 {
	out := []int64{}
	for s := lo; s <= hi; s++ {
		out = append(out, s)
	}
	return out
}

func TestLoadEvents(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	// 61 events: the user_prompt (seq 1) and 60 chunks.
	c, _ := join(t, srv, "s")
	ask(c, "p1", "/stream 60", "prompt_complete")
	tests := []struct {
		name    string
		data    map[string]any
		lo, hi  int64
		more    bool
		prepend bool
	}{
		{"initial, default limit 50", map[string]any{}, 12, 61, true, false},
		{"initial, limit 10", map[string]any{"limit": 10}, 52, 61, true, false},
		{"limit above 500 served as 500", map[string]any{"limit": 600}, 1, 61, false, false},
		{"before_seq page", map[string]any{"before_seq": 12, "limit": 5}, 7, 11, true, true},
		{"before_seq first page", map[string]any{"before_seq": 3}, 1, 2, false, true},
		{"before_seq 1: nothing older", map[string]any{"before_seq": 1}, 1, 0, false, true},
		{"after_seq sync", map[string]any{"after_seq": 55}, 56, 61, false, false},
		{"after_seq sync with limit", map[string]any{"after_seq": 10, "limit": 5}, 11, 15, true, false},
		{"after_seq at max_seq: nothing new", map[string]any{"after_seq": 61}, 1, 0, false, false},
		{"after_seq beyond max_seq: initial load", map[string]any{"after_seq": 1000}, 12, 61, true, false},
	}
	for _, tt := range tests {
		m := loaded(c, tt.data)
		want := seqRange(tt.lo, tt.hi)
		if got := storedSeqs(t, m); !slices.Equal(got, want) {
			t.Fatalf("%s: seqs %v, want %v", tt.name, got, want)
		}
		first, last := int64(0), int64(0)
		if len(want) > 0 {
			first, last = tt.lo, tt.hi
		}
		if m.Int("/data/first_seq") != first || m.Int("/data/last_seq") != last || m.Int("/data/max_seq") != 61 ||
			m.Int("/data/total_count") != 61 || boolAt(t, m, "/data/has_more") != tt.more ||
			boolAt(t, m, "/data/prepend") != tt.prepend || boolAt(t, m, "/data/is_prompting") {
			t.Fatalf("%s: %s", tt.name, m)
		}
	}
	// A stored event is {type, seq, data} and reads the same every time.
	a, b := loaded(c, map[string]any{"limit": 61}), loaded(c, map[string]any{"limit": 61})
	if string(a.Raw) != string(b.Raw) {
		t.Fatalf("two loads differ:\n%s\n%s", a.Raw, b.Raw)
	}
	first, _ := a.Get("/data/events/0")
	raw, _ := json.Marshal(first)
	if want := `{"data":{"message":"/stream 60","prompt_id":"p1","sender_id":"client-1"},"seq":1,"type":"user_prompt"}`; string(raw) != want {
		t.Fatalf("stored user_prompt %s, want %s", raw, want)
	}
	if a.Str("/data/events/1/type") != "agent_message" || a.Str("/data/events/1/data/html") != "chunk 1 of 60. " {
		t.Fatalf("stored agent_message: %s", a.Raw[:200])
	}
}

func TestLoadEventsErrors(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _ := join(t, srv, "s")
	ask(c, "p1", "hi", "prompt_complete")
	tests := []struct {
		data map[string]any
		code string
	}{
		{map[string]any{"before_seq": 3, "after_seq": 1}, "conflicting_params"},
		{map[string]any{"limit": 0}, "invalid_message"},
		{map[string]any{"limit": "5"}, "invalid_message"},
		{map[string]any{"limit": 2.5}, "invalid_message"},
		{map[string]any{"after_seq": -1}, "invalid_message"},
		{map[string]any{"before_seq": true}, "invalid_message"},
	}
	for _, tt := range tests {
		c.Send(frame("load_events", tt.data))
		expectError(t, c, tt.code)
	}
	if got := storedSeqs(t, loaded(c, map[string]any{})); !slices.Equal(got, seqRange(1, 3)) {
		t.Fatalf("after errors: %v", got)
	}
}

// Paging back with before_seq from the initial load visits every stored
// event exactly once.
func TestLoadEventsPaging(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	c, _ := join(t, srv, "s")
	ask(c, "p1", "/stream 40", "prompt_complete")
	ask(c, "p2", "/stream 40", "prompt_complete")
	m := loaded(c, map[string]any{"limit": 7})
	all := storedSeqs(t, m)
	for boolAt(t, m, "/data/has_more") {
		m = loaded(c, map[string]any{"limit": 7, "before_seq": m.Int("/data/first_seq")})
		all = append(storedSeqs(t, m), all...)
	}
	if !slices.Equal(all, seqRange(1, 82)) {
		t.Fatalf("paged seqs %v", all)
	}
}

// Only the newest ReplayWindow events are stored; paging ends at the window.
func TestLoadEventsWindow(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{ReplayWindow: 20})
	c, _ := join(t, srv, "s")
	ask(c, "p1", "/stream 30", "prompt_complete")
	m := loaded(c, map[string]any{})
	if got := storedSeqs(t, m); !slices.Equal(got, seqRange(12, 31)) || boolAt(t, m, "/data/has_more") || m.Int("/data/total_count") != 20 {
		t.Fatalf("initial load with a window of 20: %s", m)
	}
	if got := storedSeqs(t, loaded(c, map[string]any{"before_seq": 12})); len(got) != 0 {
		t.Fatalf("before the window: %v", got)
	}
	if got := storedSeqs(t, loaded(c, map[string]any{"after_seq": 5, "limit": 3})); !slices.Equal(got, seqRange(12, 14)) {
		t.Fatalf("sync from beyond the window: %v", got)
	}
}

func TestMultiClient(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	a, ca := join(t, srv, "s")
	b, _ := join(t, srv, "s")
	a.Send(prompt("p1", "/think first then answer"))
	a.Expect("prompt_received")
	ma, mb := a.Until("prompt_complete"), b.Until("prompt_complete")
	upA, upB := ma[0], mb[0]
	if upA.Type != "user_prompt" || upB.Type != "user_prompt" || !boolAt(t, upA, "/data/is_mine") || boolAt(t, upB, "/data/is_mine") ||
		upB.Str("/data/sender_id") != ca.Str("/data/client_id") || upA.Int("/data/seq") != upB.Int("/data/seq") {
		t.Fatalf("user_prompt a %s b %s", upA, upB)
	}
	if !slices.Equal(types(ma), types(mb)) || !slices.Equal(liveSeqs(ma), liveSeqs(mb)) || reply(ma) != reply(mb) {
		t.Fatalf("clients differ:\n%v %v\n%v %v", types(ma), liveSeqs(ma), types(mb), liveSeqs(mb))
	}
	// b's question reaches a; a answers; b's prompt closes.
	b.Send(prompt("p2", "/ask Ship it?"))
	pa, pb := a.Expect("ui_prompt"), b.Expect("ui_prompt")
	if string(pa.Raw) != string(pb.Raw) {
		t.Fatalf("ui_prompt differs: %s vs %s", pa, pb)
	}
	a.Send(answer(pa.Str("/data/request_id"), "yes"))
	if d := b.Expect("ui_prompt_dismiss"); d.Str("/data/request_id") != pa.Str("/data/request_id") {
		t.Fatalf("dismiss %s", d)
	}
	if ra, rb := reply(a.Until("prompt_complete")), reply(b.Until("prompt_complete")); ra != "You answered: Yes" || rb != ra {
		t.Fatalf("replies %q %q", ra, rb)
	}
	// A second answer, from b, comes too late.
	b.Send(answer(pa.Str("/data/request_id"), "no"))
	expectError(t, b, "unknown_request")
}

// A client dropped mid-turn reconnects to its session, learns its last
// prompt from connected, and fills the gap with load_events{after_seq}
// while the turn goes on.
func TestReconnectResume(t *testing.T) {
	t.Parallel()
	srv := start(t, server.Config{})
	// drop-after=4: connected, prompt_received, user_prompt, one chunk.
	c1 := srv.Dial(t, "/ws?session_id=r&fault=drop-after=4", reftest.Group("r"))
	c1.Expect("connected")
	c1.Send(prompt("p1", "/slow 50"))
	msgs := c1.ExpectSeq("prompt_received", "user_prompt", "agent_message")
	if code, _ := c1.Closed(); code != 1006 {
		t.Fatalf("close code %d, want 1006 (dropped)", code)
	}
	seen := msgs[2].Int("/data/seq")
	c2, conn := join(t, srv, "r")
	if conn.Str("/data/last_user_prompt_id") != "p1" || conn.Int("/data/last_user_prompt_seq") != 1 {
		t.Fatalf("connected after reconnect: %s", conn)
	}
	c2.Send(frame("load_events", map[string]any{"after_seq": seen}))
	got := map[int64]bool{}
	msgs = c2.Until("prompt_complete")
	for _, m := range msgs {
		switch m.Type {
		case "events_loaded":
			for _, s := range storedSeqs(t, m) {
				got[s] = true
			}
		case "agent_message":
			got[m.Int("/data/seq")] = true
		}
	}
	last := msgs[len(msgs)-1].Int("/data/max_seq")
	if last != 51 {
		t.Fatalf("prompt_complete %s, want max_seq 51", msgs[len(msgs)-1])
	}
	for s := seen + 1; s <= last; s++ {
		if !got[s] {
			t.Fatalf("seq %d missing after resume (have %v)", s, got)
		}
	}
	if got[seen] {
		t.Fatalf("seq %d, already seen, came again", seen)
	}
}
