package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/wsconform/wsconform/internal/fastschema"
)

// The valid path of schema validation runs on a validator compiled from
// the same documents gojsonschema compiles (fastschema), which answers
// "certainly valid" or "don't know". gojsonschema then runs only on the
// frames it does not vouch for, and still writes every finding. Both are
// compiled once per process and dialect, with the schemas.

// fastLoader reads the documents of one dialect for fastschema, each
// decoded once (defs.json is shared by every message schema).
type fastLoader struct {
	fsys fs.FS
	docs map[string]any
}

func newFastLoader(fsys fs.FS) *fastLoader {
	return &fastLoader{fsys: fsys, docs: map[string]any{}}
}

// load reads file:///<path> from the dialect's file system, decoded as
// gojsonschema decodes it (json.Number for numbers).
func (l *fastLoader) load(url string) (any, error) {
	if d, ok := l.docs[url]; ok {
		return d, nil
	}
	p, ok := strings.CutPrefix(url, "file:///")
	if !ok || !fs.ValidPath(p) {
		return nil, fmt.Errorf("%s is not a file of the dialect", url)
	}
	raw, err := fs.ReadFile(l.fsys, p)
	if err != nil {
		return nil, err
	}
	d, err := decodeNumbers(raw)
	if err != nil {
		return nil, err
	}
	l.docs[url] = d
	return d, nil
}

// compile compiles the schema document at url; doc replaces the file's
// content (a variant), or is nil to read it.
func (l *fastLoader) compile(url string, doc any) *fastschema.Validator {
	if doc == nil {
		d, err := l.load(url)
		if err != nil {
			return nil
		}
		doc = d
	}
	return fastschema.Compile(doc, url, l.load)
}

func decodeNumbers(raw []byte) (any, error) {
	var out any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return out, dec.Decode(&out)
}

// fastFor picks the compiled validator as For picks the gojsonschema one.
func (s *Schema) fastFor(doc map[string]any) *fastschema.Validator {
	if s.variants != nil {
		if v, ok := doc[s.variants.prop].(string); ok {
			if _, ok := s.variants.byName[v]; ok {
				return s.variants.fast[v]
			}
		}
	}
	return s.fast
}

// KnownValid reports whether doc certainly passes the schema For(doc)
// returns. False means "don't know": validate with that schema. A true
// answer is proved to agree with gojsonschema by internal/fastschema's
// differential tests and fuzz target.
func (s *Schema) KnownValid(doc map[string]any) bool {
	return s.fastFor(doc).Valid(doc)
}

// FastUnknowns lists what the compiled validators of this schema (the
// full schema and each variant) leave to gojsonschema, for the test that
// the built-in dialects compile entirely.
func (s *Schema) FastUnknowns() []string {
	out := prefixed("", s.fast.Unknowns())
	if s.variants != nil {
		for v, f := range s.variants.fast {
			out = append(out, prefixed(s.variants.prop+"="+v+" ", f.Unknowns())...)
		}
	}
	return out
}

func prefixed(p string, xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = p + x
	}
	return out
}

// compileReading compiles a reading's schema from the manifest (decoded
// there with float64 numbers) as gojsonschema's Go loader sees it: numbers
// as json.Number. A reading is self-contained (gojsonschema compiles it
// without a base), so a $ref it holds is left to gojsonschema.
func compileReading(schema map[string]any, url string) *fastschema.Validator {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	doc, err := decodeNumbers(raw)
	if err != nil {
		return nil
	}
	return fastschema.Compile(doc, url, func(u string) (any, error) {
		return nil, fmt.Errorf("a reading loads no document (%s)", u)
	})
}
