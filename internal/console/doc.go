// Package console prints findings and summaries for people: one colored
// line per finding with its rule, then expected vs actual, the diff and the
// spec section. Color follows the usual conventions: on for terminals, off
// for pipes and files, off whenever NO_COLOR is set.
//
// What a peer sent reaches a terminal through here, so the Printer makes
// every argument safe on its way out (safe.go): redacted as the reports
// are, and escaped (Escape, escape.go) so that control characters, C1,
// bidi controls and invalid UTF-8 are shown, never obeyed. Only format
// strings, the tool's own words, start lines and carry colour.
package console
