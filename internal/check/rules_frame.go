package check

// Rules that apply to every frame of every dialect, before any schema.
var (
	ruleBinary = Rule{ID: "frame.binary", Severity: Error,
		Spec:    "every spec: messages are JSON objects, so they travel as text frames (RFC 6455 §5.6)",
		Summary: "A data frame is a text frame; binary frames carry no message of these protocols."}
	ruleUTF8 = Rule{ID: "frame.utf8", Severity: Error,
		Spec:    "RFC 6455 §5.6 and RFC 8259 §8.1",
		Summary: "A text frame holds valid UTF-8."}
	ruleJSON = Rule{ID: "frame.json", Severity: Error,
		Spec:    "every spec: all messages are JSON",
		Summary: "A text frame holds exactly one JSON value (RFC 8259; NaN and Infinity are not JSON)."}
	ruleObject = Rule{ID: "frame.object", Severity: Error,
		Spec:    "every spec: all messages are JSON objects",
		Summary: "The JSON value of a frame is an object."}
	ruleTypeMissing = Rule{ID: "frame.type-missing", Severity: Error,
		Spec:    "every spec: the message type discriminator (type or event) is a string",
		Summary: "A message carries its type as a string in the dialect's type field."}
	ruleTypeUnknown = Rule{ID: "frame.type-unknown", Severity: Error,
		Spec:    "the spec's message tables for this direction",
		Summary: "A message type is one the spec defines for the direction it travels in."}
	ruleTypeRemoved = Rule{ID: "frame.type-removed", Severity: Error,
		Spec:    "the spec's migration notes",
		Summary: "A message type removed by the spec version is not sent."}
	ruleDuplicateKey = Rule{ID: "frame.duplicate-key", Severity: Warning,
		Spec:    "RFC 8259 §4: the names within an object SHOULD be unique",
		Summary: "An object does not repeat a member name; peers disagree on which value wins."}
	ruleStringEncoding = Rule{ID: "frame.string-encoding", Severity: Error,
		Spec:    "RFC 8259 §8.1 and §8.2",
		Summary: "Strings are UTF-8 and \\u escapes of surrogates come in pairs."}
	ruleNumberRange = Rule{ID: "frame.number-range", Severity: Warning,
		Spec:    "RFC 8259 §6: numbers beyond IEEE 754 binary64 precision and range are not interoperable",
		Summary: "Numbers stay within binary64 range and integers within ±(2^53-1), or JavaScript peers misread them."}
	ruleTooLarge = Rule{ID: "frame.too-large", Severity: Warning,
		Spec:    "interpretation: the checker's frame size limit (--max-frame), not a spec rule",
		Summary: "A frame larger than the checker's limit is not validated; the gap is reported."}
	ruleAfterClose = Rule{ID: "frame.after-close", Severity: Error,
		Spec:    "RFC 6455 §5.5.1: after sending a Close frame, the endpoint MUST NOT send any more data frames",
		Summary: "No data frame follows the sender's own close frame on a connection."}
	ruleTooDeep = Rule{ID: "frame.too-deep", Severity: Warning,
		Spec:    "interpretation: the checker's nesting limit, not a spec rule",
		Summary: "A frame nested deeper than the checker's limit is not validated; the gap is reported."}
	ruleSchema = Rule{ID: "schema.violation", Severity: Error,
		Spec:    "the schema of the message type (its description cites the spec section)",
		Summary: "A message satisfies the JSON Schema of its type."}
)

var _ = register(ruleBinary, ruleUTF8, ruleJSON, ruleObject, ruleTypeMissing, ruleTypeUnknown,
	ruleTypeRemoved, ruleDuplicateKey, ruleNumberRange, ruleStringEncoding, ruleTooLarge, ruleTooDeep, ruleSchema, ruleAfterClose)
