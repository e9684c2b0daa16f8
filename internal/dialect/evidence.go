package dialect

import (
	"strings"
)

// SchemaEvidence is a schema's "x-evidence" keyword: what the spec gives
// for the message's shape (Kind: stated, shown or interpretation, with the
// words in Quote), and, by JSON pointer into the message, the members whose
// evidence differs ("/providers/*/account": only an example shows it). A
// "*" token stands for any array index. The check engine caps a schema
// finding's severity by the evidence at its pointer.
type SchemaEvidence struct {
	Kind    string                    `json:"kind"`
	Quote   string                    `json:"quote"`
	Members map[string]MemberEvidence `json:"members,omitempty"`
}

// MemberEvidence is the evidence for one member and everything under it.
type MemberEvidence struct {
	Kind  string `json:"kind"`
	Quote string `json:"quote"`
}

// EvidenceAt returns the evidence for a JSON pointer into a message: that
// of the longest member entry that is the pointer or one of its ancestors,
// or the schema's own.
func (s *Schema) EvidenceAt(pointer string) MemberEvidence {
	best, bestLen := MemberEvidence{Kind: s.Evidence.Kind, Quote: s.Evidence.Quote}, -1
	if len(s.Evidence.Members) == 0 {
		return best
	}
	toks := pointerTokens(pointer)
	for key, ev := range s.Evidence.Members {
		kt := pointerTokens(key)
		if len(kt) > len(toks) || len(kt) <= bestLen {
			continue
		}
		if tokensMatch(kt, toks[:len(kt)]) {
			best, bestLen = ev, len(kt)
		}
	}
	return best
}

// GenericPointer replaces the array indexes of a pointer with "*", so that
// one member of every element of an array is one key.
func GenericPointer(pointer string) string {
	toks := pointerTokens(pointer)
	for i, t := range toks {
		if isIndex(t) {
			toks[i] = "*"
		}
	}
	if len(toks) == 0 {
		return ""
	}
	return "/" + strings.Join(toks, "/")
}

func pointerTokens(p string) []string {
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func tokensMatch(pattern, toks []string) bool {
	for i, t := range pattern {
		if t != toks[i] && !(t == "*" && isIndex(toks[i])) {
			return false
		}
	}
	return true
}

func isIndex(t string) bool {
	if t == "" {
		return false
	}
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
