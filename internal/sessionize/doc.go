// Package sessionize ties WebSocket connections into the logical sessions
// of a dialect: reconnections and fellow clients of one session are judged
// together, so that a replay after a resume is compared with what the
// earlier connection received. The live proxy (internal/proxy) and the
// offline validator (internal/validate, for HAR files, which record no
// session) share it, so a capture is grouped the same way whichever tool
// took it.
//
// Peek, the allocation-light member reader the sessionizer looks for
// session ids with, lives here too; the proxy uses it on the relay path.
package sessionize
