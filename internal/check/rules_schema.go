package check

// Schema rules: one per kind of evidence, so that a shape the spec only
// shows never fails a server. Each finding carries the quote of the schema
// (or of the member) it rests on, from the schema's x-evidence keyword.
var (
	ruleSchema = Rule{ID: "schema.violation", Severity: Error, Evidence: Stated,
		Spec:    "the schema of the message type (its description cites the spec section)",
		Quote:   "each finding quotes the type definition or words its schema rests on (x-evidence in schemas/<dialect>/)",
		Summary: "A message satisfies what the spec's types and words state for its type."}
	ruleSchemaShown = Rule{ID: "schema.shown", Severity: Warning, Evidence: Shown,
		Spec:    "the example payloads and flow diagrams of the spec",
		Summary: "A message has the shape the spec's examples show; the spec only shows it, so a different shape is a warning."}
	ruleSchemaInterpretation = Rule{ID: "schema.interpretation", Severity: Warning, Evidence: Interpretation,
		Spec:    "our reading where the spec is silent",
		Summary: "A message has the shape we read into a silent spec; a warning, never a failed MUST."}
	ruleNullOptional = Rule{ID: "schema.null-optional", Severity: Warning, Evidence: Interpretation, Once: OncePerMember,
		Spec:    "an optional member (TypeScript ?: or prose \"optional\", \"where available\") sent as null",
		Summary: "An optional member is absent rather than null: a TypeScript `field?: T` does not admit null, though most peers treat the two alike. Reported once per member and session."}
)

var _ = register(ruleSchema, ruleSchemaShown, ruleSchemaInterpretation, ruleNullOptional)

// schemaRule is the rule for a schema finding backed by evidence kind.
func schemaRule(kind Evidence) Rule {
	switch kind {
	case Shown:
		return ruleSchemaShown
	case Interpretation:
		return ruleSchemaInterpretation
	}
	return ruleSchema
}
