package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/xeipuuv/gojsonreference"
	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/fastschema"
)

// Variants let a schema that branches on a discriminator be validated in
// O(1) instead of trying every branch. A schema whose top-level allOf is
// made only of entries
//
//	{"if": {"properties": {"P": {"const": V}}, "required": ["P"]}, "then": S}
//
// on one property P means: "if P is V, S applies". For a message whose P is
// V that is exactly the schema with only V's entry in allOf, so the loader
// compiles that variant once per V. gojsonschema otherwise evaluates every "if" and
// builds the error of each failing one, which made coworker's
// model_stream_chunk (24 part types) four times slower than any other
// message. Messages whose P matches no V use the full schema.
type variants struct {
	prop   string
	byName map[string]*gojsonschema.Schema
	fast   map[string]*fastschema.Validator // by value, compiled from the same variant
}

// For returns the compiled schema to validate doc with.
func (s *Schema) For(doc map[string]any) *gojsonschema.Schema {
	if s.variants != nil {
		if v, ok := doc[s.variants.prop].(string); ok {
			if c, ok := s.variants.byName[v]; ok {
				return c
			}
		}
	}
	return s.Compiled
}

// compileVariants returns nil when the schema does not have the shape.
func compileVariants(raw []byte, url string, hfs http.FileSystem, fl *fastLoader) (*variants, error) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	prop, branches := discriminated(doc)
	if prop == "" {
		return nil, nil
	}
	factory := gojsonschema.NewReferenceLoaderFileSystem(url, hfs).LoaderFactory()
	out := &variants{prop: prop, byName: map[string]*gojsonschema.Schema{}, fast: map[string]*fastschema.Validator{}}
	for value, branch := range branches {
		variant := make(map[string]any, len(doc))
		for k, v := range doc {
			variant[k] = v
		}
		variant["allOf"] = []any{branch}
		sl := gojsonschema.NewSchemaLoader()
		sl.Draft = gojsonschema.Draft7
		sl.AutoDetect = false
		// Register the variant under the file's URL first: Compile fetches a
		// document with a URL from the pool, not from the loader.
		l := docLoader{doc: variant, url: url, factory: factory}
		if err := sl.AddSchema(url, l); err != nil {
			return nil, fmt.Errorf("load variant %s=%s of %s: %w", prop, value, url, err)
		}
		c, err := sl.Compile(l)
		if err != nil {
			return nil, fmt.Errorf("compile variant %s=%s of %s: %w", prop, value, url, err)
		}
		out.byName[value] = c
		if numbered, err := roundTrip(variant); err == nil {
			out.fast[value] = fl.compile(url, numbered)
		}
	}
	return out, nil
}

// discriminated recognises the allOf-of-if/then shape and returns the
// property and the allOf entry of each value.
func discriminated(doc map[string]any) (string, map[string]any) {
	all, ok := doc["allOf"].([]any)
	if !ok || len(all) < 2 {
		return "", nil
	}
	prop, branches := "", map[string]any{}
	for _, e := range all {
		entry, ok := e.(map[string]any)
		if !ok || len(entry) != 2 || entry["then"] == nil {
			return "", nil
		}
		p, v, ok := constCondition(entry["if"])
		if !ok || (prop != "" && p != prop) {
			return "", nil
		}
		if _, dup := branches[v]; dup {
			return "", nil
		}
		// Keep the whole entry: its "if" holds for this value, and keeping
		// it makes the variant report exactly the errors of the full schema.
		prop, branches[v] = p, entry
	}
	return prop, branches
}

// constCondition matches {"properties": {"P": {"const": "V"}}} with an
// optional "required": ["P"], and nothing else.
func constCondition(cond any) (prop, value string, ok bool) {
	c, isObj := cond.(map[string]any)
	if !isObj {
		return "", "", false
	}
	props, isObj := c["properties"].(map[string]any)
	if !isObj || len(props) != 1 {
		return "", "", false
	}
	for p, s := range props {
		sub, isObj := s.(map[string]any)
		v, isStr := sub["const"].(string)
		if !isObj || !isStr || len(sub) != 1 {
			return "", "", false
		}
		prop, value = p, v
	}
	for k, v := range c {
		switch k {
		case "properties":
		case "required":
			req, isArr := v.([]any)
			if !isArr || len(req) != 1 || req[0] != prop {
				return "", "", false
			}
		default:
			return "", "", false
		}
	}
	return prop, value, true
}

// docLoader hands gojsonschema a schema built in memory but located at its
// file's URL, so that its relative $refs resolve as in the file.
type docLoader struct {
	doc     any
	url     string
	factory gojsonschema.JSONLoaderFactory
}

func (l docLoader) JsonSource() any        { return l.doc }
func (l docLoader) LoadJSON() (any, error) { return roundTrip(l.doc) }
func (l docLoader) JsonReference() (gojsonreference.JsonReference, error) {
	return gojsonreference.NewJsonReference(l.url)
}
func (l docLoader) LoaderFactory() gojsonschema.JSONLoaderFactory { return l.factory }

// roundTrip gives gojsonschema numbers as json.Number, as its own loaders do.
func roundTrip(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return out, dec.Decode(&out)
}
