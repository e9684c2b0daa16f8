package proxy

import (
	"runtime"
	"sync"

	"github.com/wsconform/wsconform/internal/check"
)

// prejudgeWindow is how many events of a batch are prejudged at once,
// which bounds the decoded frames alive at a time.
const prejudgeWindow = 256

// minPrejudge is the smallest batch whose frames the validator prejudges
// on several goroutines: below it, handing work over costs more than it
// saves.
const minPrejudge = 16

// prejudge applies the stateless rules (decoding, the schema, the spec's
// contradictions: check.Prejudge) to the frames of a batch on every core,
// before the validator judges the batch in order with what they found
// (Grouper.FrameJudged). Those rules are most of a frame's judging and
// read nothing but the frame, so a burst is judged at the speed of the
// machine rather than of one goroutine, and the validator keeps up with
// the relay instead of counting frames it could not check. The findings
// are those the validator would make alone (check.TestObserveJudgedIsObserve).
func (v *validator) prejudge(batch []event) {
	if v.d == nil || len(batch) < minPrejudge {
		return
	}
	workers := min(runtime.GOMAXPROCS(0), len(batch)/minPrejudge)
	if workers < 2 {
		return
	}
	d, lim := v.d, v.p.cfg.Check.Limits
	var wg sync.WaitGroup
	chunk := (len(batch) + workers - 1) / workers
	for w := range workers {
		part := batch[min(w*chunk, len(batch)):min((w+1)*chunk, len(batch))]
		judge := func() {
			for i := range part {
				ev := &part[i]
				if ev.kind == evFrame && !ev.c.unjudged {
					ev.judged = check.Prejudge(d, ev.frame, lim)
				}
			}
		}
		if w == workers-1 {
			judge() // the validator takes the last share itself
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); judge() }()
	}
	wg.Wait()
}
