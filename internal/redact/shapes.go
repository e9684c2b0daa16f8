package redact

// Token shapes: credentials recognised by how they look, not by a name,
// wherever they are quoted (a chat message, a close reason, an error, a
// binary frame). Each shape is a whole word (a run of [A-Za-z0-9_-]: what
// comes before and after it is not part of the word), with a distinctive
// prefix and a minimum length, so that ordinary words, UUIDs, event ids
// and base64 data (whose alphabet has no '-' or '_', and no '.') are left
// alone:
//
//   - Bearer <token>: the token (RFC 6750 b64token, 8 characters or more,
//     with a digit, or 20 or more in mixed case) after the word Bearer in
//     any case;
//   - sk-… (OpenAI, sk-proj-…, Anthropic sk-ant-…): 20 characters or more
//     after sk-, a digit among them; Stripe's sk_live_, sk_test_, rk_live_
//     and rk_test_ with 16 or more;
//   - JWTs: three (or five) base64url segments joined by dots, the first
//     starting eyJ (a JSON object), the first two of 10 characters or more;
//   - GitHub: ghp_, gho_, ghu_, ghs_, ghr_ and 30 or more letters and
//     digits; github_pat_ and 22 or more;
//   - AWS: an access key id, AKIA or ASIA and 16 capitals or digits (20 in
//     all); a secret access key after a name ending in secret_access_key
//     and = or : (aws_secret_access_key=…, AWS_SECRET_ACCESS_KEY: "…"),
//     16 characters or more of base64;
//   - Slack: xoxa-, xoxb-, xoxp-, xoxo-, xoxs-, xoxr- and 10 or more, a
//     digit among them;
//   - Google API keys: AIza and 35 characters (39 in all).
//
// The scan runs on raw JSON as on text: a word that starts after a JSON
// escape (\n, \t, \u00e9) starts after the escape, and no shape spans a
// quote or a backslash, so a replacement inside a JSON string keeps it a
// valid string.

var wordByte, b64Byte, secretByte [256]bool

// wordClass is 0 for a byte that is not part of a word, trigger for the
// letters a shape starts with, 1 for the other word bytes.
var wordClass [256]uint8

const trigger = 2

func init() {
	for c := 0; c < 256; c++ {
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		wordByte[c] = alnum || c == '_' || c == '-'
		b64Byte[c] = wordByte[c] || c == '.' || c == '~' || c == '+' || c == '/'
		secretByte[c] = alnum || c == '/' || c == '+' || c == '='
		if wordByte[c] {
			wordClass[c] = 1
		}
	}
	for _, c := range []byte("BbsregAx") {
		wordClass[c] = trigger
	}
}

// minShape is the shortest text a shape can be found in ("Bearer " and 8).
const minShape = 15

// form is what a token found by its shape becomes.
type form int

const (
	// formText: a Marker, or a URLMarker when the token is the value of a
	// name=value pair or a path segment (after '=' or '/'), where a URL
	// or a shell word holds it.
	formText form = iota
	// formURL: a URLMarker.
	formURL
	// formBinary: a mask as long as the token (binaryMask), for binary
	// payloads, where lengths may be framing.
	formBinary
)

// tokens replaces the token shapes in p. p itself comes back when nothing
// was found.
func (s *Scrubber) tokens(p []byte, f form) ([]byte, bool) {
	if len(p) < minShape {
		return p, false
	}
	var out []byte
	done := 0 // p[:done] is in out
	for i := 0; i < len(p); {
		c := wordClass[p[i]]
		if c == 0 {
			i++
			continue
		}
		ws := i
		we := wordEnd(p, i+1)
		i = we
		// Most words are short, or start with no shape's letter and are
		// too short to end in secret_access_key: skip them at once.
		switch {
		case we-ws < 6:
			continue
		case ws > 0 && p[ws-1] == '\\':
			ws = afterEscape(p, ws, we)
		case c != trigger && we-ws < 17:
			continue
		}
		ts, te := shapeAt(p, ws, we)
		if te == 0 {
			continue
		}
		tok := p[ts:te]
		s.Add(string(tok))
		if out == nil {
			out = make([]byte, 0, len(p)+24)
		}
		out = append(out, p[done:ts]...)
		switch {
		case f == formBinary:
			out = append(out, binaryMask(len(tok))...)
		case f == formURL || ts > 0 && (p[ts-1] == '=' || p[ts-1] == '/'):
			out = append(out, URLMarker(len(tok))...)
		default:
			out = append(out, Marker(len(tok))...)
		}
		done = te
		i = max(te, we)
	}
	if out == nil {
		return p, false
	}
	return append(out, p[done:]...), true
}

// wordEnd is the end of the word that starts at p[i].
func wordEnd(p []byte, i int) int {
	for i < len(p) && wordByte[p[i]] {
		i++
	}
	return i
}

// afterEscape skips the letters of a JSON escape that ends at the word's
// start: "\nghp_…" holds the word ghp_….
func afterEscape(p []byte, ws, we int) int {
	if ws == 0 || p[ws-1] != '\\' {
		return ws
	}
	bs := 0
	for j := ws - 1; j >= 0 && p[j] == '\\'; j-- {
		bs++
	}
	if bs%2 == 0 {
		return ws
	}
	switch p[ws] {
	case 'n', 'r', 't', 'b', 'f':
		return ws + 1
	case 'u':
		if we-ws >= 5 && isHex(p[ws+1]) && isHex(p[ws+2]) && isHex(p[ws+3]) && isHex(p[ws+4]) {
			return ws + 5
		}
	}
	return ws
}

// shapeAt matches the word p[ws:we] against the shapes and returns the
// span to redact, te 0 when the word is none.
func shapeAt(p []byte, ws, we int) (ts, te int) {
	w := p[ws:we]
	n := len(w)
	if n < 6 {
		return 0, 0
	}
	if n == 6 && (w[0] == 'B' || w[0] == 'b') {
		return bearer(p, ws, we)
	}
	if n >= 17 && w[n-1]|0x20 == 'y' && hasSuffixFold(w, "secret_access_key") {
		return awsSecret(p, we)
	}
	if n < minShape {
		return 0, 0
	}
	switch w[0] {
	case 's', 'r':
		switch {
		case w[0] == 's' && hasPrefix(w, "sk-") && n >= 23 && hasDigit(w[3:]):
			return ws, we
		case n >= 24 && (hasPrefix(w[1:], "k_live_") || hasPrefix(w[1:], "k_test_")) && allAlnum(w[8:]):
			return ws, we
		}
	case 'e':
		if hasPrefix(w, "eyJ") && n >= 10 {
			return ws, jwtEnd(p, we)
		}
	case 'g':
		switch {
		case n >= 34 && w[1] == 'h' && isOneOf(w[2], "pousr") && w[3] == '_' && allAlnum(w[4:]):
			return ws, we
		case n >= 33 && hasPrefix(w, "github_pat_"):
			return ws, we
		}
	case 'A':
		switch {
		case n == 20 && (hasPrefix(w, "AKIA") || hasPrefix(w, "ASIA")) && allUpperDigit(w[4:]):
			return ws, we
		case n == 39 && hasPrefix(w, "AIza"):
			return ws, we
		}
	case 'x':
		if hasPrefix(w, "xox") && isOneOf(w[3], "abposr") && w[4] == '-' && hasDigit(w[5:]) {
			return ws, we
		}
	}
	return 0, 0
}

// bearer matches "Bearer <token>" and returns the token's span.
func bearer(p []byte, ws, we int) (int, int) {
	if !equalFold(p[ws:we], "bearer") {
		return 0, 0
	}
	k := we
	for k < len(p) && (p[k] == ' ' || p[k] == '\t') {
		k++
	}
	if k == we {
		return 0, 0
	}
	t := k
	for t < len(p) && b64Byte[p[t]] {
		t++
	}
	for t > k && p[t-1] == '.' { // the end of a sentence
		t--
	}
	e := t
	for e < len(p) && p[e] == '=' {
		e++
	}
	if e < len(p) && b64Byte[p[e]] && e > t { // realm="…", not a b64token
		return 0, 0
	}
	tok := p[k:t]
	if len(tok) < 8 || !hasDigit(tok) && (len(tok) < 20 || !mixedCase(tok)) {
		return 0, 0
	}
	return k, e
}

// jwtEnd returns the end of the JWT whose first segment ends at we, 0 when
// there is none: a second segment of 10 characters or more, a third
// (empty when unsigned) and, for a JWE, two more.
func jwtEnd(p []byte, we int) int {
	if we >= len(p) || p[we] != '.' {
		return 0
	}
	e2 := wordEnd(p, we+1)
	if e2-(we+1) < 10 || e2 >= len(p) || p[e2] != '.' {
		return 0
	}
	end := wordEnd(p, e2+1)
	for k := 0; k < 2 && end+1 < len(p) && p[end] == '.' && wordByte[p[end+1]]; k++ {
		end = wordEnd(p, end+1)
	}
	return end
}

// awsSecret matches the value after a name ending in secret_access_key:
// quotes, blanks and backslashes (a JSON escape), then = or :, then the
// same, then 16 characters or more of base64.
func awsSecret(p []byte, we int) (int, int) {
	k := skipSep(p, we)
	if k >= len(p) || p[k] != '=' && p[k] != ':' {
		return 0, 0
	}
	k = skipSep(p, k+1)
	e := k
	for e < len(p) && secretByte[p[e]] {
		e++
	}
	if e-k < 16 || e < len(p) && wordByte[p[e]] {
		return 0, 0
	}
	return k, e
}

func skipSep(p []byte, k int) int {
	for k < len(p) && (p[k] == ' ' || p[k] == '\t' || p[k] == '"' || p[k] == '\'' || p[k] == '\\') {
		k++
	}
	return k
}

// binaryMask is what a token of n bytes becomes in a binary payload: as
// long as the token, so that a length-prefixed format still parses, and
// readable where the payload is shown as text: redacted(40)------….
func binaryMask(n int) []byte {
	m := URLMarker(n)
	if len(m) > n {
		m = "redacted"
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = '-'
	}
	copy(b, m)
	return b
}

func hasPrefix(w []byte, p string) bool { return len(w) >= len(p) && string(w[:len(p)]) == p }

func hasSuffixFold(w []byte, s string) bool {
	return len(w) >= len(s) && equalFold(w[len(w)-len(s):], s)
}

// equalFold compares ASCII w with lower-case s, ignoring case.
func equalFold(w []byte, s string) bool {
	if len(w) != len(s) {
		return false
	}
	for i := range len(w) {
		c := w[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func isOneOf(c byte, set string) bool {
	for i := range len(set) {
		if set[i] == c {
			return true
		}
	}
	return false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func hasDigit(w []byte) bool {
	for _, c := range w {
		if c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}

func mixedCase(w []byte) bool {
	upper, lower := false, false
	for _, c := range w {
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
	}
	return upper && lower
}

func allAlnum(w []byte) bool {
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func allUpperDigit(w []byte) bool {
	for _, c := range w {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
