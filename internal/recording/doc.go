// Package recording reads and writes recordings of WebSocket sessions.
//
// The format is JSON Lines, one record a line, written and flushed as
// frames pass so that a crash loses at most the frame being written and a
// session is never held in memory. The first line is a header; then "open"
// lines announce connections (with the connection they reconnect, the
// reconnect lineage), "frame" lines carry messages, and "close" lines say
// how a connection ended and who ended it.
//
//	{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex","tool":"wsconform 0.1.0","time":"…"}
//	{"kind":"open","conn":"c1","session":"s1","url":"ws://127.0.0.1:7337/ws","time":"…"}
//	{"kind":"frame","conn":"c1","session":"s1","dir":"c2s","index":1,"time":"…","opcode":1,"text":"{\"type\":\"hello\",\"v\":\"1.0.0\"}"}
//	{"kind":"close","conn":"c1","session":"s1","time":"…","code":1000,"reason":"bye","by":"client"}
//
// A recorder that learns a connection's session only from its traffic
// (wsproxy: a minicodex welcome names the session a resume joins) writes
// the open line with "pending":true, the frames with no session, and then a
// "session" line; a recorder that detected the dialect from the traffic
// writes a "dialect" line:
//
//	{"kind":"dialect","dialect":"minicodex","reason":"1 of the first 1 frames are its message types (hello), …","time":"…"}
//	{"kind":"open","conn":"c2","pending":true,"url":"ws://127.0.0.1:7337/ws","time":"…"}
//	{"kind":"frame","conn":"c2","dir":"c2s","index":9,"time":"…","opcode":1,"text":"{\"type\":\"resume\",…}"}
//	{"kind":"session","conn":"c2","session":"sess_1","parent":"c1","time":"…"}
//
// Readers judge the frames of a pending connection with the session the
// session line names, at the place of that line (internal/validate), so a
// recording is judged offline exactly as the proxy judged it live.
//
// A connection the recorder relays and records but does not judge, because
// it is not the dialect's traffic (wsproxy --path, or first frames that are
// not the dialect's messages: a notifications socket beside the agent's),
// gets a session line with "unjudged" and the reason, written when the
// recorder decided (after the open line and the frames it looked at):
//
//	{"kind":"session","conn":"c3","session":"c3","unjudged":"its first 4 data frames are not myagent messages (notify)","time":"…"}
//
// Readers judge none of its frames, those before the line included, and
// report it once as not judged. The line binds the connection to a session
// of its own: a reader written before the member existed ignores it and
// does exactly that, so the format version stays 1.
//
// The HTTP requests that belong to the protocol (a dialect's declared
// endpoints: hostd's login and input) are "http" lines, in their place
// among the frames (the index is shared), tied to the session they belong
// to when the recorder knows it (hostd: the shared session). The bodies are
// redacted as text frames are; the Authorization header is kept as its
// scheme only:
//
//	{"kind":"http","conn":"h2","session":"hostd","index":14,"time":"…","endpoint":"input","method":"POST","path":"/runs/r1/input","status":202,"auth":"bearer","ms":1.2,"request":"{\"input_id\":\"…\",\"text\":\"y\\n\"}","response":"{…}"}
//
// A header of a recorder that may write http lines names version 2; a
// reader of version 1 refuses that header with a clear message (and each
// http line as an unknown kind) rather than judge half the protocol as if
// it were all. Other recordings keep version 1.
//
// Text payloads that are valid UTF-8 are stored as "text"; anything else
// (binary frames, invalid UTF-8) as "base64", so every byte round-trips.
// Chrome DevTools HAR files (entries with _webSocketMessages) are read too,
// so a capture taken without the proxy can be judged offline.
package recording
