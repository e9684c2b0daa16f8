package wire

// SendableCloseCode reports whether an endpoint may put a close code on
// the wire (RFC 6455 §7.4 and the IANA registry): 1000-1003, 1007-1014
// and 3000-4999. 1004 is reserved; 1005, 1006 and 1015 only describe what
// happened; 0-999, the unassigned rest of 1000-2999 and 5000 and up are
// not codes at all. The fault injector sends only these, and the proxy
// passes on exactly these.
func SendableCloseCode(c int) bool {
	return c >= 1000 && c <= 1003 || c >= 1007 && c <= 1014 || c >= 3000 && c <= 4999
}
