package requirements

// Evidence is what the spec gives for a requirement (DESIGN.md's evidence
// policy). It is the same vocabulary as the check engine's rules, kept here
// as its own type so that this package stays a leaf the check engine can
// import.
type Evidence string

// The three kinds of evidence.
const (
	// Stated: MUST-like words, a type definition, a closed enum or union,
	// an explicit guarantee, or a line of the spec's test matrix.
	Stated Evidence = "stated"
	// Shown: only an example payload, a flow diagram or prose without a
	// type shows it.
	Shown Evidence = "shown"
	// Interpretation: the spec is silent and we chose a reading; checking it
	// is an observation, never a failure.
	Interpretation Evidence = "interpretation"
)

// Valid reports whether e is one of the three kinds.
func (e Evidence) Valid() bool { return e == Stated || e == Shown || e == Interpretation }

// Level is how strongly the spec's words bind: MUST-like, SHOULD-like, MAY,
// or a type definition (a required member, an enum or Literal, a closed
// union). With evidence it decides a violation's severity.
type Level string

// The four levels.
const (
	Must   Level = "must"
	Should Level = "should"
	May    Level = "may"
	Type   Level = "type"
)

// Valid reports whether l is one of the four levels.
func (l Level) Valid() bool { return l == Must || l == Should || l == May || l == Type }

// Requirement is one entry of a registry.
type Requirement struct {
	// ID is stable and readable: <dialect>.<area>.<what>, lowercase words
	// joined by dashes, parts by dots. Reports, tags (@req:ID) and
	// baselines use it, so it never changes once published.
	ID string `json:"id"`
	// Section is where the spec says it, "§Section / Subsection".
	Section string `json:"section"`
	// Quote is the spec's own words, exact up to runs of white space.
	Quote    string   `json:"quote"`
	Evidence Evidence `json:"evidence"`
	Level    Level    `json:"level"`
	// Reading is the reading we chose, required for an interpretation.
	Reading string `json:"reading,omitempty"`
	// Untested says why nothing can test the requirement yet (for
	// example "needs a second model provider"); empty when a rule or a
	// scenario cites it.
	Untested string `json:"untested,omitempty"`

	// Line is where the entry starts in its file, for messages.
	Line int `json:"-"`
}
