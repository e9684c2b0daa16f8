package runner

import (
	"regexp"
	"strings"
)

// varRef matches {name} in a feature's text. JSON objects never match: a
// JSON object's first character after "{" is a quote, a brace or a space.
var varRef = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_.-]*)\}`)

// expand replaces every {name} in s by the value of variable name. Values
// go in raw: write "{sid}" for a string in JSON and {eid} for a number.
// An unknown variable is a mistake in the feature, a harness error.
func expand(s string, vars map[string]string) (string, error) {
	var missing []string
	out := varRef.ReplaceAllStringFunc(s, func(m string) string {
		name := m[1 : len(m)-1]
		if v, ok := vars[name]; ok {
			return v
		}
		missing = append(missing, name)
		return m
	})
	if len(missing) > 0 {
		return "", harnessf("unknown variable {%s} (remember it first, or pass --var %s=VALUE)",
			missing[0], missing[0])
	}
	return out, nil
}

// varText renders a decoded JSON value as a variable: strings as their
// text, anything else as JSON, so "{sid}" and {eid} both read naturally.
func varText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return strings.TrimSpace(string(canonical(v)))
}
