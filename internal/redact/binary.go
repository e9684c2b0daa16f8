package redact

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// Binary returns a binary payload (a binary frame, a ping or pong) with
// its credentials redacted, whether anything was, and whether it was
// inspected as text. A payload that is UTF-8 text (JSON sent in a binary
// frame) is redacted as JSON redacts a text frame. Any other payload is
// searched for the token shapes (shapes.go) as ASCII, and each is
// overwritten in place by a mask as long as it (redacted(40)-----…), so
// that a length-prefixed format still parses; credentials it holds under
// a name (an apiKey field of MessagePack or protobuf), compressed or in
// another encoding are not found: text is false, and a report says so.
// p itself comes back when nothing was redacted.
func Binary(p []byte) (out []byte, changed, text bool) { return (*Scrubber)(nil).Binary(p) }

// Binary is the package's Binary that also remembers the secret values,
// and replaces the ones it remembers (as long as they were) in payloads
// that are not text.
func (s *Scrubber) Binary(p []byte) (out []byte, changed, text bool) {
	if utf8.Valid(p) {
		out, changed = s.JSON(p)
		return out, changed, true
	}
	out, changed = s.tokens(p, formBinary)
	if s.Len() == 0 {
		return out, changed, false
	}
	// Where the remembered secrets are, merged where they overlap, so
	// that the result does not depend on the order they are tried in.
	var spans [][2]int
	for v := range s.secrets {
		for k := 0; ; {
			i := bytes.Index(out[k:], []byte(v))
			if i < 0 {
				break
			}
			spans = append(spans, [2]int{k + i, k + i + len(v)})
			k += i + 1
		}
	}
	if len(spans) == 0 {
		return out, changed, false
	}
	if !changed {
		out = bytes.Clone(out)
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	start, end := spans[0][0], spans[0][1]
	for _, sp := range spans[1:] {
		if sp[0] <= end {
			end = max(end, sp[1])
			continue
		}
		copy(out[start:], binaryMask(end-start))
		start, end = sp[0], sp[1]
	}
	copy(out[start:], binaryMask(end-start))
	return out, true, false
}
