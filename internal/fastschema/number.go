package fastschema

import (
	"encoding/json"
	"math/big"
	"strconv"
)

// maxLiteral and maxExponentDigits bound the number literals this package
// reads itself. big.Rat.SetString, which gojsonschema calls on every
// number, refuses a decimal exponent beyond 1e6 (and gojsonschema then
// dereferences its nil result); within these bounds it never does.
const (
	maxLiteral        = 10000
	maxExponentDigits = 5
)

// literal is a JSON number literal split into its parts.
type literal struct {
	neg       bool
	int, frac string
	exp       int
	plain     bool // no fraction, no exponent
}

// splitLiteral parses a JSON number literal. ok is false for anything that
// is not one, or whose size puts it beyond what big.Rat reads (the caller
// then does not know).
func splitLiteral(s string) (l literal, ok bool) {
	if len(s) == 0 || len(s) > maxLiteral {
		return l, false
	}
	i := 0
	if s[0] == '-' {
		l.neg, i = true, 1
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start || (s[start] == '0' && i-start > 1) {
		return l, false
	}
	l.int = s[start:i]
	l.plain = true
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == fs {
			return l, false
		}
		l.frac, l.plain = s[fs:i], false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		l.plain = false
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		es := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == es {
			return l, false
		}
		digits := trimLeftZeros(s[es:i])
		if len(digits) > maxExponentDigits {
			return l, false
		}
		e := 0
		for _, c := range []byte(digits) {
			e = e*10 + int(c-'0')
		}
		if eneg {
			e = -e
		}
		l.exp = e
	}
	if i != len(s) {
		return l, false
	}
	return l, true
}

func trimLeftZeros(s string) string {
	for len(s) > 0 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

// isInteger is gojsonschema's checkJSONInteger (big.Rat's IsInt) without
// big.Rat: the value is an integer when its digits, trailing zeros
// removed, need no negative power of ten.
func (l literal) isInteger() bool {
	if l.plain {
		return true
	}
	digits := trimLeftZeros(l.int + l.frac)
	if digits == "" {
		return true // zero
	}
	e := l.exp - len(l.frac)
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		e++
	}
	return e >= 0
}

// small returns the value of a plain integer literal that fits an int64
// with room to spare, for comparisons without big.Rat.
func (l literal) small() (int64, bool) {
	if !l.plain || len(l.int) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range []byte(l.int) {
		v = v*10 + int64(c-'0')
	}
	if l.neg {
		v = -v
	}
	return v, true
}

// bound is a number from the schema (minimum, maximum, multipleOf …), as
// big.Rat, the type gojsonschema compares with, and as an int64 when it is
// a small integer.
type bound struct {
	rat   *big.Rat
	small int64
	isInt bool
}

func newBound(v any) (*bound, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return nil, false
	}
	b := &bound{rat: r}
	if r.IsInt() && r.Num().IsInt64() {
		if x := r.Num().Int64(); x > -1<<62 && x < 1<<62 {
			b.small, b.isInt = x, true
		}
	}
	return b, true
}

// cmp compares the instance number with the bound as big.Rat.Cmp would.
func (b *bound) cmp(s string, l literal) int {
	if b.isInt {
		if v, ok := l.small(); ok {
			switch {
			case v < b.small:
				return -1
			case v > b.small:
				return 1
			}
			return 0
		}
	}
	r, _ := new(big.Rat).SetString(s) // splitLiteral accepted it: it parses
	return r.Cmp(b.rat)
}

// multiple reports whether the instance divided by the bound is an
// integer, as gojsonschema's multipleOf does.
func (b *bound) multiple(s string, l literal) bool {
	if b.isInt && b.small > 0 {
		if v, ok := l.small(); ok {
			return v%b.small == 0
		}
	}
	r, _ := new(big.Rat).SetString(s)
	return new(big.Rat).Quo(r, b.rat).IsInt()
}

// ratOf is the instance number as gojsonschema hands it to a format
// checker.
func ratOf(s string) *big.Rat {
	r, _ := new(big.Rat).SetString(s)
	return r
}

// floatOf is the number as encoding/json reads it into an any: the value
// const, enum and uniqueItems compare. ok is false where encoding/json
// fails (beyond float64), which makes gojsonschema panic.
func floatOf(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}
