package server

import (
	"slices"
	"testing"
	"time"
)

// clock is a test clock that moves only when told.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func retainedFor(max int, ttl time.Duration, c *clock) *Retained[string] {
	e := NewEnv(Config{MaxSessions: max, SessionTTL: ttl, Now: c.now})
	return NewRetained[string](e)
}

// TestRetainedBounds: beyond MaxSessions the session left longest goes
// first; one kept longer than SessionTTL goes whatever the count; a busy
// one stays and the next idle one goes in its place; negative bounds keep
// everything.
func TestRetainedBounds(t *testing.T) {
	t.Parallel()
	busy := func(s string) bool { return s != "busy" }
	tests := []struct {
		name    string
		max     int
		ttl     time.Duration
		left    []string // one a second
		advance time.Duration
		idle    func(string) bool
		gone    []string
		kept    int
	}{
		{"within the count", 3, time.Hour, []string{"a", "b", "c"}, 0, nil, nil, 3},
		{"beyond the count", 3, time.Hour, []string{"a", "b", "c", "d", "e"}, 0, nil, []string{"a", "b"}, 3},
		{"left again moves back", 3, time.Hour, []string{"a", "b", "c", "a", "d"}, 0, nil, []string{"b"}, 3},
		{"a busy one stays", 2, time.Hour, []string{"busy", "b", "c", "d"}, 0, busy, []string{"b", "c"}, 2},
		{"expired", 10, 61500 * time.Millisecond, []string{"a", "b", "c"}, time.Minute, nil, []string{"a", "b"}, 1},
		{"no bounds", -1, -1, []string{"a", "b", "c", "d"}, 100 * time.Hour, nil, nil, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &clock{t: time.Unix(1e9, 0)}
			r := retainedFor(tt.max, tt.ttl, c)
			var gone []string
			for _, s := range tt.left {
				r.Left(s)
				c.t = c.t.Add(time.Second)
				gone = append(gone, r.Trim(tt.idle)...)
			}
			c.t = c.t.Add(tt.advance)
			gone = append(gone, r.Trim(tt.idle)...)
			if !slices.Equal(gone, tt.gone) || r.Len() != tt.kept {
				t.Errorf("forgot %v and kept %d, want %v and %d", gone, r.Len(), tt.gone, tt.kept)
			}
			for _, s := range gone {
				if r.Has(s) {
					t.Errorf("%s forgotten but still listed", s)
				}
			}
		})
	}
}

// TestRetainedBack: a client coming back takes its session off the list;
// after SessionTTL it is told the session expired.
func TestRetainedBack(t *testing.T) {
	t.Parallel()
	c := &clock{t: time.Unix(1e9, 0)}
	r := retainedFor(10, time.Minute, c)
	r.Left("a")
	r.Left("b")
	c.t = c.t.Add(time.Minute)
	if r.Back("a") {
		t.Error("a came back at exactly the TTL and was told it expired")
	}
	c.t = c.t.Add(time.Millisecond)
	if !r.Back("b") {
		t.Error("b came back after the TTL and was not told it expired")
	}
	if r.Len() != 0 || r.Back("never-left") {
		t.Errorf("%d still listed, or a session never left expired", r.Len())
	}
	r.Left("c")
	r.Forget("c")
	if r.Has("c") || len(r.Trim(nil)) != 0 {
		t.Error("a forgotten session is still listed")
	}
}

// TestDefaultRetention: the zero Config keeps DefaultMaxSessions for
// DefaultSessionTTL.
func TestDefaultRetention(t *testing.T) {
	t.Parallel()
	e := NewEnv(Config{})
	if e.MaxSessions != DefaultMaxSessions || e.SessionTTL != DefaultSessionTTL {
		t.Errorf("defaults %d, %s; want %d, %s", e.MaxSessions, e.SessionTTL, DefaultMaxSessions, DefaultSessionTTL)
	}
}
