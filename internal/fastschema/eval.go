package fastschema

import (
	"encoding/json"
	"regexp"
	"unicode/utf8"

	"github.com/xeipuuv/gojsonschema"
)

// result is a subschema's verdict. Only the root's valid reaches callers.
type result uint8

const (
	unknown result = iota
	valid
	invalid
)

// and is the verdict of a conjunction: one invalid part makes it invalid
// (gojsonschema reports that part's error whatever the others say), an
// unknown part makes it unknown otherwise.
func and(r, s result) result {
	switch {
	case r == invalid || s == invalid:
		return invalid
	case r == unknown || s == unknown:
		return unknown
	}
	return valid
}

// maxNesting bounds subschema evaluation: a $ref cycle that consumes no
// data would recurse for ever (and gojsonschema with it).
const maxNesting = 10000

// state is one validation's: whether gojsonschema might not answer at all
// (it panics on some numbers), in which case no verdict stands.
type state struct {
	poisoned bool
	nesting  int
}

// types is a set of JSON types.
type types uint8

const (
	tNull types = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tInteger
	tString
)

var typeNames = map[string]types{"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "integer": tInteger, "string": tString}

// node is one compiled subschema. Its fields are gojsonschema's subSchema
// fields, with the same meaning.
type node struct {
	why  string // not empty: this subschema is not compiled (says why)
	pass int8   // 1: the schema true, -1: false
	ref  *node

	types types // 0: untyped

	props        []prop
	propIndex    map[string]bool // names of props, when there are many
	patterns     []pattern
	additional   addl
	propNames    *node
	required     []string
	minProps     int // -1: none
	maxProps     int
	dependencies []dependency

	items       []*node
	itemsSingle bool
	addItems    addl
	minItems    int
	maxItems    int
	unique      bool
	contains    *node

	minLen, maxLen int
	pattern        *regexp.Regexp
	format         string
	hasFormat      bool
	dateTime       bool // format is date-time, checked by isDateTime

	multipleOf, minimum, maximum, exclMin, exclMax *bound

	hasConst    bool
	constV      any
	enum        []any
	enumStrings map[string]bool // the enum, when all its values are strings

	allOf, anyOf, oneOf []*node
	not                 *node
	ifN, thenN, elseN   *node
}

type prop struct {
	name string
	n    *node
}

type pattern struct {
	re *regexp.Regexp
	n  *node
}

type dependency struct {
	key    string
	keys   []string
	schema *node
}

// addl is additionalProperties or additionalItems: absent, false, true or
// a schema.
type addl struct {
	set    bool
	forbid bool
	schema *node
}

func (n *node) eval(v any, st *state) result {
	st.nesting++
	if st.nesting > maxNesting {
		st.poisoned = true
		st.nesting--
		return unknown
	}
	r := n.evalHere(v, st)
	st.nesting--
	return r
}

func (n *node) evalHere(v any, st *state) result {
	if n.why != "" {
		scanPoison(v, st)
		return unknown
	}
	switch n.pass {
	case 1:
		return valid
	case -1:
		return invalid
	}
	if n.ref != nil {
		return n.ref.eval(v, st)
	}
	r := valid
	switch x := v.(type) {
	case nil:
		if n.types != 0 && n.types&tNull == 0 {
			return invalid
		}
	case bool:
		if n.types != 0 && n.types&tBoolean == 0 {
			return invalid
		}
	case string:
		if n.types != 0 && n.types&tString == 0 {
			return invalid
		}
		r = n.evalString(x)
	case json.Number:
		l, ok := splitLiteral(string(x))
		if !ok {
			st.poisoned = true
			return unknown
		}
		if n.types != 0 && n.types&tNumber == 0 && (n.types&tInteger == 0 || !l.isInteger()) {
			return invalid
		}
		r = n.evalNumber(string(x), l)
	case []any:
		if n.types != 0 && n.types&tArray == 0 {
			return invalid
		}
		r = n.evalArray(x, st)
	case map[string]any:
		if n.types != 0 && n.types&tObject == 0 {
			return invalid
		}
		r = n.evalObject(x, st)
	default:
		// Not a value jsonx decodes: nothing here knows what
		// gojsonschema makes of it.
		st.poisoned = true
		return unknown
	}
	r = and(r, n.evalCombinators(v, st))
	if n.hasConst || n.enum != nil {
		r = and(r, n.evalConst(v, st))
	}
	return r
}

// evalCombinators is gojsonschema's validateSchema. Every subschema
// gojsonschema evaluates is evaluated here too (more at times, never
// fewer), so that a number it would panic on is seen.
func (n *node) evalCombinators(v any, st *state) result {
	r := valid
	if len(n.anyOf) > 0 {
		any := invalid
		for _, s := range n.anyOf {
			switch s.eval(v, st) {
			case valid:
				any = valid
			case unknown:
				any = unknown
			}
			if any == valid {
				break
			}
		}
		r = and(r, any)
	}
	if len(n.oneOf) > 0 {
		nValid, nUnknown := 0, 0
		for _, s := range n.oneOf {
			switch s.eval(v, st) {
			case valid:
				nValid++
			case unknown:
				nUnknown++
			}
		}
		switch {
		case nValid > 1:
			r = and(r, invalid)
		case nUnknown > 0:
			r = and(r, unknown)
		case nValid == 1:
		default:
			r = and(r, invalid)
		}
	}
	for _, s := range n.allOf {
		r = and(r, s.eval(v, st))
	}
	if n.not != nil {
		switch n.not.eval(v, st) {
		case valid:
			r = and(r, invalid)
		case unknown:
			r = and(r, unknown)
		}
	}
	if m, ok := v.(map[string]any); ok {
		for _, d := range n.dependencies {
			if _, present := m[d.key]; !present {
				continue
			}
			for _, k := range d.keys {
				if _, ok := m[k]; !ok {
					r = and(r, invalid)
				}
			}
			if d.schema != nil {
				r = and(r, d.schema.eval(v, st))
			}
		}
	}
	if n.ifN != nil {
		r = and(r, n.evalIf(v, st))
	}
	return r
}

func (n *node) evalIf(v any, st *state) result {
	branch := func(s *node) result {
		if s == nil {
			return valid
		}
		return s.eval(v, st)
	}
	switch n.ifN.eval(v, st) {
	case valid:
		return branch(n.thenN)
	case invalid:
		return branch(n.elseN)
	}
	t, e := branch(n.thenN), branch(n.elseN)
	if t == e && t != unknown {
		return t
	}
	return unknown
}

func (n *node) evalConst(v any, st *state) result {
	if s, ok := v.(string); ok {
		// The common case, without walking anything.
		if !utf8.ValidString(s) {
			return unknown
		}
		r := valid
		if n.hasConst {
			if c, ok := n.constV.(string); !ok || c != s {
				r = invalid
			}
		}
		if n.enum != nil {
			if n.enumStrings != nil {
				if !n.enumStrings[s] {
					r = invalid
				}
			} else if !n.inEnum(v) {
				r = invalid
			}
		}
		return r
	}
	if marshalSafe(v, st) != valid {
		return unknown
	}
	r := valid
	if n.hasConst && !equalCanon(v, n.constV) {
		r = invalid
	}
	if n.enum != nil && !n.inEnum(v) {
		r = invalid
	}
	return r
}

func (n *node) inEnum(v any) bool {
	for _, c := range n.enum {
		if equalCanon(v, c) {
			return true
		}
	}
	return false
}

func (n *node) evalString(s string) result {
	if n.minLen >= 0 || n.maxLen >= 0 {
		c := utf8.RuneCountInString(s)
		if (n.minLen >= 0 && c < n.minLen) || (n.maxLen >= 0 && c > n.maxLen) {
			return invalid
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		return invalid
	}
	if n.dateTime {
		if !isDateTime(s) {
			return invalid
		}
	} else if n.hasFormat && !gojsonschema.FormatCheckers.IsFormat(n.format, s) {
		return invalid
	}
	return valid
}

func (n *node) evalNumber(s string, l literal) result {
	r := valid
	if n.multipleOf != nil && !n.multipleOf.multiple(s, l) {
		r = invalid
	}
	if n.maximum != nil && n.maximum.cmp(s, l) > 0 {
		r = invalid
	}
	if n.exclMax != nil && n.exclMax.cmp(s, l) >= 0 {
		r = invalid
	}
	if n.minimum != nil && n.minimum.cmp(s, l) < 0 {
		r = invalid
	}
	if n.exclMin != nil && n.exclMin.cmp(s, l) <= 0 {
		r = invalid
	}
	if n.hasFormat && !gojsonschema.FormatCheckers.IsFormat(n.format, ratOf(s)) {
		r = invalid
	}
	return r
}

func (n *node) evalObject(m map[string]any, st *state) result {
	r := valid
	if (n.minProps >= 0 && len(m) < n.minProps) || (n.maxProps >= 0 && len(m) > n.maxProps) {
		r = invalid
	}
	for _, k := range n.required {
		if _, ok := m[k]; !ok {
			r = invalid
		}
	}
	declared := 0
	for _, p := range n.props {
		if e, ok := m[p.name]; ok {
			declared++
			r = and(r, p.n.eval(e, st))
		}
	}
	// With every member a declared property and no patterns, no member
	// is additional: the walk below would find nothing.
	if len(n.patterns) > 0 || (n.additional.set && declared < len(m)) {
		for k, e := range m {
			matched := false
			for _, p := range n.patterns {
				if p.re.MatchString(k) {
					matched = true
					r = and(r, p.n.eval(e, st))
				}
			}
			if matched || !n.additional.set || n.hasProp(k) {
				continue
			}
			switch {
			case n.additional.forbid:
				r = invalid
			case n.additional.schema != nil:
				r = and(r, n.additional.schema.eval(e, st))
			}
		}
	}
	if n.propNames != nil {
		for k := range m {
			r = and(r, n.propNames.eval(k, st))
		}
	}
	return r
}

func (n *node) hasProp(k string) bool {
	if n.propIndex != nil {
		return n.propIndex[k]
	}
	for _, p := range n.props {
		if p.name == k {
			return true
		}
	}
	return false
}

// maxUnique bounds the pairwise comparison of uniqueItems.
const maxUnique = 1000

func (n *node) evalArray(a []any, st *state) result {
	r := valid
	if n.itemsSingle {
		for _, e := range a {
			r = and(r, n.items[0].eval(e, st))
		}
	} else if len(n.items) > 0 {
		for i := 0; i < len(n.items) && i < len(a); i++ {
			r = and(r, n.items[i].eval(a[i], st))
		}
		if len(n.items) < len(a) && n.addItems.set {
			switch {
			case n.addItems.forbid:
				r = invalid
			case n.addItems.schema != nil:
				for _, e := range a[len(n.items):] {
					r = and(r, n.addItems.schema.eval(e, st))
				}
			}
		}
	}
	if (n.minItems >= 0 && len(a) < n.minItems) || (n.maxItems >= 0 && len(a) > n.maxItems) {
		r = invalid
	}
	if n.unique {
		r = and(r, unique(a, st))
	}
	if n.contains != nil {
		c := invalid
		for _, e := range a {
			switch n.contains.eval(e, st) {
			case valid:
				c = valid
			case unknown:
				c = unknown
			}
			if c == valid {
				break
			}
		}
		r = and(r, c)
	}
	return r
}

func unique(a []any, st *state) result {
	if marshalSafe(a, st) != valid || len(a) > maxUnique {
		return unknown
	}
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if equalValues(a[i], a[j]) {
				return invalid
			}
		}
	}
	return valid
}

// scanPoison looks through a value a subschema this package did not
// compile would see, for numbers gojsonschema panics on.
func scanPoison(v any, st *state) {
	switch x := v.(type) {
	case nil, bool, string:
	case json.Number:
		if _, ok := splitLiteral(string(x)); !ok {
			st.poisoned = true
		} else if _, ok := floatOf(string(x)); !ok {
			st.poisoned = true
		}
	case []any:
		for _, e := range x {
			scanPoison(e, st)
		}
	case map[string]any:
		for _, e := range x {
			scanPoison(e, st)
		}
	default:
		st.poisoned = true
	}
}
