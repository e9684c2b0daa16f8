package redact

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marker is how a redacted string of n characters reads in JSON, headers
// and report text: «redacted: 32 chars». It is the one form a redacted
// string takes outside URLs, however short the string was.
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
// a mask of asterisks (what older versions wrote for strings shorter than
// a Marker, still recognised so that redacting an old recording again
// changes nothing and a replay knows its values are unknown).
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

// markerOpen is how every Marker starts.
const markerOpen = "«redacted: "

// HasMarker reports whether s holds a Marker, whole or within a text (a
// token redacted in a chat message, a JSON document in a string with a
// member redacted).
func HasMarker(s string) bool {
	i, _ := findMarker(s, 0)
	return i >= 0
}

// findMarker returns where the first Marker in s[from:] starts and ends
// (indexes into s), -1, -1 when there is none.
func findMarker(s string, from int) (int, int) {
	for from < len(s) {
		i := strings.Index(s[from:], markerOpen)
		if i < 0 {
			return -1, -1
		}
		i += from
		k := i + len(markerOpen)
		d := k
		for d < len(s) && s[d] >= '0' && s[d] <= '9' {
			d++
		}
		if d > k {
			for _, tail := range []string{" chars»", " char»"} {
				if strings.HasPrefix(s[d:], tail) {
					return i, d + len(tail)
				}
			}
		}
		from = k
	}
	return -1, -1
}

// MatchRedacted reports whether text could be what recorded was before
// its Markers replaced credentials: the same text, with one character or
// more in place of each Marker. A replay compares a server's frame with a
// recorded one this way, where a token in a message was redacted.
func MatchRedacted(recorded, text string) bool {
	var segs []string // the text between Markers
	for from := 0; ; {
		i, end := findMarker(recorded, from)
		if i < 0 {
			segs = append(segs, recorded[from:])
			break
		}
		segs = append(segs, recorded[from:i])
		from = end
	}
	if len(segs) == 1 {
		return recorded == text
	}
	first, last := segs[0], segs[len(segs)-1]
	if !strings.HasPrefix(text, first) || !strings.HasSuffix(text, last) || len(text) < len(first)+len(last) {
		return false
	}
	// Each Marker takes one character or more; the segments between them
	// are matched leftmost, which finds a match whenever there is one.
	pos, stop := len(first), len(text)-len(last)
	for _, seg := range segs[1 : len(segs)-1] {
		if pos+1 > stop {
			return false
		}
		i := strings.Index(text[pos+1:stop], seg)
		if i < 0 {
			return false
		}
		pos += 1 + i + len(seg)
	}
	return pos+1 <= stop
}

// MaxLen bounds the length of a payload of n bytes once JSON or Binary
// redacted it: a string token of three bytes or more becomes a Marker of
// at most 23 bytes (19 more), and two tokens are at least a separator
// apart, so the payload grows at most 19 bytes every 4, plus one token.
// A recording line's limit must allow for it.
func MaxLen(n int) int { return n + 19*(n/4+1) }
