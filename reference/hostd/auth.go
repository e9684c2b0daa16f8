package hostd

import (
	"crypto/subtle"
	"net/http"
	"slices"
	"strings"
)

// maxTokens bounds the access tokens the server remembers: logging in more
// often than that forgets the oldest token (its holder gets 401 or close
// 4401 and logs in again).
const maxTokens = 1024

// tokenSet is the set of access tokens issued by POST /auth/login. Tokens
// do not expire otherwise. Guarded by hub.mu.
type tokenSet struct {
	limit int
	set   map[string]bool
	order []string
}

func newTokenSet(limit int) *tokenSet {
	return &tokenSet{limit: limit, set: map[string]bool{}}
}

func (t *tokenSet) add(tok string) {
	if len(t.order) >= t.limit {
		delete(t.set, t.order[0])
		t.order = slices.Delete(t.order, 0, 1)
	}
	t.set[tok] = true
	t.order = append(t.order, tok)
}

func (t *tokenSet) has(tok string) bool { return t.set[tok] }

// issue makes and remembers a new access token.
func (h *hub) issue() string {
	tok := h.env.IDs.New("at_")
	h.mu.Lock()
	defer h.mu.Unlock()
	h.tokens.add(tok)
	return tok
}

// validToken reports whether tok was issued by this server.
func (h *hub) validToken(tok string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return tok != "" && h.tokens.has(tok)
}

// sameSecret compares credentials in constant time.
func sameSecret(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// bearer returns the token of an "Authorization: Bearer TOKEN" header
// (scheme case-insensitive, RFC 6750 §2.1) and whether the header was
// present at all.
func bearer(r *http.Request) (tok string, present bool) {
	v := r.Header.Get("Authorization")
	if v == "" {
		return "", false
	}
	scheme, tok, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(tok), true
}
