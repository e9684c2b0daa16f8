package runner

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	messages "github.com/cucumber/messages/go/v21"
	"github.com/gorilla/websocket"
)

// admission is a scenario the gate let in, with its ticket.
type admission struct {
	rank int
	t    *ticket
}

// enterAll enters the gate at each rank, each from its own goroutine: the
// first channel hears each as it is admitted, the second each error.
func enterAll(ctx context.Context, g *gate, ranks ...int) (<-chan admission, <-chan error) {
	in, errs := make(chan admission, len(ranks)), make(chan error, len(ranks))
	for _, r := range ranks {
		go func() {
			t, err := g.enter(ctx, r)
			if err != nil {
				errs <- err
				return
			}
			in <- admission{r, t}
		}()
	}
	return in, errs
}

// state is how many wait in the gate, and its free places.
func (g *gate) state() (waiting, open, work int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.waiting), g.open, g.work
}

// TestGateAdmitsByRank: no scenario starts before every expected one has
// come (the first to come are the first written, not the longest); then
// the limit's worth of the best ranked start, and each place that frees
// goes to the best ranked still waiting.
func TestGateAdmitsByRank(t *testing.T) {
	t.Parallel()
	g := newGate(2, 2, 5)
	in, _ := enterAll(context.Background(), g, 4, 2, 0, 3, 1)
	a, b := <-in, <-in
	if got := []int{min(a.rank, b.rank), max(a.rank, b.rank)}; !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("admitted first %v, want ranks 0 and 1", got)
	}
	if waiting, open, work := g.state(); waiting != 3 || open != 0 || work != 0 {
		t.Fatalf("%d waiting, %d and %d places free: want 3 waiting, none free", waiting, open, work)
	}
	var got []int
	leaving := a.t
	for range 3 {
		// give back one place at a time: exactly one more is admitted
		leaving.leave()
		next := <-in
		got = append(got, next.rank)
		leaving = next.t
	}
	if !slices.Equal(got, []int{2, 3, 4}) {
		t.Errorf("then admitted %v, want 2, 3, 4", got)
	}
}

// TestGateWorking: with one working place among three, a scenario that
// listens through a window lets the next one start; one back from its
// window works again before any new one starts.
func TestGateWorking(t *testing.T) {
	t.Parallel()
	g := newGate(3, 1, 0)
	ctx := context.Background()
	a, err := g.enter(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := enterAll(ctx, g, 1)
	a.listen()
	b := <-in // admitted once a listens
	back := make(chan error, 1)
	go func() { back <- a.resume(ctx) }()
	for {
		// a waits to resume before c comes (polling the gate's own state)
		g.mu.Lock()
		n := len(g.resuming)
		g.mu.Unlock()
		if n == 1 {
			break
		}
		runtime.Gosched()
	}
	in, _ = enterAll(ctx, g, 2)
	for {
		// c waits in the gate before b listens (enterAll's goroutine may
		// not have come yet: the check below saw 0 waiting in a stress run)
		if waiting, _, _ := g.state(); waiting == 1 {
			break
		}
		runtime.Gosched()
	}
	b.t.listen()
	if err := <-back; err != nil {
		t.Fatal(err)
	}
	if waiting, open, work := g.state(); waiting != 1 || open != 1 || work != 0 {
		t.Fatalf("after a resumed: %d waiting, %d open and %d working places free; want c waiting, 1 open, none working", waiting, open, work)
	}
	a.leave()
	if c := <-in; c.rank != 2 {
		t.Fatalf("admitted rank %d, want c", c.rank)
	}
	a.leave() // twice: gives back nothing more
	b.t.leave()
	if _, open, work := g.state(); open != 2 || work != 0 {
		t.Errorf("%d open and %d working places free with c working, want 2 and 0", open, work)
	}
}

// TestGateLeaveOnce: a scenario gives its places back once, however often
// it leaves (godog's end of the scenario and a stop may both).
func TestGateLeaveOnce(t *testing.T) {
	t.Parallel()
	g := newGate(1, 1, 0)
	turn, err := g.enter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	turn.leave()
	turn.leave()
	if _, open, work := g.state(); open != 1 || work != 1 {
		t.Errorf("%d open and %d working places free after one scenario left twice, want 1 and 1", open, work)
	}
}

// TestGateAbsent: a scenario godog ran that the run does not know counts
// one expected out, so a missing one never holds up the others.
func TestGateAbsent(t *testing.T) {
	t.Parallel()
	g := newGate(4, 4, 3)
	in, _ := enterAll(context.Background(), g, 0, 1)
	g.absent() // before or after they came: either way they start
	a, b := <-in, <-in
	if got := []int{min(a.rank, b.rank), max(a.rank, b.rank)}; !slices.Equal(got, []int{0, 1}) {
		t.Errorf("admitted %v, want 0 and 1", got)
	}
}

// TestGateStop: a scenario waiting when the run stops leaves without a
// place, and the places stay as they were.
func TestGateStop(t *testing.T) {
	t.Parallel()
	g := newGate(1, 1, 0)
	turn, err := g.enter(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, errs := enterAll(ctx, g, 1)
	cancel() // before or after it came: either way it waits for no place
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("waiting scenario got %v, want context.Canceled", err)
	}
	turn.leave()
	if waiting, open, work := g.state(); waiting != 0 || open != 1 || work != 1 {
		t.Errorf("%d waiting, %d and %d places free after the stop: want none waiting, 1 and 1", waiting, open, work)
	}
}

// TestExpected: what a scenario is expected to take is what its steps
// write that they wait through, the long waits they allow, and the
// scripted agent's slow replies.
func TestExpected(t *testing.T) {
	t.Parallel()
	doc := func(s string) *messages.PickleStepArgument {
		return &messages.PickleStepArgument{DocString: &messages.PickleDocString{Content: s}}
	}
	slow := ReferenceConfig().Slow
	tests := []struct {
		text string
		arg  *messages.PickleStepArgument
		want time.Duration
	}{
		{`the client receives no "error" within 300ms`, nil, 300 * time.Millisecond},
		{`client "B" receives no "error"`, nil, DefaultTimeouts.Quiet},
		{`the client receives nothing within 1s`, nil, time.Second},
		{`client "B" stays connected for 100ms`, nil, 100 * time.Millisecond},
		{`the client stays connected`, nil, DefaultTimeouts.Quiet},
		{`I wait 2s`, nil, 2 * time.Second},
		{`the client skips what it receives within 300ms`, nil, 300 * time.Millisecond},
		{`the client receives "system.heartbeat" within 70s`, nil, 70 * time.Second},
		{`the client receives "welcome" within 2s`, nil, 0},
		{`the client receives "welcome"`, nil, 0},
		{`the client sends:`, doc(`{"type": "send", "text": "/slow 30"}`), 30 * slow},
		{`the client sends:`, doc(`{"type": "send", "text": "hello"}`), 0},
	}
	for _, tt := range tests {
		c := &Case{pickle: &messages.Pickle{Steps: []*messages.PickleStep{{Text: tt.text, Argument: tt.arg}}}}
		if got := c.expected(DefaultTimeouts); got != tt.want {
			t.Errorf("%s: expected %s, want %s", tt.text, got, tt.want)
		}
	}
}

// TestRanks: the longest expected first, catalog order among equals, and
// a previous run's duration (--shard-timings) before the steps' guess.
func TestRanks(t *testing.T) {
	t.Parallel()
	step := func(id, text string) *Case {
		return &Case{ID: id, pickle: &messages.Pickle{Steps: []*messages.PickleStep{{Text: text}}}}
	}
	a := step("a", "I wait 10ms")
	b := step("b", "I wait 1s")
	c := step("c", "I wait 10ms")
	d := step("d", "I wait 10ms")
	r := ranks([]*Case{a, b, c, d}, Options{Timeouts: DefaultTimeouts})
	if got := []int{r[b], r[a], r[c], r[d]}; !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("ranks of b, a, c, d: %v, want 0 1 2 3", got)
	}
	r = ranks([]*Case{a, b, c, d}, Options{Timeouts: DefaultTimeouts,
		Shard: Shard{Durations: map[string]time.Duration{"d": 3 * time.Second}}})
	if r[d] != 0 || r[b] != 1 {
		t.Errorf("with d timed at 3 s: d ranks %d, b %d; want 0 and 1", r[d], r[b])
	}
}

// longLastFeature has three short scenarios written before a long one.
var longLastFeature = fstest.MapFS{"minicodex/order.feature": {Data: []byte(`@minicodex
Feature: order
  @id:t.short1 @must
  Scenario: short one
    Given a client connects
    When the client sends:
      """
      {"type": "ping", "req_id": "short1"}
      """
    Then I wait 10ms

  @id:t.short2 @must
  Scenario: short two
    Given a client connects
    When the client sends:
      """
      {"type": "ping", "req_id": "short2"}
      """
    Then I wait 10ms

  @id:t.short3 @must
  Scenario: short three
    Given a client connects
    When the client sends:
      """
      {"type": "ping", "req_id": "short3"}
      """
    Then I wait 10ms

  @id:t.long @must
  Scenario: long
    Given a client connects
    When the client sends:
      """
      {"type": "ping", "req_id": "long"}
      """
    Then the client receives no "error" within 300ms
`)}}

// TestLongestFirst: on a real loopback server, two at a time, the
// scenario written last but expected longest is among the first two to
// reach the server (godog alone starts them in file order: short1 and
// short2, and long after one of them ended).
func TestLongestFirst(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var order []string
	s := httptest.NewServer(upgrader(func(c *websocket.Conn) {
		_, data, err := c.ReadMessage()
		if err != nil {
			return // the pre-check's handshake
		}
		var m struct {
			ReqID string `json:"req_id"`
		}
		_ = json.Unmarshal(data, &m)
		mu.Lock()
		order = append(order, m.ReqID)
		mu.Unlock()
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				return
			}
		}
	}))
	defer s.Close()
	res, err := Run(context.Background(), Options{Features: longLastFeature, Concurrency: 2,
		Targets: []Target{{Name: "t", URL: wsURL(s)}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 4 {
		t.Fatalf("%d results, want 4", len(res))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(order) != 4 {
		t.Fatalf("server saw %v, want four scenarios", order)
	}
	first := slices.Clone(order[:2])
	slices.Sort(first)
	if !slices.Equal(first, []string{"long", "short1"}) {
		t.Errorf("the server saw %v: want long and short1 first", order)
	}
}

// TestConcurrencyFor: 32 at a time against the reference server, whose
// scenarios mostly wait; 8 against another server; the user's number
// over both.
func TestConcurrencyFor(t *testing.T) {
	t.Parallel()
	ref := Target{Name: "reference", URL: "ws://127.0.0.1:1", Reference: true}
	other := Target{Name: "t", URL: "ws://127.0.0.1:1/ws"}
	tests := []struct {
		target Target
		user   int
		want   int
	}{
		{ref, 0, ReferenceConcurrency},
		{other, 0, DefaultConcurrency},
		{ref, 3, 3},
		{other, 3, 3},
	}
	for _, tt := range tests {
		r := &run{opts: Options{Concurrency: tt.user}, specs: map[string]*clientSpec{}}
		if got := r.concurrencyFor(tt.target); got != tt.want {
			t.Errorf("%s with --concurrency %d: %d at a time, want %d", tt.target.Name, tt.user, got, tt.want)
		}
	}
}

// TestListens: the steps during which a scenario gives its working place
// back are those that only wait.
func TestListens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want bool
	}{
		{`the client receives no "error" within 300ms`, true},
		{`client "B" receives nothing`, true},
		{`the client stays connected for 100ms`, true},
		{`I wait 300ms`, true},
		{`the client skips what it receives within 300ms`, true},
		{`the client receives "system.heartbeat" within 70s`, true},
		{`the client receives "welcome" within 2s`, false},
		{`the client receives "welcome"`, false},
		{`a client connects`, false},
		{`the client sends:`, false},
	}
	for _, tt := range tests {
		if got := listens(tt.text, DefaultTimeouts); got != tt.want {
			t.Errorf("%s: listens %v, want %v", tt.text, got, tt.want)
		}
	}
}
