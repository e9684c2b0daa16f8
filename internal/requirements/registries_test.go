package requirements_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/features"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/requirements"
)

// load reads one dialect's embedded registry or fails the test.
func load(t *testing.T, name string) *requirements.Registry {
	t.Helper()
	reg, err := requirements.Load(features.FS, name)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return reg
}

// specDir finds the folder of spec files: $WSCONFORM_SPECS, or shared/specs
// beside the repository or beside one of its parents (a CI checkout has a
// copy of shared/ beside the clone; a git worktree may sit a level deeper).
// A test that needs the specs skips, saying so, where there are none.
func specDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("WSCONFORM_SPECS"); dir != "" {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatalf("no go.mod above %s", wd)
		}
		root = parent
	}
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		specs := filepath.Join(dir, "shared", "specs")
		if fi, err := os.Stat(specs); err == nil && fi.IsDir() {
			return specs
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	t.Skipf("no shared/specs beside %s or its parents (set WSCONFORM_SPECS to the folder of spec files): the quotes are not checked against the specs", root)
	return ""
}

// readSpec reads a registry's spec file.
func readSpec(t *testing.T, reg *requirements.Registry) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(specDir(t), reg.Spec))
	if err != nil {
		t.Fatalf("%s: %v", reg.File, err)
	}
	return string(data)
}

// TestRegistriesLoad: every dialect has a registry, it parses, it names the
// dialect's spec, and the features folder has no registry of a dialect
// that does not exist.
func TestRegistriesLoad(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			reg := load(t, name)
			if want := dialect.MustGet(name).Spec; reg.Spec != want {
				t.Errorf("%s: spec %q, the dialect's manifest says %q", reg.File, reg.Spec, want)
			}
			if len(reg.Requirements) == 0 {
				t.Errorf("%s: no requirements", reg.File)
			}
		})
	}
	files, err := fs.Glob(features.FS, "*/"+requirements.FileName)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if d := filepath.Dir(f); !dialect.Known(d) {
			t.Errorf("%s: %s is not a dialect", f, d)
		}
	}
}

// TestQuotesInSpecs: every quote is the spec's own words, found verbatim
// (white space collapsed) in the spec file.
func TestQuotesInSpecs(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			reg := load(t, name)
			for _, err := range requirements.CheckQuotes(reg, readSpec(t, reg)) {
				t.Error(err)
			}
		})
	}
}

// TestStatedWording: every stated requirement's quote carries the words
// or the type syntax that make it stated.
func TestStatedWording(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			reg := load(t, name)
			for _, q := range reg.Requirements {
				if err := requirements.CheckWording(q); err != nil {
					t.Errorf("%s:%d: %v", reg.File, q.Line, err)
				}
			}
		})
	}
}

// TestSectionsInSpecs: a requirement's section starts with a heading of
// its spec (a markdown heading, or a line standing alone as one in a spec
// without markdown headings), so a reader finds it; the parts after " / "
// name things the spec has under it.
func TestSectionsInSpecs(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			reg := load(t, name)
			spec := readSpec(t, reg)
			headings := map[string]bool{}
			for _, line := range strings.Split(spec, "\n") {
				headings[plain(line)] = true
			}
			text := plain(strings.ReplaceAll(spec, "\n", " "))
			for _, q := range reg.Requirements {
				// A heading may itself hold " / " ("Backup / Checkpoint
				// Flow"): the longest run of parts that is a heading wins.
				parts := strings.Split(strings.TrimPrefix(q.Section, "§"), " / ")
				n := len(parts)
				for n > 0 && !headings[plain(strings.Join(parts[:n], " / "))] {
					n--
				}
				if n == 0 {
					t.Errorf("%s:%d: %s: section %q does not start with a heading of %s", reg.File, q.Line, q.ID, q.Section, reg.Spec)
					continue
				}
				for _, p := range parts[n:] {
					if !strings.Contains(text, plain(p)) {
						t.Errorf("%s:%d: %s: %q (in section %q) is not in %s", reg.File, q.Line, q.ID, p, q.Section, reg.Spec)
					}
				}
			}
		})
	}
}

// plain is a heading's words: no markdown heading marks, numbering,
// backticks or emphasis.
func plain(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "# ")
	s = strings.NewReplacer("`", "", "**", "").Replace(s)
	if i := strings.Index(s, ". "); i > 0 && i <= 2 && strings.Trim(s[:i], "0123456789") == "" {
		s = s[i+2:]
	}
	return requirements.Collapse(s)
}

// TestMetaChecksFire: the checks above are not vacuous. A copy of a real
// registry with an edited quote, a duplicated id, an unknown evidence word,
// a stated entry stripped of its normative word, or a dropped id that is
// still cited each produce the expected error.
func TestMetaChecksFire(t *testing.T) {
	t.Parallel()
	const name = "hostd"
	data, err := fs.ReadFile(features.FS, name+"/"+requirements.FileName)
	if err != nil {
		t.Fatal(err)
	}
	orig := string(data)
	edit := func(t *testing.T, old, new string) string {
		t.Helper()
		if !strings.Contains(orig, old) {
			t.Fatalf("the registry no longer has %q; pick another edit", old)
		}
		return strings.Replace(orig, old, new, 1)
	}
	const quote = `"quote": "Fields may be added over time; unknown fields must be ignored."`
	const id = `"id": "hostd.envelope.type-stable"`

	t.Run("edited quote", func(t *testing.T) {
		t.Parallel()
		reg, err := requirements.Parse(name, []byte(edit(t, quote, `"quote": "Fields may be added over time; unknown fields should be ignored."`)))
		if err != nil {
			t.Fatal(err)
		}
		errs := requirements.CheckQuotes(reg, readSpec(t, reg))
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), "hostd.envelope.unknown-fields-ignored: quote not found in hostd-mvp.md") {
			t.Errorf("CheckQuotes = %v, want one problem for hostd.envelope.unknown-fields-ignored", errs)
		}
	})
	t.Run("duplicated id", func(t *testing.T) {
		t.Parallel()
		_, err := requirements.Parse(name, []byte(edit(t, id, `"id": "hostd.envelope.json"`)))
		if err == nil || !strings.Contains(err.Error(), `duplicate id "hostd.envelope.json"`) {
			t.Errorf("Parse = %v, want a duplicate id", err)
		}
	})
	t.Run("unknown evidence", func(t *testing.T) {
		t.Parallel()
		_, err := requirements.Parse(name, []byte(edit(t, quote+`,
      "evidence": "stated"`, quote+`,
      "evidence": "obvious"`)))
		if err == nil || !strings.Contains(err.Error(), `hostd.envelope.unknown-fields-ignored: evidence "obvious"`) {
			t.Errorf("Parse = %v, want an unknown evidence word", err)
		}
	})
	t.Run("stated without its words", func(t *testing.T) {
		t.Parallel()
		reg, err := requirements.Parse(name, []byte(edit(t, quote, `"quote": "Fields may be added over time; unknown fields are ignored."`)))
		if err != nil {
			t.Fatal(err)
		}
		q, _ := reg.Lookup("hostd.envelope.unknown-fields-ignored")
		if err := requirements.CheckWording(q); err == nil {
			t.Error("CheckWording accepted a stated must whose quote has no normative word")
		}
	})
	t.Run("dropped id", func(t *testing.T) {
		t.Parallel()
		start := strings.Index(orig, "    {\n      "+id)
		end := start + strings.Index(orig[start:], "},\n") + len("},\n")
		if start < 0 || end < start {
			t.Fatalf("cannot find the entry of %s", id)
		}
		reg, err := requirements.Parse(name, []byte(orig[:start]+orig[end:]))
		if err != nil {
			t.Fatal(err)
		}
		got := requirements.Unknown(reg, []string{"hostd.envelope.json", "hostd.envelope.type-stable"})
		if len(got) != 1 || got[0] != "hostd.envelope.type-stable" {
			t.Errorf("Unknown = %v, want the dropped hostd.envelope.type-stable", got)
		}
	})
}

// TestUncitedNow reports how many requirements nothing cites yet: until
// rules and scenarios carry @req ids, every requirement without an
// untested reason is uncited. The number is logged, not judged.
func TestUncitedNow(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		reg := load(t, name)
		t.Logf("%s: %d requirements, %d uncited, %d with an untested reason",
			name, len(reg.Requirements), len(requirements.Uncited(reg, nil)), len(reg.Requirements)-len(requirements.Uncited(reg, nil)))
	}
}

// TestLoadWrongDialect: a registry in another dialect's folder is refused.
func TestLoadWrongDialect(t *testing.T) {
	t.Parallel()
	data, err := fs.ReadFile(features.FS, "hostd/"+requirements.FileName)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "mitto"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mitto", requirements.FileName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = requirements.Load(os.DirFS(dir), "mitto")
	if err == nil || !strings.Contains(err.Error(), `mitto/requirements.json:2: dialect "hostd", want "mitto"`) {
		t.Errorf("Load = %v, want a dialect mismatch at line 2", err)
	}
	_, err = requirements.Load(os.DirFS(dir), "coworker")
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing registry = %v, want fs.ErrNotExist", err)
	}
}
