package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/xeipuuv/gojsonreference"
	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/jsonx"
)

// maxSchemaFindings caps the findings of one frame: past a few, more of the
// same only bury the first.
const maxSchemaFindings = 8

// checkSchema validates an already decoded message. The value is handed to
// gojsonschema as is (decodedLoader), so a frame is parsed once, not three
// times. A null in a member the schema lets be absent is not a violation of
// the type (schema.null-optional, a warning); every other error is judged
// by the evidence the schema gives at its pointer.
//
// A frame the compiled validator vouches for (KnownValid) skips
// gojsonschema: that is the valid path, most frames. Every other frame
// goes through gojsonschema as before, which writes the findings.
func checkSchema(s *dialect.Schema, m *message) []Finding {
	if s.KnownValid(m.Doc) {
		m.SchemaOK = true
		return nil
	}
	sch := s.For(m.Doc)
	res, err := validateDoc(sch, m.Doc)
	if err != nil {
		fd := ruleSchema.fire(m, "schema %s could not run: %v", s.File, err)
		return []Finding{fd}
	}
	if res.Valid() {
		m.SchemaOK = true
		return nil
	}
	errs := withoutSummaries(res.Errors())
	var out []Finding
	if nulls := nullMembers(errs); len(nulls) > 0 {
		var optional []string
		errs, optional = withoutOptionalNulls(sch, m.Doc, errs, nulls)
		for _, p := range optional {
			fd := ruleNullOptional.fire(m, "%s: optional member %s is null", m.Type, p)
			fd.Pointer, fd.Expected, fd.Actual = p, "absent, or a value of its type", "null"
			out = append(out, fd)
		}
		if len(errs) == 0 {
			m.SchemaOK = true
			return out
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return rank(errs[i]) < rank(errs[j]) })
	for _, e := range errs {
		if len(out) == maxSchemaFindings {
			fd := ruleSchema.fire(m, "%d more schema errors not shown", len(errs)-maxSchemaFindings)
			fd.Severity, fd.Evidence = worstOf(out), worstEvidence(out)
			out = append(out, fd)
			break
		}
		out = append(out, schemaFinding(s, m, e))
	}
	return out
}

// worstOf and worstEvidence give the summary line of cut-off schema errors
// the standing of the findings it follows, never more.
func worstOf(fs []Finding) Severity {
	w, _ := Worst(fs)
	return w
}

func worstEvidence(fs []Finding) Evidence {
	e := Interpretation
	for _, f := range fs {
		if f.Evidence == Stated {
			return Stated
		}
		if f.Evidence == Shown {
			e = Shown
		}
	}
	return e
}

// nullMembers returns the pointers of object members whose null value the
// schema refused by type.
func nullMembers(errs []gojsonschema.ResultError) []string {
	var out []string
	for _, e := range errs {
		if e.Type() == "invalid_type" && fmt.Sprint(e.Details()["given"]) == "null" {
			if p := contextPointer(e.Context()); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// withoutOptionalNulls validates the message again with the null members
// removed. A member whose removal the schema accepts is optional: its null
// is reported as null-optional, not as a type error. The errors returned
// are those of the second validation, with a refused null restored for
// each member the schema requires.
func withoutOptionalNulls(sch *gojsonschema.Schema, doc map[string]any, errs []gojsonschema.ResultError, nulls []string) ([]gojsonschema.ResultError, []string) {
	pruned, removed := jsonx.WithoutMembers(doc, nulls)
	if len(removed) == 0 {
		return errs, nil
	}
	res, err := validateDoc(sch, pruned)
	if err != nil {
		return errs, nil
	}
	required := map[string]bool{}
	var again []gojsonschema.ResultError
	for _, e := range withoutSummaries(res.Errors()) {
		if e.Type() == "required" {
			p := contextPointer(e.Context()) + "/" + jsonx.EscapePointer(fmt.Sprint(e.Details()["property"]))
			if removed[p] {
				required[p] = true
				continue
			}
		}
		again = append(again, e)
	}
	var optional []string
	for _, e := range errs {
		p := contextPointer(e.Context())
		if e.Type() != "invalid_type" || !removed[p] {
			continue
		}
		if required[p] {
			again = append(again, e) // a required member is null: the original error stands
		} else {
			optional = append(optional, p)
		}
	}
	return again, optional
}

// withoutSummaries drops gojsonschema's allOf and if/then summaries when
// the errors they summarise are reported too: gojsonschema always merges
// those, so the summary would be a second finding for the same fault.
func withoutSummaries(errs []gojsonschema.ResultError) []gojsonschema.ResultError {
	if len(errs) < 2 {
		return errs
	}
	out := errs[:0:0]
	for _, e := range errs {
		switch e.Type() {
		case "number_all_of", "condition_then", "condition_else":
			continue
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return errs
	}
	return out
}

// rank puts the errors a reader should fix first (missing members, wrong
// types) before the summaries of anyOf/oneOf branches.
func rank(e gojsonschema.ResultError) int {
	switch e.Type() {
	case "required", "invalid_type":
		return 0
	case "number_any_of", "number_one_of", "number_all_of", "condition_then", "condition_else":
		return 2
	}
	return 1
}

func schemaFinding(s *dialect.Schema, m *message, e gojsonschema.ResultError) Finding {
	ptr := contextPointer(e.Context())
	full := ptr
	if e.Type() == "required" || e.Type() == "additional_property_not_allowed" {
		full += "/" + jsonx.EscapePointer(fmt.Sprint(e.Details()["property"]))
	}
	ev := s.EvidenceAt(full)
	kind := Evidence(ev.Kind)
	if !kind.Valid() {
		kind = Stated
	}
	fd := schemaRule(kind).at(m)
	fd.Spec = citation(s)
	if ev.Quote != "" {
		fd.Quote = ev.Quote
	}
	fd.Pointer = ptr
	d := e.Details()
	var text string
	switch e.Type() {
	case "required":
		prop := fmt.Sprint(d["property"])
		fd.Pointer += "/" + jsonx.EscapePointer(prop)
		fd.Expected, fd.Actual = fmt.Sprintf("member %q", prop), "absent"
		text = fmt.Sprintf("required member %q is missing", prop)
	case "invalid_type":
		fd.Expected, fd.Actual = fmt.Sprint(d["expected"]), fmt.Sprint(d["given"])
		text = "wrong type"
	case "enum":
		fd.Expected, fd.Actual = "one of "+fmt.Sprint(d["allowed"]), short(e.Value())
		text = "value not allowed"
	case "const":
		fd.Expected, fd.Actual = fmt.Sprint(d["allowed"]), short(e.Value())
		text = "value not allowed"
	case "additional_property_not_allowed":
		prop := fmt.Sprint(d["property"])
		fd.Pointer += "/" + jsonx.EscapePointer(prop)
		fd.Expected, fd.Actual = fmt.Sprintf("no member %q", prop), "present"
		text = fmt.Sprintf("member %q is not allowed", prop)
	default:
		fd.Expected, fd.Actual = expectation(e.Type(), d), short(e.Value())
		text = strings.ReplaceAll(e.Type(), "_", " ")
	}
	where := fd.Pointer
	if where == "" {
		where = "/"
	}
	fd.Message = fmt.Sprintf("%s: %s at %s", m.Type, text, where)
	if kind == Shown {
		fd.Message += " (the spec only shows this shape in an example)"
	}
	return fd
}

// expectation renders the bound a keyword sets, from gojsonschema's details.
func expectation(kind string, d gojsonschema.ErrorDetails) string {
	for _, k := range []string{"min", "max", "pattern", "format", "multiple", "min_x", "max_x"} {
		if v, ok := d[k]; ok {
			return fmt.Sprintf("%s %v", strings.ReplaceAll(kind, "_", " "), v)
		}
	}
	switch kind {
	case "number_any_of":
		return "one of the allowed shapes (anyOf)"
	case "number_one_of":
		return "exactly one of the allowed shapes (oneOf)"
	case "condition_then", "condition_else":
		return "the requirements for this kind of message (if/then)"
	}
	return kind
}

// citation is the spec reference of a schema: the start of its description.
func citation(s *dialect.Schema) string {
	desc := s.Description
	if i := strings.Index(desc, ": "); i > 0 && i < 160 {
		return desc[:i]
	}
	if len(desc) > 160 {
		return desc[:160] + "…"
	}
	return desc
}

// contextPointer turns gojsonschema's "(root).a.0" context into a JSON
// pointer, token by token so that keys holding dots survive.
func contextPointer(c *gojsonschema.JsonContext) string {
	if c == nil {
		return ""
	}
	toks := strings.Split(c.String("\x00"), "\x00")
	var b strings.Builder
	for _, t := range toks[1:] { // toks[0] is "(root)"
		b.WriteByte('/')
		b.WriteString(jsonx.EscapePointer(t))
	}
	return b.String()
}

// validateDoc runs gojsonschema on a decoded message. gojsonschema v1.2.0
// panics where a const or enum meets a number beyond float64 (it marshals
// the value, cannot read it back and dereferences the nil result): the
// panic becomes an error, so such a frame gets a finding instead of
// crashing the proxy.
func validateDoc(sch *gojsonschema.Schema, doc map[string]any) (res *gojsonschema.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("gojsonschema failed on this message: %v", p)
		}
	}()
	return sch.Validate(decodedLoader{doc})
}

// decodedLoader feeds a value decoded by jsonx to gojsonschema. jsonx builds
// exactly the types gojsonschema's own decoder would (json.Number included).
type decodedLoader struct{ v any }

func (l decodedLoader) JsonSource() any        { return l.v }
func (l decodedLoader) LoadJSON() (any, error) { return l.v, nil }
func (l decodedLoader) LoaderFactory() gojsonschema.JSONLoaderFactory {
	return gojsonschema.DefaultJSONLoaderFactory{}
}
func (l decodedLoader) JsonReference() (gojsonreference.JsonReference, error) {
	return gojsonreference.NewJsonReference("#")
}
