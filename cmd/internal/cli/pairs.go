package cli

import (
	"fmt"
	"net/http"
	"strings"
)

// ParseHeaders reads repeated `--header 'Key: Value'` flags into h.
func ParseHeaders(flag string, raw []string, h http.Header) error {
	for _, s := range raw {
		k, v, ok := strings.Cut(s, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return fmt.Errorf("%s %q: write it as 'Key: Value'", flag, s)
		}
		h.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	return nil
}

// ParsePairs reads repeated `--flag NAME=VALUE` flags into m.
func ParsePairs(flag string, raw []string, m map[string]string) error {
	for _, s := range raw {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return fmt.Errorf("%s %q: write it as NAME=VALUE", flag, s)
		}
		m[k] = v
	}
	return nil
}
