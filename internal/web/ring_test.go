package web

import (
	"sync"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/proxy"
	"github.com/wsconform/wsconform/reports"
)

func frameEv(i int64) *proxy.LiveEvent {
	return &proxy.LiveEvent{Kind: proxy.LiveFrame, Time: time.Unix(0, 0), Conn: "c1", Index: i, Payload: []byte(`{"type":"x"}`), Size: 12}
}

// TestRingAbsentReader: with no page at all, publishing goes round the
// ring any number of times without waiting, and a page that opens then
// gets the window of the newest events.
func TestRingAbsentReader(t *testing.T) {
	r := newRing(8)
	for i := int64(1); i <= 1000; i++ {
		r.publish(frameEv(i))
	}
	items, next, lost, wake := r.read(0, 100, nil)
	if len(items) != 8 || lost != 0 || next != 1001 || wake != nil || items[0].ev.Index != 993 || items[7].ev.Index != 1000 {
		t.Fatalf("a new page: %d items (first %d), lost %d, next %d", len(items), items[0].ev.Index, lost, next)
	}
	if r.totals().Frames != 1000 {
		t.Errorf("totals %+v", r.totals())
	}
}

// TestRingSlowReader: a page that read up to id 10 and comes back after
// the ring went round loses what was overwritten, counted; one that asks
// for fewer frames than are waiting skips the older frames (counted) but
// never a connection event or a finding.
func TestRingSlowReader(t *testing.T) {
	r := newRing(16)
	for i := int64(1); i <= 40; i++ {
		r.publish(frameEv(i))
	}
	items, next, lost, _ := r.read(11, 100, nil)
	if lost != 40-16-10 || len(items) != 16 || next != 41 {
		t.Fatalf("lost %d, %d items, next %d", lost, len(items), next)
	}
	r.publish(&proxy.LiveEvent{Kind: proxy.LiveOpen, Conn: "c2"})
	f := reports.Finding{Finding: check.Finding{Rule: "r", Severity: check.Error, Frame: 42, Related: []int64{1}}}
	r.publish(&proxy.LiveEvent{Kind: proxy.LiveFinding, Finding: &f})
	for i := int64(43); i <= 50; i++ {
		r.publish(frameEv(i))
	}
	items, _, lost, _ = r.read(next, 3, items[:0])
	kinds := map[proxy.LiveKind]int{}
	for _, it := range items {
		kinds[it.ev.Kind]++
	}
	if lost != 5 || kinds[proxy.LiveFrame] != 3 || kinds[proxy.LiveOpen] != 1 || kinds[proxy.LiveFinding] != 1 {
		t.Fatalf("lost %d, kinds %v", lost, kinds)
	}
	// The reader's copy is its own: the ring overwriting the slot does not change it.
	var fi *item
	for i := range items {
		if items[i].ev.Kind == proxy.LiveFinding {
			fi = &items[i]
		}
	}
	for i := int64(0); i < 32; i++ {
		r.publish(&proxy.LiveEvent{Kind: proxy.LiveFinding, Finding: &reports.Finding{Finding: check.Finding{Rule: "other", Related: []int64{9}}}})
	}
	if fi.finding.Rule != "r" || fi.finding.Related[0] != 1 {
		t.Errorf("the reader's finding changed: %+v", fi.finding)
	}
}

// TestRingWake: a reader with nothing to read gets a channel that the
// next publish closes.
func TestRingWake(t *testing.T) {
	r := newRing(4)
	_, next, _, wake := r.read(0, 10, nil)
	if wake == nil {
		t.Fatal("no wake channel on an empty ring")
	}
	select {
	case <-wake:
		t.Fatal("woken before a publish")
	default:
	}
	r.publish(frameEv(1))
	<-wake // closed by the publish; a missing close hangs the test (its timeout)
	if items, _, _, _ := r.read(next, 10, nil); len(items) != 1 {
		t.Fatalf("%d items after the wake", len(items))
	}
}

// TestRingConcurrent: a publisher, a fast reader and a reader that never
// comes back, under -race: the publisher finishes whatever the readers do,
// and the fast reader sees ids in order, each once, with what it lost
// accounted for.
func TestRingConcurrent(t *testing.T) {
	r := newRing(64)
	const n = 20000
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := int64(1); i <= n; i++ {
			r.publish(frameEv(i))
		}
	}()
	_, _, _, _ = r.read(0, 1, nil) // the absent reader: asks once, never again
	var seen, lost uint64
	var last uint64
	from := uint64(1) // from the first id: what was overwritten before the first read counts as lost
	var items []item
	for seen+lost < n {
		var l uint64
		var wake <-chan struct{}
		items, from, l, wake = r.read(from, 1<<20, items[:0])
		lost += l
		for _, it := range items {
			if it.id <= last {
				t.Fatalf("id %d after %d", it.id, last)
			}
			last = it.id
			seen++
		}
		if wake != nil {
			<-wake
		}
	}
	wg.Wait()
	if seen+lost != n {
		t.Errorf("seen %d + lost %d != %d", seen, lost, n)
	}
}

// read is readInto without an arena: the payloads are shared with the ring.
func (r *ring) read(from uint64, maxFrames int, dst []item) (out []item, next, lost uint64, wake <-chan struct{}) {
	return r.readInto(from, maxFrames, dst, nil)
}
