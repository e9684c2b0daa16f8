package dialect

import (
	"fmt"
	"io/fs"
	"sync"
)

// Protocols loaded at run time (wsconform --protocol FILE, an AsyncAPI
// document) join the registry here, so that every feeder that asks for a
// dialect by name (validate, wsproxy, replay, gate) judges them with the
// same engine as the five built-in ones. A protocol is the same data a
// built-in dialect is, laid out as schemas/<d>/ is (manifest.json,
// defs.json, c2s/, s2c/), only built in memory by its importer.
var (
	extraMu sync.RWMutex
	extra   []string
	keys    = map[string]string{}
)

// Register loads a protocol from fsys, laid out as schemas/<name>/ is, and
// adds it to the registry under name. key identifies the content (a hash
// of the document): registering the same name and key again returns the
// dialect loaded first, so a command run twice in one process works. A name
// of a built-in dialect, or one registered before with another key, is
// refused: a process judges one protocol per name.
func Register(fsys fs.FS, name, key string) (*Dialect, error) {
	for _, n := range names {
		if n == name {
			return nil, fmt.Errorf("protocol name %q is a built-in dialect; give the document another info.title or x-wsconform.name", name)
		}
	}
	extraMu.Lock()
	defer extraMu.Unlock()
	if k, dup := keys[name]; dup {
		if k != key {
			return nil, fmt.Errorf("protocol %q is already registered from another document", name)
		}
		cacheMu.Lock()
		defer cacheMu.Unlock()
		return cache[name].d, nil
	}
	d, err := load(fsys, name)
	if err != nil {
		return nil, err
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	keys[name] = key
	e := &entry{d: d}
	e.once.Do(func() {})
	cache[name] = e
	extra = append(extra, name)
	return d, nil
}

// Imported reports whether name is a protocol added by Register.
func Imported(name string) bool { return registered(name) }

// registered reports whether name is a protocol added by Register.
func registered(name string) bool {
	extraMu.RLock()
	defer extraMu.RUnlock()
	for _, n := range extra {
		if n == name {
			return true
		}
	}
	return false
}

// Registered lists the protocols added by Register, in their order.
func Registered() []string {
	extraMu.RLock()
	defer extraMu.RUnlock()
	return append([]string(nil), extra...)
}

// Compile loads a protocol laid out as schemas/<name>/ without registering
// it: for an importer to check a document, and for its fuzz test.
func Compile(fsys fs.FS, name string) (*Dialect, error) { return load(fsys, name) }

// Base is the built-in dialect whose mechanisms serve this one: the rule
// set an imported protocol names (an exported hostd read back keeps
// hostd's HTTP login in serve --replay and gate), else the dialect itself.
func (d *Dialect) Base() string {
	if d.RuleSet != "" {
		return d.RuleSet
	}
	return d.Dialect
}

// BaseOf is Base by name; an unknown name is its own base.
func BaseOf(name string) string {
	if d, err := Get(name); err == nil {
		return d.Base()
	}
	return name
}

// Discriminator is the member whose value picks the compiled variant of the
// schema (see variants), or "" when the schema has none: an imported
// protocol's schemas get the same fast path as the built-in ones.
func (s *Schema) Discriminator() string {
	if s.variants == nil {
		return ""
	}
	return s.variants.prop
}

// ImportedPrefix starts the name of every protocol read from an AsyncAPI
// document (asyncapi:mitto is the exported mitto read back, never the
// built-in mitto), so that a recording's header says where its dialect
// came from.
const ImportedPrefix = "asyncapi:"
