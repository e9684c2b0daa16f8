package asyncapi

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"testing/fstest"
	"unicode"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/replay"
	"github.com/wsconform/wsconform/internal/wire"
)

// Prefix starts the dialect name of every imported protocol, so a report
// says the protocol came from a document (asyncapi:mitto is the exported
// mitto read back, never the built-in mitto).
const Prefix = dialect.ImportedPrefix

const draft07 = "http://json-schema.org/draft-07/schema#"

// layOut writes the dialect's files as schemas/<d>/ holds them.
func (im *importer) layOut() (*laidOut, error) {
	short := im.ext.Name
	info, _ := im.root["info"].(map[string]any)
	title, _ := info["title"].(string)
	if short == "" {
		short = slug(title)
	}
	if short == "" {
		return nil, errAt(im.name, "/info/title", "no title to name the protocol by (or set x-wsconform.name)")
	}
	name := Prefix + short
	out := &laidOut{name: name, fs: fstest.MapFS{}}
	put := func(file string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return errAt(im.name, "", "%v", err)
		}
		out.fs[path.Join(name, file)] = &fstest.MapFile{Data: b}
		return nil
	}
	defs := map[string]any{}
	comps, _ := im.root["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	for _, k := range sortedKeys(schemas) {
		s, err := im.r.schema(im.name, "/components/schemas/"+escape(k), schemas[k], "", nil)
		if err != nil {
			return nil, err
		}
		defs[k] = s
	}
	if err := put("defs.json", map[string]any{"$schema": draft07, "definitions": defs}); err != nil {
		return nil, err
	}
	m := dialect.Manifest{Dialect: name, Title: title, Spec: im.ext.Spec, TypeField: im.ext.TypeField, Paths: im.paths,
		Messages: map[wire.Direction][]string{}, Removed: im.ext.Removed, Closed: im.ext.Closed,
		AmbiguitySpecs: im.ext.Ambiguities, RuleSet: im.ext.RuleSet, Pairs: im.pairs}
	if m.Spec == "" {
		m.Spec = im.name
	}
	keys := sortedKeys(im.msgs)
	for _, k := range keys {
		mg := im.msgs[k]
		if strings.ContainsAny(mg.typ, "/\\") || mg.typ == "." || mg.typ == ".." {
			return nil, errAt(mg.file, mg.at, "message type %q cannot name a schema file", mg.typ)
		}
		s, err := im.payload(mg.file, mg.at, mg.payload, "message "+mg.typ)
		if err != nil {
			return nil, err
		}
		if err := put(path.Join(string(mg.dir), mg.typ+".json"), s); err != nil {
			return nil, err
		}
		m.Messages[mg.dir] = append(m.Messages[mg.dir], mg.typ)
	}
	for _, h := range sortedKeys(im.ext.HTTP) {
		s, err := im.payload(im.name, "/x-wsconform/http/"+escape(h), im.ext.HTTP[h], "HTTP body "+h)
		if err != nil {
			return nil, err
		}
		if err := put(path.Join("http", h+".json"), s); err != nil {
			return nil, err
		}
		m.HTTP = append(m.HTTP, h)
	}
	if o := im.ext.Ordering; o != nil {
		m.Ordering = *o
	}
	if rp := im.ext.Replay; rp != nil {
		m.Replay = dialect.Replay{Requests: rp.Requests, Spec: rp.Spec, Ignore: rp.Ignore}
		out.knowledge = replay.Knowledge{Volatile: rp.Volatile, IDs: rp.IDs, Cursors: rp.Cursors, Tokens: rp.Tokens,
			Timed: rp.Timed, ClientTimed: rp.ClientTimed}
	}
	if err := put("manifest.json", m); err != nil {
		return nil, err
	}
	out.session = im.ext.Session
	out.notes = append(im.notes, im.missing(m)...)
	return out, nil
}

// payload lays out one message schema: a bare reference into
// components.schemas is written as that schema itself, so that its
// description, x-evidence and discriminated branches sit at the top as
// the engine expects.
func (im *importer) payload(file, at string, p any, what string) (any, error) {
	if obj, ok := p.(map[string]any); ok && len(obj) == 1 && file == im.name {
		if ref, ok := obj["$ref"].(string); ok && strings.HasPrefix(ref, "#/components/schemas/") && !strings.Contains(strings.TrimPrefix(ref, "#/components/schemas/"), "/") {
			t, tf, ta, err := im.r.follow(file, at, obj)
			if err != nil {
				return nil, err
			}
			p, file, at = t, tf, ta
		}
	}
	s, err := im.r.schema(file, at, p, "../defs.json", nil)
	if err != nil {
		return nil, err
	}
	sm, ok := s.(map[string]any)
	if !ok {
		if b, isBool := s.(bool); isBool {
			sm = map[string]any{}
			if !b {
				sm["not"] = map[string]any{}
			}
		} else {
			return nil, errAt(file, at, "payload schema is not a mapping")
		}
	}
	sm["$schema"] = draft07
	delete(sm, "$id")
	if _, ok := sm["x-evidence"]; !ok {
		// The document is the protocol's spec: its schema states the shape.
		sm["x-evidence"] = map[string]any{"kind": "stated", "quote": fmt.Sprintf("%s: the payload schema of %s", im.name, what)}
	}
	return sm, nil
}

// missing says which stateful checks the document leaves out and the key
// that would enable each.
func (im *importer) missing(m dialect.Manifest) []string {
	if m.RuleSet != "" {
		return nil
	}
	var out []string
	if m.Ordering.Pointer == "" {
		out = append(out, "ordering and replay checks not possible: the document names no ordering member (x-wsconform.ordering {pointer, scope, direction})")
	} else if m.Ordering.Evidence != "stated" || m.Ordering.Quote == "" {
		out = append(out, "ordering and replay findings are warnings: x-wsconform.ordering gives no stated evidence with a quote")
	}
	if len(m.Pairs) == 0 {
		out = append(out, "request/reply pairing not checked: no operation has a reply whose messages carry a correlationId")
	}
	if im.ext.Session == nil {
		out = append(out, "each connection is its own session: reconnects are not judged together (x-wsconform.session {query, server, client})")
	}
	if len(m.Closed) == 0 {
		out = append(out, "an undocumented message type is a warning: the document does not close the set of types (x-wsconform.closed {c2s, s2c})")
	}
	return out
}

// slug turns a title into a dialect name: lower case, dashes for the rest.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			dash = false
		} else if b.Len() > 0 && !dash {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	return strings.Trim(b.String(), "-")
}
