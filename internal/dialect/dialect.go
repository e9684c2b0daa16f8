package dialect

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/fastschema"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/schemas"
)

// Dialect is a loaded dialect: its manifest and its compiled schemas.
type Dialect struct {
	Manifest
	schemas     map[wire.Direction]map[string]*Schema
	http        map[string]*Schema
	ambiguities []Ambiguity
}

// Schema is one compiled message schema with the text it cites.
type Schema struct {
	Type        string
	Dir         wire.Direction
	File        string // path inside schemas.FS
	Description string
	// Evidence is the schema's x-evidence: what the spec gives for it.
	Evidence SchemaEvidence
	Compiled *gojsonschema.Schema
	variants *variants
	// fast vouches for the frames Compiled accepts (see KnownValid).
	fast *fastschema.Validator
}

// Ambiguity is an AmbiguitySpec with its readings compiled.
type Ambiguity struct {
	AmbiguitySpec
	Compiled []*gojsonschema.Schema
	// fast vouches for the documents Compiled[i] accepts (see MeetsReading).
	fast []*fastschema.Validator
}

// MeetsReading reports whether doc meets reading i: the compiled validator
// vouches for it, else gojsonschema's verdict (by validate, which the
// caller gives so that it can guard gojsonschema's panics).
func (a Ambiguity) MeetsReading(i int, doc map[string]any, validate func(*gojsonschema.Schema) bool) bool {
	if i < len(a.fast) && a.fast[i].Valid(doc) {
		return true
	}
	return validate(a.Compiled[i])
}

// ReadingUnknowns lists what the compiled validators of the readings leave
// to gojsonschema, for the test that they compile entirely.
func (a Ambiguity) ReadingUnknowns() []string {
	var out []string
	for i, f := range a.fast {
		out = append(out, prefixed(a.Readings[i].Name+": ", f.Unknowns())...)
	}
	return out
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*entry{}
)

type entry struct {
	once sync.Once
	d    *Dialect
	err  error
}

// Get returns the named dialect, loading and compiling it on first use.
// Compilation happens once per process and dialect; the result is shared
// and read-only.
func Get(name string) (*Dialect, error) {
	if !Known(name) {
		return nil, fmt.Errorf("unknown dialect %q (known: %s)", name, strings.Join(names, ", "))
	}
	cacheMu.Lock()
	e, ok := cache[name]
	if !ok {
		e = &entry{}
		cache[name] = e
	}
	cacheMu.Unlock()
	e.once.Do(func() { e.d, e.err = load(schemas.FS, name) })
	return e.d, e.err
}

// MustGet is Get for the embedded dialects, which a test proves load; it
// panics only on a build that broke its own schemas.
func MustGet(name string) *Dialect {
	d, err := Get(name)
	if err != nil {
		panic(err)
	}
	return d
}

func load(fsys fs.FS, name string) (*Dialect, error) {
	raw, err := fs.ReadFile(fsys, path.Join(name, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("read manifest of %s: %w", name, err)
	}
	d := &Dialect{
		schemas: map[wire.Direction]map[string]*Schema{},
		http:    map[string]*Schema{},
	}
	if err := json.Unmarshal(raw, &d.Manifest); err != nil {
		return nil, fmt.Errorf("parse manifest of %s: %w", name, err)
	}
	if d.Dialect != name {
		return nil, fmt.Errorf("manifest of %s names dialect %q", name, d.Dialect)
	}
	if d.TypeField == "" {
		return nil, fmt.Errorf("manifest of %s has no typeField", name)
	}
	hfs := http.FS(fsys)
	fl := newFastLoader(fsys)
	for dir, types := range d.Messages {
		if !dir.Valid() {
			return nil, fmt.Errorf("manifest of %s: unknown direction %q", name, dir)
		}
		d.schemas[dir] = map[string]*Schema{}
		for _, t := range types {
			s, err := compileFile(hfs, fsys, fl, path.Join(name, string(dir), t+".json"))
			if err != nil {
				return nil, err
			}
			s.Type, s.Dir = t, dir
			d.schemas[dir][t] = s
		}
	}
	for _, h := range d.HTTP {
		s, err := compileFile(hfs, fsys, fl, path.Join(name, "http", h+".json"))
		if err != nil {
			return nil, err
		}
		s.Type = h
		d.http[h] = s
	}
	if err := d.checkEndpoints(); err != nil {
		return nil, err
	}
	for _, a := range d.AmbiguitySpecs {
		c := Ambiguity{AmbiguitySpec: a}
		for _, r := range a.Readings {
			sch, err := gojsonschema.NewSchema(gojsonschema.NewGoLoader(r.Schema))
			if err != nil {
				return nil, fmt.Errorf("compile reading %q of %s: %w", r.Name, a.ID, err)
			}
			c.Compiled = append(c.Compiled, sch)
			c.fast = append(c.fast, compileReading(r.Schema, "reading:///"+a.ID+"/"+r.Name))
		}
		d.ambiguities = append(d.ambiguities, c)
	}
	return d, nil
}

func compileFile(hfs http.FileSystem, fsys fs.FS, fl *fastLoader, file string) (*Schema, error) {
	raw, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	var head struct {
		Description string         `json:"description"`
		Evidence    SchemaEvidence `json:"x-evidence"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("parse schema %s: %w", file, err)
	}
	sl := gojsonschema.NewSchemaLoader()
	sl.Draft = gojsonschema.Draft7
	sl.AutoDetect = false
	compiled, err := sl.Compile(gojsonschema.NewReferenceLoaderFileSystem("file:///"+file, hfs))
	if err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", file, err)
	}
	vs, err := compileVariants(raw, "file:///"+file, hfs, fl)
	if err != nil {
		return nil, err
	}
	return &Schema{File: file, Description: head.Description, Evidence: head.Evidence, Compiled: compiled, variants: vs,
		fast: fl.compile("file:///"+file, nil)}, nil
}

// Schema returns the schema of a message type in a direction.
func (d *Dialect) Schema(dir wire.Direction, typ string) (*Schema, bool) {
	s, ok := d.schemas[dir][typ]
	return s, ok
}

// HTTPSchema returns the schema of a named HTTP body.
func (d *Dialect) HTTPSchema(name string) (*Schema, bool) {
	s, ok := d.http[name]
	return s, ok
}

// Types lists the message types of a direction, sorted.
func (d *Dialect) Types(dir wire.Direction) []string {
	out := make([]string, 0, len(d.schemas[dir]))
	for t := range d.schemas[dir] {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Knows reports whether typ flows in direction dir in any spec reading.
func (d *Dialect) Knows(dir wire.Direction, typ string) bool {
	_, ok := d.schemas[dir][typ]
	return ok
}

// RemovedReason says why typ is no longer part of the dialect, if it was
// removed by a spec version.
func (d *Dialect) RemovedReason(dir wire.Direction, typ string) (string, bool) {
	r, ok := d.Removed[dir][typ]
	return r, ok
}

// Ambiguities lists the compiled contradictions of the spec.
func (d *Dialect) Ambiguities() []Ambiguity { return d.ambiguities }
