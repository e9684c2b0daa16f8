package server

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

func TestReplayLog(t *testing.T) {
	t.Parallel()
	l := NewReplayLog(3)
	if ev, ok := l.After(0); len(ev) != 0 || !ok {
		t.Fatalf("empty log After(0) = %v, %v; want nothing, complete", ev, ok)
	}
	for id := int64(1); id <= 5; id++ {
		l.Append(id, []byte{byte('0' + id)})
	}
	tests := []struct {
		after    int64
		wantIDs  []int64
		complete bool
	}{
		{after: 5, wantIDs: nil, complete: true},
		{after: 3, wantIDs: []int64{4, 5}, complete: true},
		{after: 2, wantIDs: []int64{3, 4, 5}, complete: true},
		{after: 1, wantIDs: []int64{3, 4, 5}, complete: false},
		{after: 0, wantIDs: []int64{3, 4, 5}, complete: false},
	}
	for _, tt := range tests {
		ev, ok := l.After(tt.after)
		var ids []int64
		for _, e := range ev {
			ids = append(ids, e.ID)
		}
		if ok != tt.complete || !equal(ids, tt.wantIDs) {
			t.Errorf("After(%d) = %v, %v; want %v, %v", tt.after, ids, ok, tt.wantIDs, tt.complete)
		}
	}
	if l.Last() != 5 || l.Len() != 3 {
		t.Errorf("Last, Len = %d, %d; want 5, 3", l.Last(), l.Len())
	}
	l.Prune(4)
	if ev, ok := l.After(4); len(ev) != 1 || !ok {
		t.Errorf("after Prune(4), After(4) = %v, %v; want [5], complete", ev, ok)
	}
	if _, ok := l.After(3); ok {
		t.Error("after Prune(4), After(3) claims a complete replay")
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestIDs(t *testing.T) {
	t.Parallel()
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	for name, ids := range map[string]IDs{"random": RandomIDs(), "sequential": Sequential()} {
		a, b := ids.UUID(), ids.UUID()
		if !uuid.MatchString(a) || !uuid.MatchString(b) || a == b {
			t.Errorf("%s UUIDs %q, %q: want two distinct v4 UUIDs", name, a, b)
		}
		if x, y := ids.New("call_"), ids.New("call_"); x == y || x[:5] != "call_" {
			t.Errorf("%s New = %q, %q: want distinct ids with the prefix", name, x, y)
		}
	}
	s := Sequential()
	if got := s.UUID(); got != "00000000-0000-4000-8000-000000000001" {
		t.Errorf("first sequential UUID = %s", got)
	}
	if got := s.New("run_"); got != "run_1" {
		t.Errorf("first sequential id = %s", got)
	}
}

func TestParseMutations(t *testing.T) {
	t.Parallel()
	offered := []Mutation{{Name: "a"}, {Name: "b"}}
	if m, err := ParseMutations([]string{"b"}, offered); err != nil || !m.Has("b") || m.Has("a") {
		t.Errorf("ParseMutations(b) = %v, %v", m, err)
	}
	if _, err := ParseMutations([]string{"c"}, offered); err == nil {
		t.Error("an unknown mutation was accepted")
	}
}

// TestReplayLogModel: over random appends and prunes the log answers as
// the plain list of the last window events (minus the pruned) would, and
// holds room for about as many entries as it holds, not the window.
func TestReplayLogModel(t *testing.T) {
	t.Parallel()
	for _, window := range []int{1, 3, 20, 1000} {
		rng := rand.New(rand.NewPCG(uint64(window), 1))
		l := NewReplayLog(window)
		var model []int64 // ids held, oldest first
		var gone, next int64
		for step := 0; step < 5000; step++ {
			if rng.IntN(10) < 7 {
				next++
				l.Append(next, []byte{byte(next)})
				model = append(model, next)
				if len(model) > window {
					gone, model = model[0], model[1:]
				}
			} else if len(model) > 0 {
				upTo := model[rng.IntN(len(model))]
				l.Prune(upTo)
				for len(model) > 0 && model[0] <= upTo {
					gone, model = model[0], model[1:]
				}
			}
			after := next - int64(rng.IntN(window+3))
			ev, ok := l.After(after)
			var ids, want []int64
			for _, e := range ev {
				ids = append(ids, e.ID)
			}
			for _, id := range model {
				if id > after {
					want = append(want, id)
				}
			}
			if ok != (after >= gone) || !equal(ids, want) || l.Len() != len(model) {
				t.Fatalf("window %d step %d: After(%d) = %v, %v, Len %d; want %v, %v, %d", window, step, after, ids, ok, l.Len(), want, after >= gone, len(model))
			}
			if last := l.Last(); len(model) > 0 && last != model[len(model)-1] {
				t.Fatalf("window %d step %d: Last %d, want %d", window, step, last, model[len(model)-1])
			}
			if room := len(l.ring); room > window {
				t.Fatalf("window %d step %d: room for %d entries, more than the window", window, step, room)
			}
		}
	}
}

// TestReplayLogRoom: a session with a few events holds room for a few,
// not for the window.
func TestReplayLogRoom(t *testing.T) {
	t.Parallel()
	l := NewReplayLog(1000)
	for id := int64(1); id <= 3; id++ {
		l.Append(id, nil)
	}
	if room := len(l.ring); room > 16 {
		t.Errorf("3 events in a 1000-event window take room for %d", room)
	}
}
