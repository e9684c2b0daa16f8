package gate

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/fixture"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/internal/replay"
)

// observed records the events an observer was given.
type observed struct{ kinds []proxy.LiveKind }

func (o *observed) Observe(ev *proxy.LiveEvent) { o.kinds = append(o.kinds, ev.Kind) }

// TestWatchUpstream: with UpstreamChanged, every frame and close the
// proxy observes is a notice and is still passed on, a finding is not a
// notice, and the upstream's handler notices each request once it was
// served; the caller's Upstream is left as it was.
func TestWatchUpstream(t *testing.T) {
	calls, atServe := 0, -1
	inner := &observed{}
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { atServe = calls })
	up := &Upstream{Handler: h}
	opts := Options{Live: inner, Upstream: up, UpstreamChanged: func() { calls++ }}
	watchUpstream(&opts)
	for _, k := range []proxy.LiveKind{proxy.LiveFrame, proxy.LiveFinding, proxy.LiveClose} {
		opts.Live.Observe(&proxy.LiveEvent{Kind: k})
	}
	if calls != 2 || len(inner.kinds) != 3 {
		t.Errorf("%d notices for a frame, a finding and a close (want 2); %d events passed on (want 3)", calls, len(inner.kinds))
	}
	opts.Upstream.Handler.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/ws", nil))
	if atServe != 2 || calls != 3 {
		t.Errorf("%d notices when the request was served, %d after; want 2, then 3", atServe, calls)
	}
	if _, wrapped := up.Handler.(http.HandlerFunc); !wrapped {
		t.Error("the caller's Upstream was changed")
	}

	plain := Options{Live: inner}
	watchUpstream(&plain)
	if plain.Live != inner {
		t.Error("without UpstreamChanged the observer was wrapped")
	}
}

// TestGateReplayNotices: a gate --replay of the good client tells
// UpstreamChanged as the fixture compares its frames, and the last notice
// comes once the replayed connection's diff is complete, so a live view
// that fetches the diffs on the last notice shows the final ones.
// Whether some notice lands while rows exist and the connection is not yet
// done depends on how fast the client process talks (without -race, every
// notice came before the first row or after the end, 3 runs of 3), so it
// is not asserted: only that there are notices beyond the last one.
// Not parallel: t.Setenv hands the mode to the client process.
func TestGateReplayNotices(t *testing.T) {
	plan := recordGood(t)
	masks, err := replay.VolatileMasks(plan.Dialect, nil)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := fixture.New(fixture.Options{Plan: plan, Masks: masks})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu       sync.Mutex
		notices  int
		lastRows int
		lastDone bool
	)
	changed := func() {
		res := fx.Results()
		mu.Lock()
		defer mu.Unlock()
		notices++
		lastRows, lastDone = 0, len(res) > 0
		for _, r := range res {
			lastRows += len(r.Rows)
			lastDone = lastDone && r.Done
		}
	}
	t.Setenv(clientEnv, "good")
	var out bytes.Buffer
	res, err := Run(context.Background(), Options{Dialect: plan.Dialect,
		Upstream: &Upstream{Name: "replay", Handler: fx, Path: fx.Paths()[0], Shutdown: fx.Shutdown, Judge: fx.Judge},
		Command:  []string{os.Args[0], "-test.run=^TestClientProcess$"}, UpstreamChanged: changed,
		Stdout: &out, Stderr: &out, Console: &out, Color: "never", Timeout: 30 * time.Second})
	if err != nil || !res.Passed() {
		t.Fatalf("%v %v\n%s", err, res.CommandErr, out.String())
	}
	rows := 0
	for _, d := range res.Report.Replays {
		rows += len(d.Rows)
	}
	mu.Lock()
	defer mu.Unlock()
	if notices < 2 || !lastDone || lastRows != rows || rows == 0 {
		t.Errorf("%d notices; the last saw every connection done %v and %d rows, want %d",
			notices, lastDone, lastRows, rows)
	}
}
