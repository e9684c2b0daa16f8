package requirements

import (
	"fmt"
	"regexp"
	"strings"
)

// Collapse turns every run of white space into one space and trims the
// ends: a quote may wrap where the spec does not, and a table row's
// padding is not part of its words. Nothing else is normalised: backticks,
// asterisks, case and punctuation must be as in the spec.
func Collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// CheckQuotes reports every requirement whose quote is not found verbatim
// (white space collapsed) in spec, the text of the registry's spec file.
func CheckQuotes(reg *Registry, spec string) []error {
	text := Collapse(spec)
	var errs []error
	for _, q := range reg.Requirements {
		if !strings.Contains(text, Collapse(q.Quote)) {
			errs = append(errs, &Problem{File: reg.File, Line: q.Line,
				Msg: fmt.Sprintf("%s: quote not found in %s: %q", q.ID, reg.Spec, q.Quote)})
		}
	}
	return errs
}

// The words that make a quote stated, by level. A MUST-like requirement
// carries a normative word, a guarantee (every, all, only, monotonic,
// total ordering, unique, idempotent, mutually exclusive, a maximum,
// authoritative, serialized, is ignored, includes, are numbered, are
// retried, prevents, maintains, stable, normalized, gated), or says in the
// present tense what a party does (the server sends, receives, emits,
// forwards, replies, returns, responds, echoes, instructs, rejects,
// blocks; a message is the response to or the result of another):
// informal specs state behaviour that way. A message's own definition, the
// quote opening with its heading ("### reset Clear conversation history
// and todos."), is stated by where it stands, like a test matrix line. A SHOULD-like one says should or recommended; a MAY
// says may, optional or can. The lists are deliberately short: a quote
// that only describes ("Human-readable button text", "Client acknowledges
// receipt") is shown, not stated.
var statedWords = map[Level]*regexp.Regexp{
	Must: regexp.MustCompile(`(?i)\b(` +
		`must|required|requires|shall|never|always|only|cannot|do not|` +
		`every|all|guarantee[sd]?|monotonic(ally)?|total ordering|unique|idempotent|mutually exclusive|max|maximum|` +
		`authoritative|serialized|is ignored|considered complete|is included|includes|are numbered|are retried|prevents|maintains|stable|normalized|gated|` +
		`sends|sent|receives|emits|emitted|forwards|replies|returns|returned|responds|response to|result of|echo|echoes|instructs|rejects|blocks?|destroys|disposes|creates|detects|supports|prints|uses this to` +
		`)\b`),
	Should: regexp.MustCompile(`(?i)\b(should|recommended)\b`),
	May:    regexp.MustCompile(`(?i)\b(may|optional(ly)?|can)\b`),
}

// typeSyntax is what makes a quote a type definition: a member and its
// type (name: type, a table row), a union, a Literal, an enum, an
// interface or a class, or the direction a message travels (a → b), which
// a spec's section headings declare for every message under them.
var typeSyntax = regexp.MustCompile(`:|\||→|↔|\bLiteral\b|\benum\b|\binterface\b|\btype\b|\bclass\b`)

// inTestMatrix reports whether a requirement is a line of the spec's test
// matrix: stated by where it stands, whatever its words.
func inTestMatrix(q Requirement) bool {
	return strings.Contains(strings.ToLower(q.Section), "test matrix")
}

// ownHeading matches a quote that opens with a markdown heading naming one
// message and goes on with its definition.
var ownHeading = regexp.MustCompile("^#{2,4} `?[A-Za-z0-9_.]+`? \\S")

// isDefinition reports whether a MUST-like requirement quotes a message's
// own definition under its heading: what the message is or does is stated
// by where it stands.
func isDefinition(q Requirement) bool {
	return q.Level == Must && ownHeading.MatchString(Collapse(q.Quote))
}

// CheckWording reports a stated requirement whose quote lacks the words
// (for a must, should or may) or the type syntax (for a type) that make it
// stated. Shown requirements and interpretations are not checked: their
// quote is what the spec shows or is silent around.
func CheckWording(q Requirement) error {
	if q.Evidence != Stated || inTestMatrix(q) || isDefinition(q) {
		return nil
	}
	if q.Level == Type {
		if !typeSyntax.MatchString(q.Quote) {
			return fmt.Errorf("%s: a stated type, but the quote has no type syntax (name: type, |, →, Literal, enum, interface, type, class)", q.ID)
		}
		return nil
	}
	words, ok := statedWords[q.Level]
	if !ok {
		return fmt.Errorf("%s: level %q has no stated wording", q.ID, q.Level)
	}
	if !words.MatchString(q.Quote) {
		return fmt.Errorf("%s: stated %s, but the quote has none of the words that make it so (%s)", q.ID, q.Level, levelWords[q.Level])
	}
	return nil
}

// levelWords names, for a message, what a level's words are.
var levelWords = map[Level]string{
	Must:   "a normative word, a guarantee or a stated behaviour: must, never, only, every, monotonic, sends, returns …",
	Should: "should, recommended",
	May:    "may, optional, can",
}
