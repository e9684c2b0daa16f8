package runner

import "time"

// Timeouts is the one place every wait of a scenario comes from, so that
// --timeout-scale stretches or shrinks them all together.
type Timeouts struct {
	// Receive bounds "receives X" when the step names no time.
	Receive time.Duration
	// Quiet is how long "receives no X" listens when the step names no time.
	Quiet time.Duration
	// Connect bounds a handshake (TCP, TLS and HTTP upgrade).
	Connect time.Duration
	// HTTP bounds a plain HTTP request.
	HTTP time.Duration
	// Scenario bounds a whole scenario, a last guard against a hang; a
	// scenario tagged @timeout:D has D instead (budget.go).
	Scenario time.Duration
	// Scale multiplies every duration, including those written in steps.
	Scale float64
}

// DefaultTimeouts suit a server on the same machine or network.
var DefaultTimeouts = Timeouts{
	Receive:  5 * time.Second,
	Quiet:    500 * time.Millisecond,
	Connect:  5 * time.Second,
	HTTP:     5 * time.Second,
	Scenario: 60 * time.Second,
	Scale:    1,
}

// scaled applies the scale to d.
func (t Timeouts) scaled(d time.Duration) time.Duration {
	if t.Scale <= 0 {
		return d
	}
	return time.Duration(float64(d) * t.Scale)
}
