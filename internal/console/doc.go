// Package console prints findings and summaries for people: one colored
// line per finding with its rule, then expected vs actual, the diff and the
// spec section. Color follows the usual conventions: on for terminals, off
// for pipes and files, off whenever NO_COLOR is set.
package console
