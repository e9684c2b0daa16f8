package fuzzcorpus

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestValues(t *testing.T) {
	t.Parallel()
	file := "go test fuzz v1\n[]byte(\"{\\\"a\\\":1}\")\nstring(\"x\\ny\")\nint(3)\nstring(broken\n"
	want := [][]byte{[]byte(`{"a":1}`), []byte("x\ny")}
	if got := Values(file); !reflect.DeepEqual(got, want) {
		t.Errorf("Values = %q, want %q", got, want)
	}
}

func TestReadSortsFilesAcrossGlobs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, v := range map[string]string{"b/1": "b1", "a/2": "a2", "a/1": "a1"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("go test fuzz v1\nstring(\""+v+"\")\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Read(filepath.Join(dir, "b/*"), filepath.Join(dir, "a/*"))
	if err != nil {
		t.Fatal(err)
	}
	var data []string
	for _, e := range got {
		data = append(data, string(e.Data))
	}
	if want := []string{"a1", "a2", "b1"}; !reflect.DeepEqual(data, want) {
		t.Errorf("Read = %v, want %v", data, want)
	}
	if _, err := Read("["); err == nil {
		t.Error("a bad glob gave no error")
	}
}
