// Package gate is `wsconform gate`, the CI gate for client implementations:
// it starts the reference server and the recording proxy on loopback, runs
// the client's command with the proxy's URL in its environment, and judges
// every frame the client exchanged.
//
// Only the client is on trial. Findings on frames the client sent decide
// the verdict; findings on server frames (the reference server is known to
// be right, so they come from faults injected on purpose) are reported but
// not blamed on the client. The command's own exit status is judged too:
// the gate passes only when both are clean, and its report says which of
// the two failed.
//
// Faults are the reference server's. A fault that drops the server's TCP
// connection (drop-after) reaches the client as a dropped TCP connection
// too (1006), as it would without the proxy in between (the proxy's
// MirrorDrops).
package gate
