// Package check is the one check engine behind every feeder: the proxy
// (live frames), the conformance runner (frames its scenarios exchange) and
// the offline validator (frames read from a recording).
//
// A Session is fed the frames of one logical session in order and returns
// Findings as values. Every finding names a Rule from the catalogue: a
// stable id, a severity (error = the spec's MUST, warning = SHOULD or a spec
// ambiguity, info) and the spec section it comes from.
//
// The stateless rules (frame decoding, schema, ambiguity) apply to every
// dialect from its manifest; the stateful rules (sequence, replay, state)
// live in one file per dialect.
package check
