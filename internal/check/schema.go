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
	res, err := s.Compiled.Validate(decodedLoader{m.Doc})
	if err != nil {
		fd := ruleSchema.fire(m, "schema %s could not run: %v", s.File, err)
		return []Finding{fd}
	}
	if res.Valid() {
		m.SchemaOK = true
		return nil
	}
	errs := res.Errors()
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
	switch e.Type() {
	case "required":
		prop := fmt.Sprint(d["property"])
		fd.Pointer += "/" + jsonx.EscapePointer(prop)
		fd.Expected, fd.Actual = fmt.Sprintf("member %q", prop), "absent"
	case "invalid_type":
		fd.Expected, fd.Actual = fmt.Sprint(d["expected"]), fmt.Sprint(d["given"])
	case "enum":
		fd.Expected, fd.Actual = "one of "+fmt.Sprint(d["allowed"]), short(e.Value())
	case "const":
		fd.Expected, fd.Actual = fmt.Sprint(d["allowed"]), short(e.Value())
	case "additional_property_not_allowed":
		prop := fmt.Sprint(d["property"])
		fd.Pointer += "/" + jsonx.EscapePointer(prop)
		fd.Expected, fd.Actual = "no member "+fmt.Sprintf("%q", prop), "present"
	default:
		fd.Actual = short(e.Value())
	}
	fd.Message = fmt.Sprintf("%s: %s", m.Type, describe(fd.Pointer, e.Description()))
	return fd
}

func describe(ptr, desc string) string {
	if ptr == "" {
		return desc
	}
	return ptr + ": " + desc
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
