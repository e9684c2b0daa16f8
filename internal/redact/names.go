package redact

import "bytes"

// Where a name was found: the same word means different things in a query
// string (?key= is an API key) and in a JSON frame ({"key":"theme"} is a
// setting's name).
type context int

const (
	inQuery context = iota
	inHeader
	inMember
)

// QueryName reports whether a URL query parameter (or a name=value pair
// in text, such as --var host_token=…) names a credential.
func QueryName(name string) bool { return isSecret(name, inQuery) }

// HeaderName reports whether an HTTP header carries a credential.
func HeaderName(name string) bool { return isSecret(name, inHeader) }

// MemberName reports whether a JSON member names a credential.
func MemberName(name string) bool { return isSecret(name, inMember) }

// secretNames are credential names in every context, as normalized words
// joined by "_".
var secretNames = map[string]bool{
	"token": true, "access_token": true, "refresh_token": true, "id_token": true,
	"auth_token": true, "bearer_token": true, "session_token": true, "host_token": true,
	"api_key": true, "apikey": true, "password": true, "passwd": true, "pwd": true,
	"passphrase": true, "secret": true, "client_secret": true, "authorization": true,
	"proxy_authorization": true, "cookie": true, "set_cookie": true, "credential": true,
	"credentials": true, "private_key": true, "secret_key": true, "jwt": true,
	"auth": true, "bearer": true,
}

// queryOnly are credentials in query strings and headers only.
var queryOnly = map[string]bool{"key": true, "sig": true, "apikey": true, "access_key": true}

// lastWords make a name a credential whatever comes before them:
// host_token, clientSecret, db_password, x_amz_signature, set_cookie.
var lastWords = map[string]bool{
	"token": true, "secret": true, "password": true, "passwd": true, "passphrase": true,
	"credential": true, "credentials": true, "cookie": true, "apikey": true,
	"signature": true, "jwt": true,
}

// plainKeys are the words before "key" that make an identifier, not a
// credential: tool_key, idempotency_key, Sec-WebSocket-Key.
var plainKeys = map[string]bool{
	"tool": true, "idempotency": true, "cache": true, "partition": true, "sort": true,
	"primary": true, "foreign": true, "public": true, "message": true, "event": true,
	"object": true, "storage": true, "dedup": true, "dedupe": true, "lookup": true,
	"group": true, "hot": true, "shortcut": true, "map": true, "row": true, "react": true,
	"i18n": true, "translation": true, "label": true, "routing": true, "websocket": true, "socket": true,
	"content": true, "thread": true, "item": true, "field": true, "column": true,
	"list": true, "state": true, "step": true, "node": true, "entry": true, "dict": true,
	"order": true, "index": true, "hash": true, "range": true, "bucket": true,
	"file": true, "path": true, "resource": true, "run": true, "task": true, "turn": true,
	"call": true, "trace": true, "span": true, "sec": true, "next": true, "prev": true,
	"first": true, "last": true,
}

// maxName is how long a name is normalized on the stack; longer names are
// normalized too, on the heap.
const maxName = 64

func isSecret[T ~string | ~[]byte](name T, ctx context) bool {
	var arr [maxName]byte
	w := normalize(name, arr[:0])
	if len(w) == 0 {
		return false
	}
	if secretNames[string(w)] || ctx != inMember && queryOnly[string(w)] {
		return true
	}
	last, before := lastWord(w)
	if lastWords[string(last)] {
		return true
	}
	if string(last) == "key" && len(before) > 0 {
		prev, _ := lastWord(before)
		return !plainKeys[string(prev)]
	}
	return false
}

// lastWord splits "x_api_key" into "key" and "x_api".
func lastWord(w []byte) (last, before []byte) {
	i := bytes.LastIndexByte(w, '_')
	if i < 0 {
		return w, nil
	}
	return w[i+1:], w[:i]
}

// normalize lowercases name and separates its words with "_": apiKey,
// API_KEY, Api-Key and APIKey all become api_key. It appends to buf.
func normalize[T ~string | ~[]byte](name T, buf []byte) []byte {
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '-' || c == '.' || c == ' ':
			if len(buf) > 0 && buf[len(buf)-1] != '_' {
				buf = append(buf, '_')
			}
			continue
		case c >= 'A' && c <= 'Z':
			if i > 0 && len(buf) > 0 && buf[len(buf)-1] != '_' && wordStart(name, i) {
				buf = append(buf, '_')
			}
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	for len(buf) > 0 && buf[len(buf)-1] == '_' {
		buf = buf[:len(buf)-1]
	}
	return buf
}

// wordStart reports whether the upper-case letter at i starts a camelCase
// word: after a lower-case letter or digit (apiKey), or as the last capital
// of an acronym before a lower-case letter (APIKey).
func wordStart[T ~string | ~[]byte](name T, i int) bool {
	p := name[i-1]
	if p >= 'a' && p <= 'z' || p >= '0' && p <= '9' {
		return true
	}
	if p >= 'A' && p <= 'Z' && i+1 < len(name) {
		n := name[i+1]
		return n >= 'a' && n <= 'z'
	}
	return false
}
