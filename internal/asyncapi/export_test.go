package asyncapi

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/wsconform/wsconform/internal/dialect"
)

// TestExportValidatesAgainstAsyncAPISchema: the exported document of every
// built-in dialect, as JSON and as YAML, is valid against the official
// AsyncAPI 3.0.0 JSON Schema (vendored from @asyncapi/specs), and its
// x-wsconform member against the extension's schema.
func TestExportValidatesAgainstAsyncAPISchema(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "asyncapi-spec-json-schemas", "3.0.0-without-id.json"))
	if err != nil {
		t.Fatal(err)
	}
	official, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(raw))
	if err != nil {
		t.Fatalf("compile the official schema: %v", err)
	}
	ext, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(extensionSchema))
	if err != nil {
		t.Fatalf("compile the extension schema: %v", err)
	}
	for _, name := range dialect.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			js, err := Export(name)
			if err != nil {
				t.Fatal(err)
			}
			y, err := ToYAML(js)
			if err != nil {
				t.Fatal(err)
			}
			for form, data := range map[string][]byte{"json": js, "yaml": y} {
				v, err := decode(name+"."+form, data)
				if err != nil {
					t.Fatal(err)
				}
				res, err := official.Validate(gojsonschema.NewGoLoader(v))
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range res.Errors() {
					t.Errorf("%s: %s", form, e)
				}
				xr, err := ext.Validate(gojsonschema.NewGoLoader(v.(map[string]any)["x-wsconform"]))
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range xr.Errors() {
					t.Errorf("%s x-wsconform: %s", form, e)
				}
			}
		})
	}
}

// TestOfficialSchemaCatchesAnError: the vendored schema is live: a
// document with an operation action that is neither send nor receive fails.
func TestOfficialSchemaCatchesAnError(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "asyncapi-spec-json-schemas", "3.0.0-without-id.json"))
	if err != nil {
		t.Fatal(err)
	}
	js, err := Export("mitto")
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(js, []byte(`"action": "send"`), []byte(`"action": "sned"`), 1)
	res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(raw), gojsonschema.NewBytesLoader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if res.Valid() {
		t.Fatal("the official schema accepted action: sned")
	}
}

// TestExportPassesAsyncAPIParser runs the official parser, @asyncapi/parser,
// on every exported document where node can load it (CI installs it; set
// ASYNCAPI_PARSER_DIR to the folder holding its node_modules).
func TestExportPassesAsyncAPIParser(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	dir := os.Getenv("ASYNCAPI_PARSER_DIR")
	if dir == "" {
		t.Skip("ASYNCAPI_PARSER_DIR not set (a folder with node_modules/@asyncapi/parser)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@asyncapi", "parser")); err != nil {
		t.Skipf("@asyncapi/parser not installed in %s", dir)
	}
	tmp := t.TempDir()
	var files []string
	for _, name := range dialect.Names() {
		js, err := Export(name)
		if err != nil {
			t.Fatal(err)
		}
		y, err := ToYAML(js)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(tmp, name+".asyncapi.yaml")
		if err := os.WriteFile(f, y, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	script := filepath.Join(dir, "wsconform-validate.mjs")
	if err := os.WriteFile(script, []byte(parserScript), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, append([]string{script}, files...)...).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("@asyncapi/parser: %v", err)
	}
	if got := strings.Count(string(out), ": 0 errors"); got != len(files) {
		t.Fatalf("%d of %d documents without errors", got, len(files))
	}
}

const parserScript = `import { Parser } from '@asyncapi/parser';
import { readFileSync } from 'node:fs';
const parser = new Parser();
let bad = 0;
for (const f of process.argv.slice(2)) {
  const diagnostics = await parser.validate(readFileSync(f, 'utf8'), { source: f });
  const errs = diagnostics.filter(d => d.severity === 0);
  console.log(f + ': ' + errs.length + ' errors, ' + (diagnostics.length - errs.length) + ' other diagnostics');
  for (const d of errs.slice(0, 8)) console.log('  ' + d.code + ' ' + d.message + ' ' + JSON.stringify(d.path));
  if (errs.length) bad++;
}
process.exit(bad ? 1 : 0);
`
