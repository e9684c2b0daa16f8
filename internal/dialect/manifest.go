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
	// RuleSet names the built-in stateful rules (sequence, replay, state)
	// that judge this dialect, when they are not its own: a protocol
	// imported from an AsyncAPI document names them in x-wsconform.ruleSet.
	// Empty means the dialect's own name; a protocol with neither gets the
	// generic rules its Pairs, Ordering and Replay describe.
	RuleSet string `json:"ruleSet,omitempty"`
	// Pairs are the request/reply pairs of an imported protocol (AsyncAPI
	// operation reply with a correlationId): a reply names a request sent
	// before it on the same connection.
	Pairs []Pair `json:"pairs,omitempty"`
}

// Pair is one request type, the types that answer it and where both carry
// the id that ties them (JSON pointers, AsyncAPI correlationId locations
// without their "$message.payload#" prefix).
type Pair struct {
	Request     string         `json:"request"`
	RequestDir  wire.Direction `json:"requestDir"`
	Replies     []string       `json:"replies"`
	RequestID   string         `json:"requestId"`
	ReplyID     string         `json:"replyId"`
	Operation   string         `json:"operation,omitempty"`
	Description string         `json:"description,omitempty"`
}

// Ordering names the field that orders a dialect's events.
type Ordering struct {
	Pointer   string         `json:"pointer"`
	Scope     string         `json:"scope"`
	Direction wire.Direction `json:"direction"`
	Spec      string         `json:"spec"`
	// Evidence and Quote are what the spec gives for the order (an
	// imported protocol's x-wsconform.ordering); the generic ordering rule
	// is an error only on stated evidence with a quote.
	Evidence string `json:"evidence,omitempty"`
	Quote    string `json:"quote,omitempty"`
	// Types are the message types the generic ordering rule judges; empty:
	// every message of Direction that carries the member.
	Types []string `json:"types,omitempty"`
}

// Replay says which client messages ask for a replay.
type Replay struct {
	Requests []string `json:"requests"`
	Spec     string   `json:"spec"`
	// Ignore lists the members (JSON pointers) a re-delivered event may
	// change, for the generic replay rule of an imported protocol.
	Ignore []string `json:"ignore,omitempty"`
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
