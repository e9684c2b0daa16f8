package proxy

import (
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// eventKind says what an event tells the validator.
type eventKind int

const (
	evOpen    eventKind = iota // a connection opened (session set when known)
	evFrame                    // a frame passed
	evBind                     // a pending connection's session is known
	evClose                    // a connection ended
	evDialect                  // auto-detection decided (dialect "" when it gave up)
	evFinding                  // the relay made a finding of its own
	evNote                     // a line for the console
	evRefused                  // a handshake or HTTP request was refused or failed
	evHTTP                     // an HTTP exchange of the protocol passed (httprecord.go)
)

// event is one entry of the validator's queue, in the tap's order.
type event struct {
	kind eventKind
	c    *conn
	time time.Time
	// skipped counts frames of c relayed but not queued just before this
	// event (the validation gap).
	skipped int

	frame wire.Frame
	// judged is what the stateless rules made of frame, applied ahead on
	// another core (prejudge.go); nil: applied when the frame is judged.
	judged  *check.Judged
	session string
	parent  string
	end     ending
	dialect string
	reason  string
	finding *check.Finding
	text    string
	isErr   bool
	// count is how many frames the connection relayed (close events).
	count int64
	// refusal describes an evRefused.
	refusal *refusal
	// exchange is an evHTTP's exchange (session: the one the tap tied it to).
	exchange *wire.Exchange
}

// refusal is a handshake or HTTP request that got no answer from the
// upstream worth relaying: the upstream refused it (4xx, 5xx), could not be
// reached, or the proxy itself refused the client (--max-conns).
type refusal struct {
	conn   string // the connection id of a handshake; "" for HTTP
	http   bool
	method string
	path   string
	url    string
	code   int    // the HTTP status the client got
	status string // "403 Forbidden"
	body   string // an excerpt of the answer's body
	why    string
	// target is the handshake's upstream URL with its query, read by the
	// tap only (resumes); url is what reports show.
	target string
	// resumes is the judged session a refused handshake asked to continue
	// (the dialect's URL hint, such as ?session_id=): its reconnection was
	// refused, so the refusal is an error of the run.
	resumes string
	// origin is the Origin of a handshake the proxy refused because of it
	// (--allow-origin): a proxy.origin-refused finding.
	origin string
	// fatal makes the verdict error: a handshake that never became a
	// connection, an HTTP request the upstream failed (5xx) or could not
	// answer. A 4xx answer to plain HTTP is a warning only.
	fatal bool
}

// ending is how a proxied connection ended, as recorded in its close line:
// the code of the first close frame or what happened instead (1006 when a
// peer vanished, 1009 for a message over the limit), and who ended it.
type ending struct {
	code   int
	reason string
	by     string
}
