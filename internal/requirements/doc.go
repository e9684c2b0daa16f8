// Package requirements reads a dialect's requirement registry: every
// requirement its spec states (a normative sentence, a type, an enum, a
// closed union, an explicit guarantee, a line of the spec's test matrix),
// and every reading we chose where the spec is silent, each with a stable
// id, the spec section, the spec's own words, its evidence and its level.
//
// The registry is data, features/<dialect>/requirements.json, so that a
// protocol team reads and reviews it without reading Go, and a sixth
// dialect brings its own. Rules and scenarios cite its ids; the severity of
// a finding comes from the cited requirement's evidence and level (DESIGN.md,
// "Requirements: the spine"), so one requirement has one severity
// everywhere.
//
// A registry file is user input as much as ours (--requirements FILE), so
// Parse never panics and names the file and line of every problem it finds:
// a duplicate id, an unknown evidence or level word, an empty quote, an
// interpretation without the reading we chose, an id outside the dialect,
// an unknown member. The meta-tests of this package keep the embedded
// registries honest against the specs: every quote is found verbatim in its
// spec file, and every stated requirement's quote carries the words or the
// type syntax that make it stated.
package requirements
