package dialect

import (
	"github.com/wsconform/wsconform/internal/wire"
)

// Manifest is the parsed schemas/<dialect>/manifest.json; schemas/README.md
// documents every key.
type Manifest struct {
	Dialect   string                      `json:"dialect"`
	Title     string                      `json:"title"`
	Spec      string                      `json:"spec"`
	TypeField string                      `json:"typeField"`
	Paths     []string                    `json:"paths"`
	Messages  map[wire.Direction][]string `json:"messages"`
	HTTP      []string                    `json:"http"`
	// HTTPEndpoints are the HTTP requests of the protocol (endpoints.go).
	HTTPEndpoints []HTTPEndpoint                       `json:"httpEndpoints"`
	Ordering      Ordering                             `json:"ordering"`
	Replay        Replay                               `json:"replay"`
	Removed       map[wire.Direction]map[string]string `json:"removed"`
	// Closed quotes, per direction, the spec's words or type that close the
	// set of message types (minicodex's ServerMessage union). Where a
	// direction's set is closed an unlisted type is an error; elsewhere it
	// is an undocumented type, a warning.
	Closed         map[wire.Direction]string `json:"closed"`
	AmbiguitySpecs []AmbiguitySpec           `json:"ambiguities"`
}

// Ordering names the field that orders a dialect's events.
type Ordering struct {
	Pointer   string         `json:"pointer"`
	Scope     string         `json:"scope"`
	Direction wire.Direction `json:"direction"`
	Spec      string         `json:"spec"`
}

// Replay says which client messages ask for a replay.
type Replay struct {
	Requests []string `json:"requests"`
	Spec     string   `json:"spec"`
}

// AmbiguitySpec is a contradiction inside a spec: a message of one of Types
// is judged against every reading, and one that does not meet them all gets
// a non-strict finding with rule ID.
type AmbiguitySpec struct {
	ID        string         `json:"id"`
	Direction wire.Direction `json:"direction"`
	Types     []string       `json:"types"`
	Summary   string         `json:"summary"`
	Spec      string         `json:"spec"`
	// Quote is the contradicting passages, as the spec words them.
	Quote    string        `json:"quote"`
	Readings []ReadingSpec `json:"readings"`
}

// ReadingSpec is one way to read an ambiguous passage, as a schema.
type ReadingSpec struct {
	Name   string         `json:"name"`
	Schema map[string]any `json:"schema"`
}
