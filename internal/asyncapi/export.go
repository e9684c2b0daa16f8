package asyncapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/wsconform/wsconform/features"
	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/replay"
	"github.com/wsconform/wsconform/internal/requirements"
	"github.com/wsconform/wsconform/internal/sessionize"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/schemas"
)

// Version is the AsyncAPI version exported and accepted.
const Version = "3.0.0"

// ExtensionVersion is the version of the x-wsconform extension; its JSON
// Schema is xwsconform.schema.json.
const ExtensionVersion = 1

// Export builds the AsyncAPI 3.0 document of a built-in dialect, as JSON.
// Everything in it comes from the dialect's data: the manifest, the
// schemas and their examples (schemas/<d>/), the requirement registry
// (features/<d>/requirements.json) and the rule catalogue.
func Export(name string) ([]byte, error) {
	d, err := dialect.Get(name)
	if err != nil {
		return nil, err
	}
	if dialect.Imported(name) {
		return nil, fmt.Errorf("%s is an imported protocol: its document is the source", name)
	}
	e := &exporter{d: d, fsys: schemas.FS}
	doc, err := e.document()
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", name, err)
	}
	return marshalIndent(doc)
}

type exporter struct {
	d    *dialect.Dialect
	fsys fs.FS
}

func (e *exporter) document() (*omap, error) {
	comps := newOmap()
	defs, err := e.definitions()
	if err != nil {
		return nil, err
	}
	msgs := newOmap()
	for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
		for _, t := range e.d.Messages[dir] {
			m, err := e.message(dir, t)
			if err != nil {
				return nil, err
			}
			msgs.set(messageKey(dir, t), m)
		}
	}
	for _, h := range e.d.HTTP {
		s, err := e.schemaFile(path.Join(e.d.Dialect, "http", h+".json"))
		if err != nil {
			return nil, err
		}
		defs.set("http."+h, s)
	}
	comps.set("schemas", defs).set("messages", msgs)
	channels, ops := e.channels()
	ext, err := e.extension()
	if err != nil {
		return nil, err
	}
	doc := newOmap().set("asyncapi", Version)
	doc.set("info", newOmap().
		set("title", e.d.Title).
		set("version", "wsconform-"+e.d.Dialect).
		set("description", fmt.Sprintf("%s as wsconform judges it (dialect %s, spec %s), exported by `wsconform export --asyncapi`. "+
			"The document describes the server: receive operations are client→server messages, send operations server→client ones.",
			e.d.Title, e.d.Dialect, e.d.Spec)))
	doc.set("defaultContentType", "application/json")
	doc.set("servers", newOmap().set("reference", newOmap().
		set("host", "127.0.0.1:8765").
		set("protocol", "ws").
		set("description", "the reference server (`wsconform serve`); any server of the spec speaks the same")))
	doc.set("channels", channels).set("operations", ops).set("components", comps)
	doc.set("x-wsconform", ext)
	return doc, nil
}

// messageKey names a message in components and channels: the direction
// first, since a type may flow both ways (coworker's user_message).
func messageKey(dir wire.Direction, typ string) string { return string(dir) + "." + typ }

// channelKey names the channel of a WebSocket path.
func channelKey(p string) string {
	k := strings.Trim(strings.NewReplacer("/", "_", "{", "", "}", "").Replace(p), "_")
	if k == "" {
		return "root"
	}
	return k
}

func (e *exporter) channels() (*omap, *omap) {
	chans, ops := newOmap(), newOmap()
	paths := e.d.Paths
	if len(paths) == 0 {
		paths = []string{"/"}
	}
	replies := e.replies()
	for _, p := range paths {
		ck := channelKey(p)
		refs := newOmap()
		for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
			for _, t := range e.d.Messages[dir] {
				k := messageKey(dir, t)
				refs.set(k, ref("#/components/messages/"+k))
			}
		}
		chans.set(ck, newOmap().
			set("address", p).
			set("title", e.d.Title+" "+p).
			set("messages", refs).
			set("bindings", newOmap().set("ws", newOmap().set("bindingVersion", "0.1.0"))))
		for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
			action := "receive"
			if dir == wire.ServerToClient {
				action = "send"
			}
			for _, t := range e.d.Messages[dir] {
				k := messageKey(dir, t)
				op := newOmap().
					set("action", action).
					set("channel", ref("#/channels/"+ck)).
					set("messages", []any{ref("#/channels/" + ck + "/messages/" + k)})
				if rs := replies[k]; len(rs) > 0 {
					var mr []any
					for _, r := range rs {
						mr = append(mr, ref("#/channels/"+ck+"/messages/"+r))
					}
					op.set("reply", newOmap().set("channel", ref("#/channels/"+ck)).set("messages", mr))
				}
				ops.set(ck+"."+action+"."+t, op)
			}
		}
	}
	return chans, ops
}

// replies maps a request's message key to its replies' keys.
func (e *exporter) replies() map[string][]string {
	out := map[string][]string{}
	for _, p := range e.d.Pairs {
		other := wire.ServerToClient
		if p.RequestDir == wire.ServerToClient {
			other = wire.ClientToServer
		}
		k := messageKey(p.RequestDir, p.Request)
		for _, r := range p.Replies {
			out[k] = append(out[k], messageKey(other, r))
		}
	}
	return out
}

// correlations maps a message key to the pointer of its correlation id.
func (e *exporter) correlations() map[string]string {
	out := map[string]string{}
	for _, p := range e.d.Pairs {
		other := wire.ServerToClient
		if p.RequestDir == wire.ServerToClient {
			other = wire.ClientToServer
		}
		out[messageKey(p.RequestDir, p.Request)] = p.RequestID
		for _, r := range p.Replies {
			out[messageKey(other, r)] = p.ReplyID
		}
	}
	return out
}

func ref(to string) *omap { return newOmap().set("$ref", to) }

func (e *exporter) message(dir wire.Direction, typ string) (*omap, error) {
	file := path.Join(e.d.Dialect, string(dir), typ+".json")
	payload, err := e.schemaFile(file)
	if err != nil {
		return nil, err
	}
	s, _ := e.d.Schema(dir, typ)
	m := newOmap().
		set("name", typ).
		set("title", typ+" ("+dirWords(dir)+")").
		set("summary", firstSentence(s.Description)).
		set("contentType", "application/json").
		set("payload", payload)
	if ptr, ok := e.correlations()[messageKey(dir, typ)]; ok {
		m.set("correlationId", newOmap().set("location", "$message.payload#"+ptr))
	}
	ex, err := e.examples(dir, typ)
	if err != nil {
		return nil, err
	}
	m.set("examples", ex)
	return m, nil
}

func dirWords(dir wire.Direction) string {
	if dir == wire.ClientToServer {
		return "client to server"
	}
	return "server to client"
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i+1]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// examples are the valid examples of the type, as AsyncAPI message
// examples (the invalid ones stay in the repository's tests).
func (e *exporter) examples(dir wire.Direction, typ string) ([]any, error) {
	raw, err := fs.ReadFile(e.fsys, path.Join(e.d.Dialect, "examples", string(dir), typ+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ex struct {
		Valid []any `json:"valid"`
	}
	if err := json.Unmarshal(raw, &ex); err != nil {
		return nil, fmt.Errorf("parse examples of %s: %w", typ, err)
	}
	var out []any
	for i, v := range ex.Valid {
		out = append(out, newOmap().set("name", fmt.Sprintf("%s-%d", strings.ReplaceAll(typ, ".", "-"), i+1)).set("payload", v))
	}
	return out, nil
}

// definitions are defs.json's definitions, as components.schemas.
func (e *exporter) definitions() (*omap, error) {
	raw, err := fs.ReadFile(e.fsys, path.Join(e.d.Dialect, "defs.json"))
	if err != nil {
		return nil, fmt.Errorf("read defs: %w", err)
	}
	var defs struct {
		Definitions map[string]any `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &defs); err != nil {
		return nil, fmt.Errorf("parse defs: %w", err)
	}
	out := newOmap()
	for _, k := range sortedKeys(defs.Definitions) {
		out.set(k, rewriteRefs(defs.Definitions[k]))
	}
	return out, nil
}

// schemaFile reads a message schema as a payload: its $refs into defs.json
// point at components.schemas, and $schema goes (the payload's format is
// the document's default, AsyncAPI Schema, a superset of draft-07).
func (e *exporter) schemaFile(file string) (map[string]any, error) {
	raw, err := fs.ReadFile(e.fsys, file)
	if err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("parse schema %s: %w", file, err)
	}
	delete(s, "$schema")
	return rewriteRefs(s).(map[string]any), nil
}

// rewriteRefs points the dialect's "../defs.json#/definitions/X" and
// defs.json's "#/definitions/X" at "#/components/schemas/X".
func rewriteRefs(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if k == "$ref" {
				if s, ok := val.(string); ok {
					if i := strings.Index(s, "#/definitions/"); i >= 0 {
						val = "#/components/schemas/" + s[i+len("#/definitions/"):]
					}
				}
			}
			out[k] = rewriteRefs(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = rewriteRefs(val)
		}
		return out
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// extension is the x-wsconform member: what AsyncAPI has no place for.
func (e *exporter) extension() (*omap, error) {
	d := e.d
	x := newOmap().
		set("version", ExtensionVersion).
		set("name", d.Dialect).
		set("spec", d.Spec).
		set("typeField", d.TypeField).
		set("perspective", "server").
		set("ruleSet", d.Dialect)
	x.set("ordering", ordering(d.Ordering))
	x.set("replay", e.replayExt())
	x.set("session", sessionExt(d.Dialect))
	if len(d.Closed) > 0 {
		x.set("closed", d.Closed)
	}
	if len(d.Removed[wire.ClientToServer])+len(d.Removed[wire.ServerToClient]) > 0 {
		x.set("removed", d.Removed)
	}
	if len(d.AmbiguitySpecs) > 0 {
		x.set("ambiguities", d.AmbiguitySpecs)
	}
	if len(d.HTTP) > 0 {
		h := newOmap()
		for _, n := range d.HTTP {
			h.set(n, ref("#/components/schemas/http."+n))
		}
		x.set("http", h)
	}
	reg, err := requirements.Load(features.FS, d.Dialect)
	if err != nil {
		return nil, err
	}
	x.set("requirements", reg.Requirements)
	var rules []any
	for _, r := range check.Rules(d.Dialect) {
		if r.Dialect != d.Dialect {
			continue // the generic rules are the engine's, not the protocol's
		}
		rules = append(rules, newOmap().set("id", r.ID).set("severity", r.Severity.String()).
			set("evidence", string(r.Evidence)).set("spec", r.Spec).set("quote", r.Quote).
			set("requires", r.Requires).set("summary", r.Summary))
	}
	x.set("rules", rules)
	return x, nil
}

func ordering(o dialect.Ordering) *omap {
	if o.Pointer == "" {
		return nil
	}
	return newOmap().set("pointer", o.Pointer).set("scope", o.Scope).set("direction", string(o.Direction)).
		set("types", o.Types).set("spec", o.Spec).set("evidence", o.Evidence).set("quote", o.Quote)
}

// replayExt says how a client resumes (the requests and their cursors) and
// what a replay must equal (the members that may differ).
func (e *exporter) replayExt() *omap {
	k := replay.KnowledgeOf(e.d.Dialect)
	out := newOmap().set("requests", e.d.Replay.Requests).set("spec", e.d.Replay.Spec).
		set("cursors", k.Cursors).set("ignore", e.d.Replay.Ignore).
		set("volatile", k.Volatile).set("ids", k.IDs).set("tokens", k.Tokens).
		set("timed", k.Timed).set("clientTimed", k.ClientTimed)
	return out
}

// sessionExt is how connections tie into one logical session.
func sessionExt(name string) any {
	s, ok := sessionize.SpecOf(name)
	if !ok {
		return newOmap().set("perConnection", true)
	}
	return s
}
