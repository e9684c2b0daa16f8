// Package perf measures wsconform's figures for issue 26's table: the
// check engine per dialect, the proxy against a bare TCP relay, a direct
// connection and mitmproxy on the same upstream, memory across a long
// relay and many connections, `validate` of a large recording and the
// conformance suite against the reference. Each measure returns Figures;
// ci/bench runs them in interleaved rounds and prints medians.
//
// These are measurements, not tests: nothing here asserts a time.
package perf
