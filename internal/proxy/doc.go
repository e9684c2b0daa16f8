// Package proxy is the core of wsproxy: a WebSocket relay between a client
// (a browser UI) and an agent server that records every frame and judges
// it with the check engine, without getting in the way.
//
// # Data flow
//
// Each accepted WebSocket is dialled to the upstream first (same path and
// query, end-to-end headers, the client's subprotocols), then the client is
// upgraded with the subprotocol the upstream chose. A proxied connection
// has two legs and four goroutines, one reader and one writer per socket as
// gorilla/websocket requires:
//
//	client reader ──▶ queue ──▶ upstream writer      (c2s)
//	upstream reader ──▶ queue ──▶ client writer      (s2c)
//	        │
//	        └──▶ tap (index, recording line, session binding) ──▶ validator queue ──▶ validator
//
// When a leg's queue is empty, its writer idle and no fault acts on it, the
// reader writes the message itself under the leg's write lock (the writer
// pops only under the same lock, so order holds and gorilla still sees one
// writer at a time): on an interactive session this saves a goroutine
// hand-off per message, which measured 52 → 43 µs p50 and 390-800 → 140-210
// µs p99 per round trip.
//
// The queues are bounded (messages and bytes). A full queue makes its reader
// wait, which is TCP backpressure on the sender, as with a slow peer on a
// direct connection; when the writer makes no progress for --write-timeout
// the connection is closed as a slow peer (proxy.slow-peer) instead of
// waiting forever. Every write has a deadline of --write-timeout.
//
// The tap (tap.go) is the one ordering point: under one lock a frame gets
// its index, is written to the recording (flushed), and is appended to the
// validator's queue, so that the recording and the validator see the same
// sequence. The validator's queue is bounded too: frames beyond it are
// relayed and recorded but not checked, and a proxy.validation-gap finding
// says how many. The relay never waits for validation.
//
// The validator (validator.go) is one goroutine owning every check.Session.
// It groups connections into sessions with validate.Grouper, the code
// behind `wsconform validate`, so a recording judged offline gives the
// findings the proxy gave live (when nothing was dropped).
//
// # Sessions
//
// Reconnections of one logical session are judged together (internal/sessionize):
// minicodex by the session_id of welcome, mitto by connected.session_id,
// myagent by the first server event with a session_id (and a
// user.reconnect_with_state by the old session its state names, whatever
// new id the server answers under), every hostd connection in one session,
// coworker by server_hello's sessionId (a reconnect the server attaches to
// an earlier sessionId continues that session, and coworker.no-resumption
// names it). A
// connection's frames before its session is known are held (pending) and
// judged with that session once it is; the recording says so with a
// "pending" open line and a "session" line.
//
// # Never a silent pass
//
// A handshake the upstream refuses (any status but 101), cannot complete
// or cannot be reached for, and one the proxy refuses itself
// (--max-conns), is a proxy.upstream-refused finding with the status and
// a body excerpt (one refused for its Origin: proxy.origin-refused), in a
// session of refusals; so are plain HTTP requests answered 5xx or not at
// all (4xx: a warning only). That session's verdict is error when no
// connection of the run was judged, or when the refused handshake named a
// judged session in its URL (a reconnection): nothing, or not the session,
// was tested. Next to judged sessions a stray refusal is a warning (its
// session non-strict). A 4xx answer to one of the dialect's own HTTP
// requests (hostd's login and input) is no refusal: those exchanges are
// recorded and judged with the frames (see HTTP below). A run without any WebSocket connection is an error
// of the report. The rules are interpretations (warnings): RFC 6455 lets a
// server refuse, so the verdict, not the severity, says that nothing was
// tested.
//
// # Host, Origin and judged connections
//
// The client's Host and Origin are kept by default (--host, --origin), so
// a same-origin server accepts a page loaded through the proxy; with
// --origin upstream only an Origin naming the proxy is rewritten. Before
// that, a handshake from a browser page of another site is refused with
// 403 (origin.go, --allow-origin): WebSockets are not subject to CORS. The
// validator's gate (gate.go) judges a connection when --path matches it,
// or, without --path, when its path is the dialect's or one of its first
// frames is a dialect message; other connections are relayed, recorded,
// and listed once per path in the report's notes.
//
// # HTTP
//
// Plain HTTP requests are reverse-proxied to the upstream. Those the
// dialect declares as part of its protocol (dialect.HTTPEndpoint: hostd's
// POST /auth/login and POST /runs/:run_id/input) are also recorded, as an
// http line in their place among the frames, and judged in their session
// (httprecord.go): hostd's input_id idempotency spans HTTP and sockets.
// With --dialect auto every dialect's endpoints are recorded (a login
// comes before any socket tells the dialect) and judged once it is known.
//
// # Live view
//
// Config.Live (wsproxy --web, internal/web) is told, in the validator's
// order, of every open, frame, binding, close and finding; it must return
// at once (the live view copies into a bounded ring and never waits for a
// page). Snapshot builds the report so far on the validator goroutine,
// between two batches, for the view's "Download report".
//
// # Limits
//
// The relay queues of all connections share --memory-budget (queue.go;
// the connection that would exceed it is closed with 1013), --max-conns
// bounds the connections, --idle-timeout closes connections on which
// nobody speaks, and a Host that is not the proxy's address is refused
// (DNS rebinding; --allow-host).
//
// # Close codes
//
// Close frames pass through with their code and reason, both ways (a close
// without status is passed on without status). 1005, 1006 and 1015 are
// never sent; what happened is recorded:
//
//	what happened                           recorded             the other leg gets
//	peer sent close CODE "REASON"           CODE by client|server CODE "REASON"
//	  (any code a peer may send: 1000-1003, 1007-1014, 3000-4999)
//	peer's reason is not UTF-8              CODE, raw reason     CODE, U+FFFD in place of bad bytes
//	peer sent a code none may send          the frame as sent;   1002 (that peer: 1002 from gorilla)
//	  (1004-1006, 1015, 0-999, ...)         1002 by proxy
//	upstream vanished (no close frame)      1006 by network      client: 1011 (internal error)
//	client vanished (no close frame)        1006 by network      upstream: 1001 (going away)
//	message over --max-frame                1009 by proxy        both legs: 1009
//	peer does not read (write timeout)      1006 by proxy        client: 1013 / upstream: 1001
//	shutdown (SIGINT, SIGTERM)              1001 by proxy        both legs: 1001
//	fault close=CODE                        CODE by proxy        that leg: CODE; its answer is relayed
//	fault drop-after=N                      1006 by proxy        both TCP connections cut
//	over --memory-budget                    1013 by proxy        client: 1013 / upstream: 1001
//	nobody spoke within --idle-timeout      1001 by proxy        both legs: 1001
//
// A peer that started the close gets its own code back when the other
// leg is lost. 1014 (bad gateway) would describe a lost upstream best, but
// gorilla/websocket and other client libraries refuse to receive it as a
// protocol error; 1011 is understood by all. The proxy itself receives
// 1014 and invalid reasons through closeTap (closetap.go), which shows
// gorilla a close frame it accepts and keeps the one sent; the last two
// rows above are proxy.bad-close findings.
//
// # Faults
//
// Config.Faults (wsproxy --fault) are applied by the writer of the leg a
// fault's direction points at (faults.go), seeded per connection, as the
// reference server applies them; they change what a peer receives, never
// what is recorded or judged.
package proxy
