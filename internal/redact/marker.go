package redact

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marker is how a redacted string of n characters reads in JSON, headers
// and report text: «redacted: 32 chars».
func Marker(n int) string {
	if n == 1 {
		return "«redacted: 1 char»"
	}
	return "«redacted: " + strconv.Itoa(n) + " chars»"
}

// URLMarker is how a redacted query value (or user-info password) of n
// characters reads in a URL, where it needs no escaping: redacted(32).
func URLMarker(n int) string { return "redacted(" + strconv.Itoa(n) + ")" }

// IsMarker reports whether s is already redacted: a Marker, a URLMarker or
// a mask of asterisks. Redacting it again changes nothing.
func IsMarker(s string) bool {
	switch {
	case s == "":
		return false
	case strings.Trim(s, "*") == "":
		return true
	case strings.HasPrefix(s, "«redacted: ") && strings.HasSuffix(s, "»"):
		return true
	case strings.HasPrefix(s, "redacted(") && strings.HasSuffix(s, ")"):
		_, err := strconv.Atoi(s[len("redacted(") : len(s)-1])
		return err == nil
	}
	return false
}

// redactString is what a secret string value becomes in text.
func redactString(s string) string {
	if s == "" || IsMarker(s) {
		return s
	}
	return Marker(utf8.RuneCountInString(s))
}
