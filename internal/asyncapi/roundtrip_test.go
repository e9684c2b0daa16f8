package asyncapi

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/validate"
)

// exported imports the exported document of a built-in dialect once per
// test binary, as YAML (the form a protocol team edits).
var (
	exportedMu sync.Mutex
	exportedOf = map[string]*Protocol{}
)

func imported(t testing.TB, name string) *Protocol {
	t.Helper()
	exportedMu.Lock()
	defer exportedMu.Unlock()
	if p, ok := exportedOf[name]; ok {
		return p
	}
	js, err := Export(name)
	if err != nil {
		t.Fatalf("export %s: %v", name, err)
	}
	y, err := ToYAML(js)
	if err != nil {
		t.Fatalf("yaml %s: %v", name, err)
	}
	p, err := Parse(name+".asyncapi.yaml", y, nil)
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	exportedOf[name] = p
	return p
}

// recordings lists the repository's test recordings and HAR captures of
// one dialect: every *.jsonl and *.har under testdata folders whose
// header (or name) says the dialect.
func recordings(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.Contains(filepath.ToSlash(p), "/testdata/") {
			return nil
		}
		if ext := filepath.Ext(p); ext != ".jsonl" && ext != ".har" {
			return nil
		}
		if name := dialectOf(p); name != "" {
			out[name] = append(out[name], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// dialectOf is the dialect a built-in validate run picks for the file, or
// "" when it cannot tell (such files are not the round trip's business).
func dialectOf(p string) string {
	res, err := validate.File(context.Background(), p, validate.Options{Dialect: "auto"})
	if err != nil || res.Frames == 0 {
		return ""
	}
	return res.Dialect
}

// key is what a finding must keep across the round trip.
func key(f validate.Finding) string {
	return fmt.Sprintf("%s %s frame=%d conn=%s ptr=%s sev=%s session=%s", f.Rule, f.Dir, f.Frame, f.Conn, f.Pointer, f.Severity, f.Session)
}

func keys(fs []validate.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = key(f)
	}
	sort.Strings(out)
	return out
}

// TestRoundTripSameFindings is the proof that a dialect is data: each
// built-in dialect, exported as AsyncAPI 3.0 (YAML) and read back, judges
// every recording of the repository's test data with the same findings
// (rule, direction, frame, connection, pointer, severity, session) as the
// built-in dialect.
func TestRoundTripSameFindings(t *testing.T) {
	t.Parallel()
	recs := recordings(t)
	total := 0
	for _, name := range dialect.Names() {
		files := recs[name]
		if len(files) == 0 {
			t.Errorf("no test recording of %s found", name)
			continue
		}
		p := imported(t, name)
		for _, file := range files {
			total++
			t.Run(name+"/"+filepath.Base(file), func(t *testing.T) {
				t.Parallel()
				want, err := validate.File(context.Background(), file, validate.Options{Dialect: name})
				if err != nil {
					t.Fatal(err)
				}
				got, err := validate.File(context.Background(), file, validate.Options{Dialect: p.Name})
				if err != nil {
					t.Fatal(err)
				}
				if got.Frames != want.Frames || got.Sessions != want.Sessions {
					t.Errorf("%d frames in %d sessions, built-in %d in %d", got.Frames, got.Sessions, want.Frames, want.Sessions)
				}
				w, g := keys(want.Findings), keys(got.Findings)
				if strings.Join(w, "\n") != strings.Join(g, "\n") {
					t.Errorf("findings differ:\nbuilt-in (%d):\n  %s\n--protocol (%d):\n  %s", len(w), strings.Join(w, "\n  "), len(g), strings.Join(g, "\n  "))
				}
			})
		}
	}
	t.Logf("%d recordings", total)
}
