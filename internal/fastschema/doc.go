// Package fastschema compiles a draft-07 JSON Schema into a tree of Go
// structs that answers one question about a decoded value: is it certainly
// valid? Its answers are "yes" and "I don't know", never "no": a caller
// runs gojsonschema whenever the answer is not "yes", so every finding keeps
// gojsonschema's wording, and this package only has to be right when it
// says "yes".
//
// It mirrors gojsonschema v1.2.0 exactly, quirks included, because that is
// the validator whose verdict it stands in for: integers are recognised
// with big.Rat (1.0 and 1e2 are integers), const, enum and uniqueItems
// compare values as json.Marshal renders them after a round trip through
// float64 (1 equals 1.0, 2^53+1 equals 2^53), lengths count runes, patterns
// are Go regexps matched anywhere, formats are gojsonschema's own
// FormatCheckers, an empty "items" array disables additionalItems, and
// $ref ignores its siblings.
//
// Internally every subschema answers valid, invalid or unknown, because
// not, oneOf and if/else turn an invalid answer into a valid one. Where
// gojsonschema itself would panic (a number beyond float64 under const or
// enum, an exponent big.Rat refuses) the whole answer becomes "don't know",
// whatever the rest says.
package fastschema
