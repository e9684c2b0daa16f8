// Package jsonx is a strict RFC 8259 JSON decoder for frames from the wire.
//
// encoding/json silently replaces invalid UTF-8, keeps the last of duplicate
// keys and recurses without bound; a conformance checker must see all three.
// Decode builds the same generic values gojsonschema works on
// (map[string]any, []any, string, json.Number, bool, nil) in one pass and
// reports what it noticed as Issues instead of hiding it, so the check engine
// can turn each into a finding. It never panics on any input.
package jsonx
