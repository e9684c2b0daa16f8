package check

// specsSayJSON is the words every spec gives for its messages being JSON
// objects; the frame rules rest on them and on RFC 6455 and RFC 8259.
const specsSayJSON = `coworker: "All messages are JSON."; hostd: "All WebSocket messages use a JSON envelope"; ` +
	`minicodex: "All messages are JSON objects"; mitto: "All WebSocket messages use a JSON envelope format"; ` +
	`myagent: "Events are JSON objects following the EventProtocol model"`

// Rules that apply to every frame of every dialect, before any schema.
var (
	ruleBinary = Rule{ID: "frame.binary", Severity: Error, Evidence: Stated,
		Spec:    "every spec: messages are JSON objects, so they travel as text frames (RFC 6455 §5.6)",
		Quote:   specsSayJSON + `; RFC 6455 §5.6: "The "Payload data" is text data encoded as UTF-8" (text frames)`,
		Summary: "A data frame is a text frame; binary frames carry no message of these protocols."}
	ruleUTF8 = Rule{ID: "frame.utf8", Severity: Error, Evidence: Stated,
		Spec:    "RFC 6455 §5.6 and RFC 8259 §8.1",
		Quote:   `RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8"`,
		Summary: "A text frame holds valid UTF-8."}
	ruleJSON = Rule{ID: "frame.json", Severity: Error, Evidence: Stated,
		Spec:    "every spec: all messages are JSON",
		Quote:   specsSayJSON,
		Summary: "A text frame holds exactly one JSON value (RFC 8259; NaN and Infinity are not JSON)."}
	ruleObject = Rule{ID: "frame.object", Severity: Error, Evidence: Stated,
		Spec:    "every spec: all messages are JSON objects",
		Quote:   specsSayJSON,
		Summary: "The JSON value of a frame is an object."}
	ruleTypeMissing = Rule{ID: "frame.type-missing", Severity: Error, Evidence: Stated,
		Spec:    "every spec: the message type discriminator (type or event) is a string",
		Quote:   `every spec's envelope declares the discriminator: "type" (coworker, hostd, minicodex, mitto) or "event" (myagent) as a string`,
		Summary: "A message carries its type as a string in the dialect's type field."}
	ruleTypeUnknown = Rule{ID: "frame.type-unknown", Severity: Error, Evidence: Stated,
		Spec:    "the spec's closed union of message types for this direction",
		Quote:   "the dialect manifest's \"closed\" entry quotes the union that closes the set",
		Summary: "Where the spec's types close the set of messages for a direction, a message type is one of them."}
	ruleTypeUndocumented = Rule{ID: "frame.type-undocumented", Severity: Warning, Evidence: Interpretation, Once: OncePerType,
		Spec:    "the spec's message tables for this direction (the spec does not close the set)",
		Summary: "A message type the spec does not document: peers written to the spec do not know it. Reported once per type and session."}
	ruleTypeRemoved = Rule{ID: "frame.type-removed", Severity: Error, Evidence: Stated,
		Spec:    "the spec's migration notes",
		Quote:   "the dialect manifest's \"removed\" entry quotes the migration note",
		Summary: "A message type removed by the spec version is not sent."}
	ruleDuplicateKey = Rule{ID: "frame.duplicate-key", Severity: Warning, Evidence: Stated,
		Spec:    "RFC 8259 §4: the names within an object SHOULD be unique",
		Quote:   `RFC 8259 §4: "The names within an object SHOULD be unique."`,
		Summary: "An object does not repeat a member name; peers disagree on which value wins."}
	ruleStringEncoding = Rule{ID: "frame.string-encoding", Severity: Error, Evidence: Stated,
		Spec:    "RFC 8259 §8.1 and §8.2",
		Quote:   `RFC 8259 §8.1: "MUST be encoded using UTF-8"; §8.2 on unpaired surrogates: "the behavior of software that receives JSON texts containing such values is unpredictable"`,
		Summary: "Strings are UTF-8 and \\u escapes of surrogates come in pairs."}
	ruleNumberRange = Rule{ID: "frame.number-range", Severity: Warning, Evidence: Stated,
		Spec:    "RFC 8259 §6: numbers beyond IEEE 754 binary64 precision and range are not interoperable",
		Quote:   `RFC 8259 §6: "numbers that are integers and are in the range [-(2**53)+1, (2**53)-1] are interoperable"`,
		Summary: "Numbers stay within binary64 range and integers within ±(2^53-1), or JavaScript peers misread them."}
	ruleTooLarge = Rule{ID: "frame.too-large", Severity: Warning, Evidence: Interpretation,
		Spec:    "interpretation: the checker's frame size limit (--max-frame), not a spec rule",
		Summary: "A frame larger than the checker's limit is not validated; the gap is reported."}
	ruleAfterClose = Rule{ID: "frame.after-close", Severity: Error, Evidence: Stated,
		Spec:    "RFC 6455 §5.5.1: after sending a Close frame, the endpoint MUST NOT send any more data frames",
		Quote:   `RFC 6455 §5.5.1: "After sending a Close frame, the endpoint MUST NOT send any more data frames."`,
		Summary: "No data frame follows the sender's own close frame on a connection."}
	ruleTooDeep = Rule{ID: "frame.too-deep", Severity: Warning, Evidence: Interpretation,
		Spec:    "interpretation: the checker's nesting limit, not a spec rule",
		Summary: "A frame nested deeper than the checker's limit is not validated; the gap is reported."}
)

var _ = register(ruleBinary, ruleUTF8, ruleJSON, ruleObject, ruleTypeMissing, ruleTypeUnknown, ruleTypeUndocumented,
	ruleTypeRemoved, ruleDuplicateKey, ruleNumberRange, ruleStringEncoding, ruleTooLarge, ruleTooDeep, ruleAfterClose)
