package wire

import "time"

// Exchange is one HTTP request and its answer that belong to a dialect's
// protocol (a declared endpoint: hostd's login and input). It is judged
// with the frames of its session, at its place among them: Index shares
// the frames' numbering, so a finding names an exchange as it names a
// frame.
type Exchange struct {
	// ID names the exchange as Conn names a connection ("h1").
	ID    string
	Index int64
	// Time is when the request arrived; Duration how long the answer took.
	Time     time.Time
	Duration time.Duration
	// Endpoint is the name of the declared endpoint it matched.
	Endpoint     string
	Method, Path string
	// Status is the answer's status; 0 when the upstream gave none.
	Status int
	// Auth is the scheme of the request's Authorization header, lower case
	// ("bearer", "basic"), "" without one. The credential itself is never
	// kept.
	Auth string
	// Request and Response are the bodies, up to the recorder's limit;
	// RequestCut and ResponseCut say a body was longer (it is not judged).
	Request, Response       []byte
	RequestCut, ResponseCut bool
}
