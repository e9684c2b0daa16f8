package fuzzcorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Entry is one []byte or string value of a corpus file.
type Entry struct {
	File string
	Data []byte
}

// Read returns the []byte and string values of every file the globs
// match, the files in sorted order.
func Read(globs ...string) ([]Entry, error) {
	var files []string
	for _, g := range globs {
		m, err := filepath.Glob(g)
		if err != nil {
			return nil, fmt.Errorf("fuzz corpus %q: %w", g, err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	var out []Entry
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("fuzz corpus: %w", err)
		}
		for _, v := range Values(string(raw)) {
			out = append(out, Entry{File: f, Data: v})
		}
	}
	return out, nil
}

// Values reads the []byte and string values of one corpus file's text;
// values of other types are left out.
func Values(file string) [][]byte {
	var out [][]byte
	for _, line := range strings.Split(file, "\n") {
		for _, prefix := range []string{"[]byte(", "string("} {
			if strings.HasPrefix(line, prefix) && strings.HasSuffix(line, ")") {
				if s, err := strconv.Unquote(line[len(prefix) : len(line)-1]); err == nil {
					out = append(out, []byte(s))
				}
			}
		}
	}
	return out
}
