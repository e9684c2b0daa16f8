package asyncapi

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

const minimal = `asyncapi: 3.0.0
info: {title: Bad Doc %s, version: "1"}
channels:
  ws:
    address: /ws
    messages:
      hello: {$ref: '#/components/messages/hello'}
operations:
  hello:
    action: receive
    channel: {$ref: '#/channels/ws'}
    messages: [{$ref: '#/channels/ws/messages/hello'}]
components:
  messages:
    hello:
      name: hello
      payload: PAYLOAD
`

// TestImportRefusesClearly: a document that cannot be imported gives one
// line naming the file and the place, never a panic.
func TestImportRefusesClearly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc string
		files     map[string]string
		want      string
	}{
		{"broken internal ref", strings.Replace(minimal, "PAYLOAD", "{$ref: '#/components/schemas/Nope'}", 1), nil,
			"doc.yaml: at /components/messages/hello/payload: broken $ref \"#/components/schemas/Nope\""},
		{"broken file ref", strings.Replace(minimal, "PAYLOAD", "{$ref: 'hello.json'}", 1), nil,
			"doc.yaml: at /components/messages/hello/payload: broken $ref: file hello.json does not exist"},
		{"unknown schema format", strings.Replace(minimal, "PAYLOAD", "{schemaFormat: application/vnd.apache.avro;version=1.9.0, schema: {type: record}}", 1), nil,
			"doc.yaml: at /components/messages/hello/payload/schemaFormat: schema format \"application/vnd.apache.avro;version=1.9.0\" is not supported"},
		{"message without payload", strings.Replace(minimal, "      payload: PAYLOAD\n", "", 1), nil,
			"doc.yaml: at /components/messages/hello: message has no payload"},
		{"not asyncapi", "openapi: 3.1.0\ninfo: {title: x}\n", nil, "doc.yaml: at /asyncapi: not an AsyncAPI document"},
		{"asyncapi 2", "asyncapi: 2.6.0\ninfo: {title: x, version: '1'}\n", nil, "doc.yaml: at /asyncapi: AsyncAPI 2.6.0 is not supported"},
		{"not yaml", "asyncapi: [3.0.0\n", nil, "doc.yaml: at /: not YAML or JSON"},
		{"a list", "- 1\n- 2\n", nil, "doc.yaml: at /: not an AsyncAPI document: the top level is not a mapping"},
		{"remote ref", strings.Replace(minimal, "PAYLOAD", "{$ref: 'https://example.com/s.json'}", 1), nil, "is remote"},
		{"recursive ref outside components", strings.Replace(minimal, "PAYLOAD", "{type: object, properties: {self: {$ref: '#/components/messages/hello/payload'}}}", 1), nil,
			"refers back into itself outside components.schemas"},
		{"bad extension", strings.Replace(minimal, "PAYLOAD", "{type: object}", 1) + "x-wsconform: {ordering: {scope: /a}}\n", nil,
			"doc.yaml: at /x-wsconform/ordering: pointer is required"},
		{"unknown rule set", strings.Replace(minimal, "PAYLOAD", "{type: object}", 1) + "x-wsconform: {ruleSet: nope}\n", nil,
			"doc.yaml: at /x-wsconform/ruleSet: unknown rule set \"nope\""},
		{"no type", strings.Replace(strings.Replace(minimal, "PAYLOAD", "{type: object}", 1), "      name: hello\n", "", 1), nil,
			"doc.yaml: at /components/messages/hello: no message type"},
		{"bad action", strings.Replace(strings.Replace(minimal, "PAYLOAD", "{type: object}", 1), "action: receive", "action: listen", 1), nil,
			"doc.yaml: at /operations/hello/action: action \"listen\" is neither send nor receive"},
		{"ref in a local file that is broken", strings.Replace(minimal, "PAYLOAD", "{$ref: 'schemas.yaml#/Hello'}", 1),
			map[string]string{"schemas.yaml": "Hello: {$ref: '#/Missing'}\n"},
			"schemas.yaml: at /Hello: broken $ref \"#/Missing\": schemas.yaml has nothing at /Missing"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc := strings.Replace(tt.doc, "%s", string(rune('a'+i)), 1)
			_, err := Parse("doc.yaml", []byte(doc), reader(tt.files))
			if err == nil {
				t.Fatal("imported")
			}
			var ie *Error
			if !errors.As(err, &ie) {
				t.Errorf("error %T, want *Error", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("more than one line: %q", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func reader(files map[string]string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
}

// TestImportFollowsLocalFiles: a payload in another file, with references
// inside that file, is inlined; references into components.schemas stay
// shared definitions.
func TestImportFollowsLocalFiles(t *testing.T) {
	t.Parallel()
	doc := strings.Replace(minimal, "PAYLOAD", "{$ref: 'schemas.yaml#/Hello'}", 1) +
		"  schemas:\n    Name: {type: string, minLength: 1}\n"
	doc = strings.Replace(doc, "%s", "files", 1)
	files := map[string]string{"schemas.yaml": `Hello:
  type: object
  required: [type, who]
  properties:
    type: {const: hello}
    who: {$ref: '#/Who'}
Who: {$ref: 'doc.yaml#/components/schemas/Name'}
`}
	p, err := Parse("doc.yaml", []byte(doc), reader(files))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "asyncapi:bad-doc-files" {
		t.Errorf("name %q", p.Name)
	}
	if !p.Dialect.Knows("c2s", "hello") {
		t.Fatalf("hello not a c2s type: %v", p.Dialect.Messages)
	}
	for _, tt := range []struct {
		msg  string
		rule string
	}{
		{`{"type":"hello","who":"me"}`, ""},
		{`{"type":"hello","who":""}`, "schema.violation"},
		{`{"type":"hello"}`, "schema.violation"},
		{`{"type":"bye"}`, "frame.type-undocumented"},
	} {
		fs := validateOne(t, p, "c2s", tt.msg)
		if tt.rule == "" && len(fs) > 0 {
			t.Errorf("%s: %v", tt.msg, fs)
		}
		if tt.rule != "" && (len(fs) == 0 || fs[0].Rule != tt.rule) {
			t.Errorf("%s: %v, want %s", tt.msg, fs, tt.rule)
		}
	}
	if len(p.Notes) == 0 {
		t.Error("no notes on the stateful checks a document without x-wsconform leaves out")
	}
}
