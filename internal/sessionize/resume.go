package sessionize

import (
	"encoding/base64"
	"strings"
)

// maxSignedState bounds the encoded state resumeTarget decodes: a session
// id sits near the top of it, and a relay must not decode megabytes.
const maxSignedState = 256 << 10

// resumeTarget returns the session a resume request names: the first of
// paths that holds a non-empty string. A path whose last member is
// "signed_state" holds the state as a string (the spec of JasonDZS/myagent
// calls it "Base64 encoded signed/encrypted state"; its server sends an
// object, which the other paths read): it is decoded as JSON, base64 of
// JSON, or a JWT-style "header.payload.signature" whose parts are base64
// of JSON, and its session_id (top level or under state) is the answer.
func resumeTarget(payload []byte, paths [][]string) string {
	for _, p := range paths {
		v, ok := Peek(payload, p...)
		if !ok || v == "" || v == "null" {
			continue
		}
		if p[len(p)-1] != "signed_state" {
			return v
		}
		if id := signedStateSession(v); id != "" {
			return id
		}
	}
	return ""
}

// signedStateSession reads the session id out of an encoded state.
func signedStateSession(v string) string {
	if len(v) > maxSignedState {
		return ""
	}
	if id := stateSession([]byte(v)); id != "" {
		return id
	}
	for _, part := range strings.Split(v, ".") {
		if doc, ok := decodeBase64(part); ok {
			if id := stateSession(doc); id != "" {
				return id
			}
		}
	}
	return ""
}

func stateSession(doc []byte) string {
	for _, p := range [][]string{{"session_id"}, {"state", "session_id"}, {"sessionId"}} {
		if id, ok := Peek(doc, p...); ok && id != "" && id != "null" {
			return id
		}
	}
	return ""
}

// decodeBase64 accepts the standard and URL alphabets, padded or not.
func decodeBase64(s string) ([]byte, bool) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, true
		}
	}
	return nil, false
}
