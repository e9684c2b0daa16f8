package asyncapi

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/replay"
	"github.com/wsconform/wsconform/internal/sessionize"
	"github.com/wsconform/wsconform/internal/wire"
)

//go:embed xwsconform.schema.json
var extensionSchema []byte

// ExtensionSchema is the JSON Schema of the x-wsconform extension.
func ExtensionSchema() []byte { return append([]byte(nil), extensionSchema...) }

// Protocol is an imported AsyncAPI document, registered as a dialect.
type Protocol struct {
	// Name is the dialect name the protocol is registered under:
	// asyncapi:<x-wsconform.name or the title's slug>.
	Name    string
	Dialect *dialect.Dialect
	// Notes say which stateful checks the document does not enable, and
	// which extension key would.
	Notes []string
}

// Load imports the AsyncAPI 3.0 document at file (YAML or JSON), follows
// its $refs within it and to local files, and registers it as a dialect.
func Load(file string) (*Protocol, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read protocol: %w", err)
	}
	dir := filepath.Dir(file)
	read := func(name string) ([]byte, error) {
		rel := strings.TrimPrefix(name, path.Dir(filepath.ToSlash(filepath.Base(file)))+"/")
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	}
	return Parse(filepath.Base(file), data, read)
}

// Parse is Load for a document in memory; read reads the files its $refs
// name (relative to the document), or is nil to refuse file references.
func Parse(name string, data []byte, read func(string) ([]byte, error)) (*Protocol, error) {
	l, err := parse(name, data, read)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	d, err := dialect.Register(l.fs, l.name, hex.EncodeToString(sum[:]))
	if err != nil {
		return nil, errAt(name, "", "%v", err)
	}
	if l.session != nil {
		if err := sessionize.Define(l.name, *l.session); err != nil {
			return nil, errAt(name, "/x-wsconform/session", "%v", err)
		}
	}
	if err := replay.Define(l.name, l.knowledge); err != nil {
		return nil, errAt(name, "/x-wsconform/replay", "%v", err)
	}
	return &Protocol{Name: l.name, Dialect: d, Notes: l.notes}, nil
}

// laidOut is a document turned into the files of schemas/<d>/.
type laidOut struct {
	name      string
	fs        fstest.MapFS
	session   *sessionize.Spec
	knowledge replay.Knowledge
	notes     []string
}

// extension is the decoded x-wsconform member.
type extension struct {
	Version     int                                  `json:"version"`
	Name        string                               `json:"name"`
	Spec        string                               `json:"spec"`
	TypeField   string                               `json:"typeField"`
	Perspective string                               `json:"perspective"`
	RuleSet     string                               `json:"ruleSet"`
	Ordering    *dialect.Ordering                    `json:"ordering"`
	Replay      *replayExt                           `json:"replay"`
	Session     *sessionize.Spec                     `json:"session"`
	Closed      map[wire.Direction]string            `json:"closed"`
	Removed     map[wire.Direction]map[string]string `json:"removed"`
	Ambiguities []dialect.AmbiguitySpec              `json:"ambiguities"`
	HTTP        map[string]any                       `json:"http"`
}

type replayExt struct {
	Requests    []string `json:"requests"`
	Spec        string   `json:"spec"`
	Ignore      []string `json:"ignore"`
	Cursors     []string `json:"cursors"`
	Volatile    []string `json:"volatile"`
	IDs         []string `json:"ids"`
	Tokens      []string `json:"tokens"`
	Timed       []string `json:"timed"`
	ClientTimed []string `json:"clientTimed"`
}

// msg is one message of the document as the dialect sees it.
type msg struct {
	dir         wire.Direction
	typ         string
	where       string // file#pointer of the message object, its identity
	payload     any
	file, at    string // where the payload is
	correlation string
}

type importer struct {
	name string
	r    *resolver
	root map[string]any
	ext  extension
	// flip is true for a document written from the client's side.
	flip  bool
	msgs  map[string]*msg // by dir + type
	byLoc map[string]*msg
	pairs []dialect.Pair
	paths []string
	notes []string
}

func parse(name string, data []byte, read func(string) ([]byte, error)) (*laidOut, error) {
	v, err := decode(name, data)
	if err != nil {
		return nil, err
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, errAt(name, "", "not an AsyncAPI document: the top level is not a mapping")
	}
	ver, _ := root["asyncapi"].(string)
	if ver == "" {
		return nil, errAt(name, "/asyncapi", "not an AsyncAPI document: no asyncapi version member")
	}
	if !strings.HasPrefix(ver, "3.0.") {
		return nil, errAt(name, "/asyncapi", "AsyncAPI %s is not supported: wsconform reads AsyncAPI 3.0 documents", ver)
	}
	im := &importer{name: name, root: root, r: &resolver{main: name, docs: map[string]any{name: root}, read: read},
		msgs: map[string]*msg{}, byLoc: map[string]*msg{}}
	if err := im.extension(); err != nil {
		return nil, err
	}
	if err := im.operations(); err != nil {
		return nil, err
	}
	return im.layOut()
}

// extension validates x-wsconform against its schema and decodes it.
func (im *importer) extension() error {
	raw, present := im.root["x-wsconform"]
	if !present {
		raw = map[string]any{}
	}
	res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(extensionSchema), gojsonschema.NewGoLoader(raw))
	if err != nil {
		return errAt(im.name, "/x-wsconform", "cannot be checked: %v", err)
	}
	if !res.Valid() {
		e := res.Errors()[0]
		at := "/x-wsconform"
		if f := e.Field(); f != "(root)" {
			at += "/" + strings.ReplaceAll(f, ".", "/")
		}
		return errAt(im.name, at, "%s (see the x-wsconform schema)", describe(e))
	}
	b, _ := json.Marshal(raw)
	if err := json.Unmarshal(b, &im.ext); err != nil {
		return errAt(im.name, "/x-wsconform", "%v", err)
	}
	if im.ext.TypeField == "" {
		im.ext.TypeField = "type"
	}
	im.flip = im.ext.Perspective == "client"
	if rs := im.ext.RuleSet; rs != "" && !check.RuleSetKnown(rs) {
		return errAt(im.name, "/x-wsconform/ruleSet", "unknown rule set %q (known: %s)", rs, strings.Join(dialect.Names(), ", "))
	}
	return nil
}

// operations walks the operations: their action gives each message its
// direction, their reply the pairs.
func (im *importer) operations() error {
	ops, _ := im.root["operations"].(map[string]any)
	if len(ops) == 0 {
		return errAt(im.name, "/operations", "no operations: wsconform needs send and receive operations to know each message's direction")
	}
	for _, id := range sortedKeys(ops) {
		at := "/operations/" + escape(id)
		o, file, oat, err := im.r.follow(im.name, at, ops[id])
		if err != nil {
			return err
		}
		op, ok := o.(map[string]any)
		if !ok {
			return errAt(file, oat, "operation is not a mapping")
		}
		action, _ := op["action"].(string)
		var dir wire.Direction
		switch action {
		case "receive":
			dir = wire.ClientToServer
		case "send":
			dir = wire.ServerToClient
		default:
			return errAt(file, oat+"/action", "action %q is neither send nor receive", action)
		}
		if im.flip {
			dir = other(dir)
		}
		if err := im.channel(file, oat, op); err != nil {
			return err
		}
		reqs, err := im.messages(file, oat, op, dir)
		if err != nil {
			return err
		}
		if rep, ok := op["reply"]; ok {
			if err := im.reply(file, oat+"/reply", rep, reqs, other(dir), id); err != nil {
				return err
			}
		}
	}
	return nil
}

func other(d wire.Direction) wire.Direction {
	if d == wire.ClientToServer {
		return wire.ServerToClient
	}
	return wire.ClientToServer
}

// channel notes the operation's channel address as a WebSocket path.
func (im *importer) channel(file, at string, op map[string]any) error {
	c, ok := op["channel"]
	if !ok {
		return errAt(file, at, "operation has no channel")
	}
	ch, cfile, cat, err := im.r.follow(file, at+"/channel", c)
	if err != nil {
		return err
	}
	cm, ok := ch.(map[string]any)
	if !ok {
		return errAt(cfile, cat, "channel is not a mapping")
	}
	if addr, ok := cm["address"].(string); ok && addr != "" {
		if !strings.HasPrefix(addr, "/") {
			addr = "/" + addr
		}
		for _, p := range im.paths {
			if p == addr {
				return nil
			}
		}
		im.paths = append(im.paths, addr)
	}
	return nil
}

// messages adds the messages an operation (or reply) lists.
func (im *importer) messages(file, at string, op map[string]any, dir wire.Direction) ([]*msg, error) {
	list, ok := op["messages"].([]any)
	if !ok || len(list) == 0 {
		return nil, errAt(file, at+"/messages", "no messages")
	}
	var out []*msg
	for i, ref := range list {
		mat := fmt.Sprintf("%s/messages/%d", at, i)
		v, mfile, mptr, err := im.r.follow(file, mat, ref)
		if err != nil {
			return nil, err
		}
		m, err := im.message(mfile, mptr, v, dir)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

func (im *importer) message(file, at string, v any, dir wire.Direction) (*msg, error) {
	where := string(dir) + "\x00" + file + "#" + at
	if m, ok := im.byLoc[where]; ok {
		return m, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errAt(file, at, "message is not a mapping")
	}
	if _, ok := obj["traits"]; ok {
		return nil, errAt(file, at+"/traits", "message traits are not supported: merge them into the message")
	}
	p, present := obj["payload"]
	if !present {
		return nil, errAt(file, at, "message has no payload: wsconform judges messages by their payload schema")
	}
	pat := at + "/payload"
	if mf, ok := p.(map[string]any); ok {
		if _, multi := mf["schemaFormat"]; multi {
			format, _ := mf["schemaFormat"].(string)
			if !supportedFormat(format) {
				return nil, errAt(file, pat+"/schemaFormat", "schema format %q is not supported (AsyncAPI Schema or JSON Schema draft-07)", format)
			}
			p, pat = mf["schema"], pat+"/schema"
			if p == nil {
				return nil, errAt(file, pat, "multi-format payload has no schema")
			}
		}
	}
	resolved, _, _, err := im.r.follow(file, pat, p)
	if err != nil {
		return nil, err
	}
	typ := typeOf(resolved, im.ext.TypeField)
	if typ == "" {
		typ, _ = obj["name"].(string)
	}
	if typ == "" {
		return nil, errAt(file, at, "no message type: neither the payload's properties/%s/const nor the message's name", im.ext.TypeField)
	}
	key := string(dir) + "\x00" + typ
	if prev, dup := im.msgs[key]; dup {
		im.byLoc[where] = prev
		if prev.where != file+"#"+at && !samePayload(prev.payload, p) {
			return nil, errAt(file, at, "a second %s message of type %q (the first is at %s)", dir, typ, prev.where)
		}
		return prev, nil
	}
	m := &msg{dir: dir, typ: typ, where: file + "#" + at, payload: p, file: file, at: pat}
	if c, ok := obj["correlationId"]; ok {
		cv, cfile, cat, err := im.r.follow(file, at+"/correlationId", c)
		if err != nil {
			return nil, err
		}
		loc, _ := cv.(map[string]any)["location"].(string)
		ptr, ok := strings.CutPrefix(loc, "$message.payload#")
		if !ok {
			return nil, errAt(cfile, cat+"/location", "correlationId location %q is not in the payload ($message.payload#/…)", loc)
		}
		m.correlation = ptr
	}
	im.msgs[key], im.byLoc[where] = m, m
	return m, nil
}

func samePayload(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func supportedFormat(f string) bool {
	f = strings.ToLower(strings.ReplaceAll(f, " ", ""))
	for _, ok := range []string{"application/vnd.aai.asyncapi;version=3.0.0", "application/vnd.aai.asyncapi+json;version=3.0.0",
		"application/vnd.aai.asyncapi+yaml;version=3.0.0", "application/schema+json;version=draft-07",
		"application/schema+yaml;version=draft-07"} {
		if f == ok {
			return true
		}
	}
	return false
}

// typeOf reads the type a payload pins: properties/<field>/const, or an
// enum of one value.
func typeOf(payload any, field string) string {
	p, _ := payload.(map[string]any)
	props, _ := p["properties"].(map[string]any)
	f, _ := props[field].(map[string]any)
	if c, ok := f["const"].(string); ok {
		return c
	}
	if e, ok := f["enum"].([]any); ok && len(e) == 1 {
		s, _ := e[0].(string)
		return s
	}
	return ""
}

// reply pairs the operation's requests with its reply messages.
func (im *importer) reply(file, at string, rep any, reqs []*msg, dir wire.Direction, opID string) error {
	v, rfile, rat, err := im.r.follow(file, at, rep)
	if err != nil {
		return err
	}
	r, ok := v.(map[string]any)
	if !ok {
		return errAt(rfile, rat, "reply is not a mapping")
	}
	replies, err := im.messages(rfile, rat, r, dir)
	if err != nil {
		return err
	}
	for _, q := range reqs {
		p := dialect.Pair{Request: q.typ, RequestDir: q.dir, RequestID: q.correlation, Operation: opID}
		for _, a := range replies {
			p.Replies = append(p.Replies, a.typ)
			if p.ReplyID == "" {
				p.ReplyID = a.correlation
			}
		}
		if p.RequestID == "" || p.ReplyID == "" {
			im.notes = append(im.notes, fmt.Sprintf("operation %s has a reply but its messages have no correlationId: its replies are not paired with requests", opID))
			continue
		}
		im.pairs = append(im.pairs, p)
	}
	return nil
}

// describe words a schema error of the extension; the check package
// silences gojsonschema's own texts (they cost time on every frame).
func describe(e gojsonschema.ResultError) string {
	d := e.Details()
	switch e.Type() {
	case "required":
		return fmt.Sprintf("%v is required", d["property"])
	case "additional_property_not_allowed":
		return fmt.Sprintf("%v is not an x-wsconform member", d["property"])
	case "invalid_type":
		return fmt.Sprintf("a %v, not a %v", d["expected"], d["given"])
	case "enum", "const":
		return fmt.Sprintf("%v is not one of %v", e.Value(), d["allowed"])
	case "pattern":
		return fmt.Sprintf("%q does not match %v", e.Value(), d["pattern"])
	}
	return strings.ReplaceAll(e.Type(), "_", " ")
}
