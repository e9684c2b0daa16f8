package asyncapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/validate"
)

// mutations plant one fault in one frame's message: a member dropped, the
// type renamed, every integer moved (ordering, cursors, counts), a string
// emptied. Together they reach the schema, type, ordering, replay and
// state rules of every dialect.
var mutations = []struct {
	name string
	do   func(doc map[string]any, typeField string) bool
}{
	{"drop-member", func(doc map[string]any, tf string) bool {
		for _, k := range sortedKeys(doc) {
			if k != tf {
				delete(doc, k)
				return true
			}
		}
		return false
	}},
	{"rename-type", func(doc map[string]any, tf string) bool {
		doc[tf] = "wsconform_planted"
		return true
	}},
	{"shift-integers", func(doc map[string]any, _ string) bool { return shift(doc) }},
	{"empty-strings", func(doc map[string]any, tf string) bool { return emptyStrings(doc, tf) }},
}

func shift(v any) bool {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if n, ok := val.(float64); ok && n == float64(int64(n)) {
				x[k] = n - 3
				changed = true
				continue
			}
			changed = shift(val) || changed
		}
	case []any:
		for _, val := range x {
			changed = shift(val) || changed
		}
	}
	return changed
}

func emptyStrings(v any, tf string) bool {
	changed := false
	if x, ok := v.(map[string]any); ok {
		for k, val := range x {
			if s, ok := val.(string); ok && k != tf && s != "" {
				x[k] = ""
				changed = true
			} else {
				changed = emptyStrings(val, tf) || changed
			}
		}
	}
	return changed
}

// TestRoundTripMutations: every planted mutation of every text frame of
// the test recordings gets the same findings from the built-in dialect and
// from its exported document read back.
func TestRoundTripMutations(t *testing.T) {
	t.Parallel()
	recs := recordings(t)
	for _, name := range dialect.Names() {
		p := imported(t, name)
		d := dialect.MustGet(name)
		for _, file := range recs[name] {
			if filepath.Ext(file) != ".jsonl" {
				continue
			}
			t.Run(name+"/"+filepath.Base(file), func(t *testing.T) {
				t.Parallel()
				lines := readLines(t, file)
				dir := t.TempDir()
				n, differing := 0, 0
				for i, line := range lines {
					for _, mu := range mutations {
						mutated, ok := mutate(line, d.TypeField, mu.do)
						if !ok {
							continue
						}
						n++
						out := filepath.Join(dir, fmt.Sprintf("%d-%s.jsonl", i, mu.name))
						body := append(append(append([]string{}, lines[:i]...), mutated), lines[i+1:]...)
						if err := os.WriteFile(out, []byte(strings.Join(body, "\n")+"\n"), 0o644); err != nil {
							t.Fatal(err)
						}
						want, err := validate.File(context.Background(), out, validate.Options{Dialect: name})
						if err != nil {
							t.Fatal(err)
						}
						got, err := validate.File(context.Background(), out, validate.Options{Dialect: p.Name})
						if err != nil {
							t.Fatal(err)
						}
						w, g := keys(want.Findings), keys(got.Findings)
						if strings.Join(w, "\n") != strings.Join(g, "\n") {
							differing++
							if differing <= 3 {
								t.Errorf("line %d %s: findings differ:\nbuilt-in:\n  %s\n--protocol:\n  %s", i+1, mu.name, strings.Join(w, "\n  "), strings.Join(g, "\n  "))
							}
						}
					}
				}
				if n == 0 {
					t.Fatal("no frame to mutate")
				}
				t.Logf("%d mutations", n)
				if differing > 0 {
					t.Errorf("%d of %d mutations judged differently", differing, n)
				}
			})
		}
	}
}

func readLines(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// mutate applies a mutation to the message of a text frame line.
func mutate(line, typeField string, do func(map[string]any, string) bool) (string, bool) {
	var rec map[string]any
	if json.Unmarshal([]byte(line), &rec) != nil || rec["kind"] != "frame" || rec["opcode"] != float64(1) {
		return "", false
	}
	text, _ := rec["text"].(string)
	var doc map[string]any
	if json.Unmarshal([]byte(text), &doc) != nil || !do(doc, typeField) {
		return "", false
	}
	b, _ := json.Marshal(doc)
	rec["text"] = string(b)
	out, _ := json.Marshal(rec)
	return string(out), true
}
