package fastschema

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Loader returns the document at an absolute URL (no fragment), decoded
// with json.Decoder.UseNumber as gojsonschema's loaders decode it.
type Loader func(url string) (any, error)

// Validator is a compiled schema. A nil Validator knows nothing.
type Validator struct {
	root *node
	why  []string
}

// Valid reports whether v, a value as jsonx.Decode builds it, is certainly
// valid. False means "don't know": ask gojsonschema.
func (v *Validator) Valid(x any) bool {
	if v == nil {
		return false
	}
	var st state
	return v.root.eval(x, &st) == valid && !st.poisoned
}

// Unknowns lists the places this validator does not compile (a keyword it
// does not implement, a $ref it does not follow), each as "pointer: why".
// Values that reach them are "don't know".
func (v *Validator) Unknowns() []string {
	if v == nil {
		return []string{"no validator"}
	}
	return v.why
}

// Compile compiles doc, the schema found at url (decoded with UseNumber),
// resolving its $refs with load. It never fails: what it cannot compile
// it leaves to gojsonschema (Unknowns says what).
func Compile(doc any, url string, load Loader) *Validator {
	c := &compiler{docs: map[string]any{url: doc}, load: load, memo: map[string]*node{}}
	if why := c.identified(url); why != "" {
		return &Validator{root: &node{why: why}, why: []string{"/: " + why}}
	}
	root := c.compile(doc, url, "")
	sort.Strings(c.why)
	return &Validator{root: root, why: c.why}
}

type compiler struct {
	docs map[string]any
	load Loader
	memo map[string]*node
	why  []string
}

func (c *compiler) doc(u string) (any, error) {
	if d, ok := c.docs[u]; ok {
		return d, nil
	}
	if c.load == nil {
		return nil, fmt.Errorf("no loader for %s", u)
	}
	d, err := c.load(u)
	if err != nil {
		return nil, err
	}
	c.docs[u] = d
	return d, nil
}

// identified returns why the schema cannot be compiled when a document it
// may reach holds an $id (or a draft-4 id): gojsonschema registers those
// as documents of their own, which changes where $refs lead. Like
// gojsonschema's own pre-pass, it looks everywhere but in const and enum,
// and follows every $ref string it meets, so the documents it reads are
// all those gojsonschema could.
func (c *compiler) identified(root string) string {
	seen := map[string]bool{}
	queue := []string{root}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if seen[u] {
			continue
		}
		seen[u] = true
		d, err := c.doc(u)
		if err != nil {
			if u == root {
				return "cannot read the schema"
			}
			continue // a $ref gojsonschema never follows, in an example or the like
		}
		var why string
		walkPrepass(d, func(m map[string]any) {
			for _, k := range []string{"$id", "id"} {
				if _, ok := m[k].(string); ok && why == "" {
					why = fmt.Sprintf("%s holds an %s", u, k)
				}
			}
			if ref, ok := m["$ref"].(string); ok {
				if du, _, err := resolve(u, ref); err == nil {
					queue = append(queue, du)
				}
			}
		})
		if why != "" {
			return why
		}
	}
	return ""
}

// walkPrepass visits the objects gojsonschema's reference pre-pass visits.
func walkPrepass(v any, visit func(map[string]any)) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			walkPrepass(e, visit)
		}
	case map[string]any:
		visit(x)
		for k, e := range x {
			switch k {
			case "const", "enum":
			case "properties", "dependencies", "patternProperties":
				if m, ok := e.(map[string]any); ok {
					for _, s := range m {
						walkPrepass(s, visit)
					}
				} else {
					walkPrepass(e, visit)
				}
			default:
				walkPrepass(e, visit)
			}
		}
	}
}

// safeRef is the shape of the $refs this package follows: a relative path
// and a JSON pointer fragment, nothing URL escaping could change.
var safeRef = regexp.MustCompile(`^[A-Za-z0-9_.\-/]*(#(/[A-Za-z0-9_.\-~$@:]*)*)?$`)

// resolve returns the document URL and pointer a $ref in document base
// names, as gojsonreference's Inherits resolves it.
func resolve(base, ref string) (string, string, error) {
	if !safeRef.MatchString(ref) {
		return "", "", fmt.Errorf("$ref %q is not a plain relative reference", ref)
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", "", err
	}
	b.Fragment = ""
	r, err := url.Parse(ref)
	if err != nil {
		return "", "", err
	}
	abs := b.ResolveReference(r)
	frag := abs.Fragment
	abs.Fragment = ""
	return abs.String(), frag, nil
}

// lookup follows a JSON pointer (RFC 6901) into a document.
func lookup(d any, ptr string) (any, bool) {
	if ptr == "" {
		return d, true
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := d.(type) {
		case map[string]any:
			v, ok := x[tok]
			if !ok {
				return nil, false
			}
			d = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) || strconv.Itoa(i) != tok {
				return nil, false
			}
			d = x[i]
		default:
			return nil, false
		}
	}
	return d, true
}

// annotations are keywords gojsonschema reads no constraint from. Any
// keyword neither here nor compiled below leaves its subschema unknown:
// this package never guesses what a keyword means.
var annotations = map[string]bool{
	"$schema": true, "$comment": true, "title": true, "description": true, "default": true,
	"examples": true, "example": true, "readOnly": true, "writeOnly": true, "deprecated": true,
	"contentMediaType": true, "contentEncoding": true, "definitions": true,
	"externalDocs": true, "discriminator": true,
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// compile compiles the subschema v found in document u at pointer ptr.
func (c *compiler) compile(v any, u, ptr string) *node {
	key := u + "#" + ptr
	if n, ok := c.memo[key]; ok {
		return n
	}
	n := &node{minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
	c.memo[key] = n
	switch x := v.(type) {
	case bool:
		n.pass = -1
		if x {
			n.pass = 1
		}
		return n
	case map[string]any:
		c.object(n, x, u, ptr)
	default:
		c.unknown(n, ptr, "not a schema")
	}
	return n
}

func (c *compiler) unknown(n *node, ptr, why string) {
	if n.why == "" {
		n.why = why
		c.why = append(c.why, orRoot(ptr)+": "+why)
	}
}

func orRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

func (c *compiler) object(n *node, m map[string]any, u, ptr string) {
	if ref, ok := m["$ref"]; ok {
		// gojsonschema validates a $ref alone, its siblings ignored.
		s, ok := ref.(string)
		if !ok {
			c.unknown(n, ptr, "$ref is not a string")
			return
		}
		du, frag, err := resolve(u, s)
		if err != nil {
			c.unknown(n, ptr, err.Error())
			return
		}
		if frag != "" && !strings.HasPrefix(frag, "/") {
			c.unknown(n, ptr, fmt.Sprintf("$ref %q: fragment is not a JSON pointer", s))
			return
		}
		d, err := c.doc(du)
		if err != nil {
			c.unknown(n, ptr, fmt.Sprintf("$ref %q: %v", s, err))
			return
		}
		t, ok := lookup(d, frag)
		if !ok {
			c.unknown(n, ptr, fmt.Sprintf("$ref %q leads nowhere", s))
			return
		}
		n.ref = c.compile(t, du, frag)
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the reasons come out in a stable order
	for _, k := range keys {
		if why := c.keyword(n, k, m[k], u, ptr); why != "" {
			c.unknown(n, ptr+"/"+escapeToken(k), why)
			return
		}
	}
	if len(n.props) > 8 {
		n.propIndex = make(map[string]bool, len(n.props))
		for _, p := range n.props {
			n.propIndex[p.name] = true
		}
	}
	if n.thenN != nil || n.elseN != nil {
		if n.ifN == nil {
			n.thenN, n.elseN = nil, nil // gojsonschema ignores them without "if"
		}
	}
}

// keyword compiles one keyword of a schema object into n, or says why it
// cannot.
func (c *compiler) keyword(n *node, k string, v any, u, ptr string) string {
	at := ptr + "/" + escapeToken(k)
	sub := func(s any, p string) (*node, string) {
		switch s.(type) {
		case bool, map[string]any:
			return c.compile(s, u, p), ""
		}
		return nil, "not a schema"
	}
	list := func() ([]*node, string) {
		a, ok := v.([]any)
		if !ok {
			return nil, "not an array"
		}
		out := make([]*node, 0, len(a))
		for i, s := range a {
			sn, why := sub(s, at+"/"+strconv.Itoa(i))
			if why != "" {
				return nil, why
			}
			out = append(out, sn)
		}
		return out, ""
	}
	var why string
	switch k {
	case "type":
		why = n.setTypes(v)
	case "properties":
		m, ok := v.(map[string]any)
		if !ok {
			return "not an object"
		}
		for name, s := range m {
			sn, why := sub(s, at+"/"+escapeToken(name))
			if why != "" {
				return why
			}
			n.props = append(n.props, prop{name: name, n: sn})
		}
		sort.Slice(n.props, func(i, j int) bool { return n.props[i].name < n.props[j].name })
	case "patternProperties":
		m, ok := v.(map[string]any)
		if !ok {
			return "not an object"
		}
		for p, s := range m {
			re, err := regexp.Compile(p)
			if err != nil {
				return "pattern does not compile"
			}
			sn, why := sub(s, at+"/"+escapeToken(p))
			if why != "" {
				return why
			}
			n.patterns = append(n.patterns, pattern{re: re, n: sn})
		}
	case "additionalProperties":
		n.additional, why = c.additional(v, u, at)
	case "additionalItems":
		n.addItems, why = c.additional(v, u, at)
	case "propertyNames":
		n.propNames, why = sub(v, at)
	case "dependencies":
		m, ok := v.(map[string]any)
		if !ok {
			return "not an object"
		}
		for key, d := range m {
			dep := dependency{key: key}
			switch x := d.(type) {
			case []any:
				for _, e := range x {
					s, ok := e.(string)
					if !ok {
						return "a dependency is not a string"
					}
					dep.keys = append(dep.keys, s)
				}
			default:
				var why string
				if dep.schema, why = sub(d, at+"/"+escapeToken(key)); why != "" {
					return why
				}
			}
			n.dependencies = append(n.dependencies, dep)
		}
		sort.Slice(n.dependencies, func(i, j int) bool { return n.dependencies[i].key < n.dependencies[j].key })
	case "items":
		if _, ok := v.([]any); ok {
			n.items, why = list()
		} else {
			var s *node
			s, why = sub(v, at)
			n.items, n.itemsSingle = []*node{s}, true
		}
	case "contains":
		n.contains, why = sub(v, at)
	case "not":
		n.not, why = sub(v, at)
	case "if":
		n.ifN, why = sub(v, at)
	case "then":
		n.thenN, why = sub(v, at)
	case "else":
		n.elseN, why = sub(v, at)
	case "allOf":
		n.allOf, why = list()
	case "anyOf":
		n.anyOf, why = list()
	case "oneOf":
		n.oneOf, why = list()
	case "multipleOf":
		b, ok := newBound(v)
		if !ok || b.rat.Sign() <= 0 {
			return "not a positive number"
		}
		n.multipleOf = b
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		b, ok := newBound(v)
		if !ok {
			return "not a number"
		}
		switch k {
		case "minimum":
			n.minimum = b
		case "maximum":
			n.maximum = b
		case "exclusiveMinimum":
			n.exclMin = b
		default:
			n.exclMax = b
		}
	case "minLength", "maxLength", "minProperties", "maxProperties", "minItems", "maxItems":
		i, ok := count(v)
		if !ok {
			return "not a non-negative integer"
		}
		switch k {
		case "minLength":
			n.minLen = i
		case "maxLength":
			n.maxLen = i
		case "minProperties":
			n.minProps = i
		case "maxProperties":
			n.maxProps = i
		case "minItems":
			n.minItems = i
		default:
			n.maxItems = i
		}
	case "pattern":
		s, ok := v.(string)
		if !ok {
			return "not a string"
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return "pattern does not compile"
		}
		n.pattern = re
	case "format":
		s, ok := v.(string)
		if !ok {
			return "not a string"
		}
		n.format, n.hasFormat = s, true
		n.dateTime = s == "date-time" && builtinDateTime()
	case "required":
		a, ok := v.([]any)
		if !ok {
			return "not an array"
		}
		for _, e := range a {
			s, ok := e.(string)
			if !ok {
				return "not an array of strings"
			}
			n.required = append(n.required, s)
		}
	case "uniqueItems":
		b, ok := v.(bool)
		if !ok {
			return "not a boolean"
		}
		n.unique = b
	case "const":
		cv, ok := canonOf(v)
		if !ok {
			return "value beyond what this package compares"
		}
		n.hasConst, n.constV = true, cv
	case "enum":
		a, ok := v.([]any)
		if !ok {
			return "not an array"
		}
		n.enum = make([]any, 0, len(a))
		strs := map[string]bool{}
		for _, e := range a {
			cv, ok := canonOf(e)
			if !ok {
				return "value beyond what this package compares"
			}
			n.enum = append(n.enum, cv)
			if s, ok := cv.(string); ok {
				strs[s] = true
			}
		}
		if len(strs) == len(a) {
			n.enumStrings = strs
		}
	default:
		if annotations[k] || strings.HasPrefix(k, "x-") {
			return ""
		}
		return "keyword not implemented"
	}
	return why
}

func (n *node) setTypes(v any) string {
	add := func(s any) string {
		name, ok := s.(string)
		t, known := typeNames[name]
		if !ok || !known || n.types&t != 0 {
			return "not a list of distinct JSON types"
		}
		n.types |= t
		return ""
	}
	if a, ok := v.([]any); ok {
		for _, s := range a {
			if why := add(s); why != "" {
				return why
			}
		}
		if len(a) == 0 {
			return "an empty list of types"
		}
		return ""
	}
	return add(v)
}

func (c *compiler) additional(v any, u, at string) (addl, string) {
	switch x := v.(type) {
	case bool:
		return addl{set: true, forbid: !x}, ""
	case map[string]any:
		return addl{set: true, schema: c.compile(x, u, at)}, ""
	}
	return addl{}, "not a boolean or a schema"
}

// count reads the integer of minLength and the like as gojsonschema's
// mustBeInteger does (json.Number.Int64).
func count(v any) (int, bool) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.ParseInt(string(num), 10, 32)
	if err != nil || i < 0 {
		return 0, false
	}
	return int(i), true
}
