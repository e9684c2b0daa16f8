package check

// The input contract of `wsconform validate`: what a recording or a HAR
// file must be for the tool to read it. Not a dialect's rule; a part of the
// input that cannot be read is a finding so that a validation never passes
// over frames it did not judge.
var ruleUnreadable = Rule{ID: "recording.unreadable", Severity: Error, Evidence: Stated,
	Spec: "the tool's input contract: DESIGN.md §Recording format (wsconform recordings, JSON Lines) and " +
		"the HAR 1.2 files Chrome DevTools exports (entries with _webSocketMessages)",
	Quote: `DESIGN.md §Recording format: "JSON Lines, one frame per line"; "Each frame line: connection id, ` +
		`reconnect lineage, direction (c2s/s2c), index, wall time, opcode, and the payload (text as is, binary as base64)"; ` +
		`"Chrome DevTools HAR files (entries with _webSocketMessages) are accepted as input too"`,
	Summary: "Every line of a recording (every message of a HAR file) can be read: a line over the size limit, " +
		"torn or not JSON, without the members of its kind, or a payload that is not valid base64 is reported " +
		"with its place (line; HAR entry and message), since the frames it held were not judged."}

var _ = register(ruleUnreadable)

// Unreadable is the finding for a part of a recording that could not be
// read: where names it (a line number, or a HAR entry and message) and why
// says what was wrong. It carries no frame: none could be read.
func Unreadable(where, why string) Finding {
	r := ruleUnreadable
	return Finding{Rule: r.ID, Severity: r.Severity, Evidence: r.Evidence, Spec: r.Spec, Quote: r.Quote,
		Message: where + " cannot be read, so its frames were not judged: " + why}
}
