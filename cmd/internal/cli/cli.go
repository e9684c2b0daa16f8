// Package cli holds what both commands (wsconform, wsproxy) say the same
// way about their arguments: flag errors in the user's words, URLs
// without a scheme, and report paths checked before any work starts.
package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/pflag"
)

// invalidArg is pflag's "invalid argument" error, which quotes the
// strconv or time error beneath it.
var invalidArg = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-[^,]+, )?--([^"]+)" flag: `)

// FlagError rewrites a pflag parse error so that it names the flag and
// what it takes, not the Go parser beneath it: `--timeout-scale "abc": not
// a number (e.g. 0.5 or 2)`, not strconv.ParseFloat.
func FlagError(fs *pflag.FlagSet, err error) string {
	msg := err.Error()
	m := invalidArg.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	value, name := m[1], m[2]
	f := fs.Lookup(name)
	if f == nil {
		return msg
	}
	want := "a valid value"
	switch f.Value.Type() {
	case "float64", "float32":
		want = "a number (e.g. 0.5 or 2)"
	case "int", "int64", "int32":
		want = "a whole number"
	case "uint64", "uint", "uint32":
		want = "a whole number, 0 or more"
	case "duration":
		want = "a duration (e.g. 500ms, 2s or 1m)"
	case "bool":
		want = "true or false"
	}
	return fmt.Sprintf("--%s %q: not %s", name, value, want)
}

// NeedScheme says, for a URL written without a scheme (127.0.0.1:9000),
// that it must be a ws:// or wss:// URL, with the URL it probably meant.
// It returns nil for anything with a scheme: the URL parser judges those.
func NeedScheme(flag, raw, what string) error {
	if raw == "" || strings.Contains(raw, "://") {
		return nil
	}
	return fmt.Errorf("%s %q: %s ws:// or wss:// URLs (did you mean ws://%s?)", flag, raw, what, raw)
}

// CheckOutput checks, before any work starts, that a report can be
// written at path: its directory exists and is writable, and the path is
// not a directory. "" (no report) and "-" (stdout) pass.
func CheckOutput(flag, path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s %s: is a directory; name a file in it", flag, path)
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
		return fmt.Errorf("%s %s: the directory %s does not exist (mkdir -p %s)", flag, path, dir, dir)
	case err != nil:
		return fmt.Errorf("%s %s: %v", flag, path, err)
	case !st.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", flag, path, dir)
	}
	probe, err := os.CreateTemp(dir, ".wsconform-probe-*")
	if err != nil {
		return fmt.Errorf("%s %s: the directory %s is not writable", flag, path, dir)
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// Output is a report flag and the path given to it.
type Output struct{ Flag, Path string }

// CheckOutputs checks every output; the first problem is returned.
func CheckOutputs(outs ...Output) error {
	for _, o := range outs {
		if err := CheckOutput(o.Flag, o.Path); err != nil {
			return err
		}
	}
	return nil
}

// Written is the line that says where a report went: "wrote the HTML
// report to r.html". Nothing for "" or "-".
func Written(kind, path string) string {
	if path == "" || path == "-" {
		return ""
	}
	return fmt.Sprintf("wrote the %s to %s", kind, path)
}
