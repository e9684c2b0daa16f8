package reftest

import (
	"sync/atomic"
	"time"
)

// Clock is a clock a test moves by hand (server.Config.Now: clk.Now);
// the server's goroutines read it while the test advances it.
type Clock struct{ offset atomic.Int64 }

// Now is a fixed instant plus every Advance so far.
func (c *Clock) Now() time.Time {
	return time.Unix(1_700_000_000, 0).Add(time.Duration(c.offset.Load()))
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) { c.offset.Add(int64(d)) }
