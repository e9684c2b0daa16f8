package cli

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestFlagError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--scale", "abc"}, `--scale "abc": not a number (e.g. 0.5 or 2)`},
		{[]string{"-s", "abc"}, `--scale "abc": not a number`},
		{[]string{"--n", "1.5"}, `--n "1.5": not a whole number`},
		{[]string{"--wait", "2"}, `--wait "2": not a duration (e.g. 500ms, 2s or 1m)`},
		{[]string{"--insecure=maybe"}, `--insecure "maybe": not true or false`},
		{[]string{"--nope"}, "unknown flag: --nope"},
	}
	for _, tt := range tests {
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		fs.SetOutput(new(strings.Builder))
		fs.Float64P("scale", "s", 1, "")
		fs.Int("n", 1, "")
		fs.Duration("wait", 0, "")
		fs.BoolP("insecure", "k", false, "")
		err := fs.Parse(tt.args)
		if err == nil {
			t.Fatalf("%v parsed", tt.args)
		}
		if got := FlagError(fs, err); !strings.Contains(got, tt.want) || strings.Contains(got, "strconv") {
			t.Errorf("%v: %q, want %q", tt.args, got, tt.want)
		}
	}
}

func TestCheckOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"":                               "",
		"-":                              "",
		filepath.Join(dir, "r.html"):     "",
		file:                             "", // overwritten
		dir:                              "is a directory",
		filepath.Join(dir, "a", "r.xml"): "does not exist",
		filepath.Join(file, "r.xml"):     "is not a directory",
	} {
		err := CheckOutput("--html", path)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%q: %v, want %q", path, err, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the check left files behind: %v", entries)
	}
}

func TestNeedScheme(t *testing.T) {
	t.Parallel()
	if err := NeedScheme("--target", "127.0.0.1:9000", "targets are"); err == nil ||
		err.Error() != `--target "127.0.0.1:9000": targets are ws:// or wss:// URLs (did you mean ws://127.0.0.1:9000?)` {
		t.Errorf("%v", err)
	}
	if err := NeedScheme("--target", "ws://x", "targets are"); err != nil {
		t.Error(err)
	}
}

func TestParsePairsAndHeaders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw     string
		headers bool
		wantErr string
	}{
		{"Authorization: Bearer x", true, ""},
		{"Authorization Bearer x", true, "write it as 'Key: Value'"},
		{": x", true, "write it as 'Key: Value'"},
		{"token=a=b", false, ""},
		{"token", false, "write it as NAME=VALUE"},
		{"=v", false, "write it as NAME=VALUE"},
	}
	for _, tt := range tests {
		var err error
		h, m := http.Header{}, map[string]string{}
		if tt.headers {
			err = ParseHeaders("--header", []string{tt.raw}, h)
		} else {
			err = ParsePairs("--var", []string{tt.raw}, m)
		}
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%q: %v", tt.raw, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%q: error %v, want %q", tt.raw, err, tt.wantErr)
		case tt.wantErr == "" && tt.headers && h.Get("Authorization") != "Bearer x":
			t.Errorf("%q: header %q", tt.raw, h.Get("Authorization"))
		case tt.wantErr == "" && !tt.headers && m["token"] != "a=b":
			t.Errorf("%q: value %q", tt.raw, m["token"])
		}
	}
}
