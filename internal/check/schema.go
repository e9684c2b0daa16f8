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
// times.
func checkSchema(s *dialect.Schema, m *message) []Finding {
	res, err := s.For(m.Doc).Validate(decodedLoader{m.Doc})
	if err != nil {
		fd := ruleSchema.fire(m, "schema %s could not run: %v", s.File, err)
		return []Finding{fd}
	}
	if res.Valid() {
		m.SchemaOK = true
		return nil
	}
	errs := withoutSummaries(res.Errors())
	sort.SliceStable(errs, func(i, j int) bool { return rank(errs[i]) < rank(errs[j]) })
	var out []Finding
	for _, e := range errs {
		if len(out) == maxSchemaFindings {
			fd := ruleSchema.fire(m, "%d more schema errors not shown", len(errs)-maxSchemaFindings)
			out = append(out, fd)
			break
		}
		out = append(out, schemaFinding(s, m, e))
	}
	return out
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
	fd := ruleSchema.at(m)
	fd.Spec = citation(s)
	fd.Pointer = contextPointer(e.Context())
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
