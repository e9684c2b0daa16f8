package runner

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// predicate is a test on one member of a message, written in a step after
// the member's path: `is "running"`, `is not null`, `exists`, `is absent`,
// `is a string`, `is at least 3`, `has 2 items`, `contains "x"`,
// `does not contain "x"`, `is null or absent`, `is one of ["a","b"]`.
type predicate struct {
	text string
	test func(v any, present bool) (ok bool, expected string)
}

var (
	reKind    = regexp.MustCompile(`^is an? (string|number|integer|boolean|object|array|null)$`)
	reCompare = regexp.MustCompile(`^is (at least|at most|greater than|less than) (\S+)$`)
	reItems   = regexp.MustCompile(`^has (\d+) items?$`)
)

// parsePredicate reads a predicate after variables were expanded.
func parsePredicate(s string) (predicate, error) {
	s = strings.TrimSpace(s)
	p := predicate{text: s}
	switch {
	case s == "exists":
		p.test = func(_ any, present bool) (bool, string) { return present, "present" }
	case s == "is absent":
		p.test = func(_ any, present bool) (bool, string) { return !present, "absent" }
	case s == "is null or absent":
		p.test = func(v any, present bool) (bool, string) { return !present || v == nil, "null or absent" }
	case strings.HasPrefix(s, "does not contain "):
		want := literal(strings.TrimPrefix(s, "does not contain "))
		p.test = func(v any, present bool) (bool, string) {
			return present && !contains(v, want), "something not containing " + show(want)
		}
	case reKind.MatchString(s):
		want := reKind.FindStringSubmatch(s)[1]
		p.test = func(v any, present bool) (bool, string) {
			return present && kindIs(v, want), article(want) + want
		}
	case reCompare.MatchString(s):
		m := reCompare.FindStringSubmatch(s)
		bound, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return p, harnessf("predicate %q: %s is not a number", s, m[2])
		}
		p.test = func(v any, present bool) (bool, string) {
			n, ok := number(v)
			return present && ok && compare(m[1], n, bound), m[1] + " " + m[2]
		}
	case reItems.MatchString(s):
		n, _ := strconv.Atoi(reItems.FindStringSubmatch(s)[1])
		p.test = func(v any, present bool) (bool, string) {
			a, ok := v.([]any)
			return present && ok && len(a) == n, fmt.Sprintf("an array of %d items", n)
		}
	case strings.HasPrefix(s, "contains "):
		want := literal(strings.TrimPrefix(s, "contains "))
		p.test = func(v any, present bool) (bool, string) {
			return present && contains(v, want), "something containing " + show(want)
		}
	case strings.HasPrefix(s, "mentions "):
		want, _ := literal(strings.TrimPrefix(s, "mentions ")).(string)
		p.test = func(v any, present bool) (bool, string) {
			return present && mentions(v, want), "something whose text mentions " + show(want)
		}
	case strings.HasPrefix(s, "is one of "):
		list, ok := literal(strings.TrimPrefix(s, "is one of ")).([]any)
		if !ok {
			return p, harnessf("predicate %q: write the choices as a JSON array", s)
		}
		p.test = func(v any, present bool) (bool, string) {
			for _, c := range list {
				if present && equal(c, v) {
					return true, ""
				}
			}
			return false, "one of " + show(list)
		}
	case strings.HasPrefix(s, "is not "):
		want := literal(strings.TrimPrefix(s, "is not "))
		p.test = func(v any, present bool) (bool, string) {
			return present && !equal(v, want), "not " + show(want)
		}
	case strings.HasPrefix(s, "is "):
		raw := strings.TrimPrefix(s, "is ")
		if _, err := decodeJSON(raw); err != nil && strings.ContainsAny(raw, " \t") {
			return p, harnessf("predicate %q: unknown form; quote a string with spaces (is \"a b\")", s)
		}
		want := literal(raw)
		p.test = func(v any, present bool) (bool, string) {
			return present && equal(v, want), show(want)
		}
	default:
		return p, harnessf("unknown predicate %q (try: is V, is not V, exists, is absent, is null or absent, does not contain V, is a string, is at least N, has N items, contains V, mentions \"text\", is one of [..])", s)
	}
	return p, nil
}

func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an "
	}
	return "a "
}

func kindIs(v any, want string) bool {
	if want == "integer" {
		_, ok := jsonx.Int64(v)
		return ok
	}
	return jsonx.Kind(v) == want
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func compare(op string, n, bound float64) bool {
	switch op {
	case "at least":
		return n >= bound
	case "at most":
		return n <= bound
	case "greater than":
		return n > bound
	}
	return n < bound
}

func contains(v, want any) bool {
	switch x := v.(type) {
	case string:
		w, ok := want.(string)
		return ok && strings.Contains(x, w)
	case []any:
		for _, e := range x {
			if _, ok := subset(want, e, ""); ok {
				return true
			}
		}
	case map[string]any:
		_, ok := subset(want, x, "")
		return ok
	}
	return false
}

// describeValue renders what a predicate saw.
func describeValue(v any, present bool) string {
	if !present {
		return "absent"
	}
	return show(v)
}
