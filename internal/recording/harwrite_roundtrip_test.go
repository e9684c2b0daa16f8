package recording_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/internal/wire"
)

// judged is what validating one file found, in a form two files can be
// compared in: findings by rule, direction and the payload of their
// frame (connection ids and frame numbers differ between a recording and
// its HAR), and how many frames, connections and sessions were judged.
type judged struct {
	findings []string
	frames   int // data frames: a HAR carries no control frames
	conns    int
	sessions int
	source   recording.Source
}

// payloads is a validate.Observer that remembers every judged frame's
// payload, to name a finding by its frame's content.
type payloads struct {
	m    map[string]string
	data int
}

func (p *payloads) Begin(string, string)        {}
func (p *payloads) Line(recording.Line)         {}
func (p *payloads) Unreadable(validate.Finding) {}
func (p *payloads) Bound(string, string)        {}
func (p *payloads) Judged(_ string, f wire.Frame, _ []validate.Finding) {
	p.m[fmt.Sprintf("%s#%d", f.Conn, f.Index)] = fmt.Sprintf("op%d:%q", f.Op, f.Payload)
	if f.Op == wire.OpText || f.Op == wire.OpBinary {
		p.data++
	}
}

func judge(t *testing.T, path, dialectName string) judged {
	t.Helper()
	p := &payloads{m: map[string]string{}}
	res, err := validate.File(context.Background(), path, validate.Options{Dialect: dialectName, Observer: p})
	if err != nil {
		t.Fatalf("validate %s: %v", filepath.Base(path), err)
	}
	j := judged{frames: p.data, conns: res.Conns, sessions: res.Sessions, source: res.Source}
	for _, f := range res.Findings {
		j.findings = append(j.findings, fmt.Sprintf("%s %s %s", f.Rule, f.Dir, p.m[fmt.Sprintf("%s#%d", f.Conn, f.Frame)]))
	}
	slices.Sort(j.findings)
	return j
}

// exportHAR writes the HAR of the recording at path into dir.
func exportHAR(t *testing.T, path, dir string, opts recording.HAROptions) string {
	t.Helper()
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), ".jsonl")+".har")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := recording.WriteHAR(f, in, opts); err != nil {
		t.Fatalf("WriteHAR %s: %v", filepath.Base(path), err)
	}
	return out
}

// recordings are the repository's recordings and those of
// testdata/harwrite-*.jsonl.gz, made by recording `wsconform run
// --scripted` through wsproxy against `wsconform serve` with a mutation,
// one per dialect (many connections, resumes, binary and close frames,
// dropped connections), unpacked into dir.
func recordings(t *testing.T, dir string) []string {
	t.Helper()
	paths := unpack(t, dir)
	for _, glob := range []string{"../../cmd/wsconform/testdata/*.jsonl", "../validate/testdata/*.jsonl"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			if !strings.Contains(p, "garbage") {
				paths = append(paths, p)
			}
		}
	}
	if len(paths) < 10 {
		t.Fatalf("found only %d recordings", len(paths))
	}
	return paths
}

// TestWriteHARRoundTrip: a recording exported to HAR validates to the
// same findings (rule, direction, frame payload), frames, connections and
// sessions as the recording itself, with the dialect detected or given.
//
// Connections the recorder did not judge keep their mark in the entry's
// _wsconform, which the HAR reader honours: they are not judged either way.
func TestWriteHARRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, path := range recordings(t, dir) {
		for _, d := range []string{"auto", headerDialect(t, path)} {
			t.Run(filepath.Base(path)+"/"+d, func(t *testing.T) {
				t.Parallel()
				har := exportHAR(t, path, t.TempDir(), recording.HAROptions{Creator: "wsconform test"})
				want := judge(t, path, d)
				got := judge(t, har, d)
				if got.source != recording.SourceHAR {
					t.Fatalf("the export reads as %s, not a HAR file", got.source)
				}
				if !slices.Equal(got.findings, want.findings) {
					t.Errorf("findings differ\nrecording:\n  %s\nHAR:\n  %s", strings.Join(want.findings, "\n  "), strings.Join(got.findings, "\n  "))
				}
				if got.frames != want.frames || got.frames == 0 || got.conns != want.conns || got.sessions != want.sessions {
					t.Errorf("HAR judged %d data frames, %d connections, %d sessions; the recording %d, %d, %d",
						got.frames, got.conns, got.sessions, want.frames, want.conns, want.sessions)
				}
			})
		}
	}
}

// headerDialect is the dialect a recording's header names.
func headerDialect(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := recording.NewReader(f).Next()
	if err != nil || l.Kind != recording.KindHeader || l.Dialect == "" {
		t.Fatalf("%s: no header naming a dialect (%v)", path, err)
	}
	return l.Dialect
}

// unpack writes testdata/harwrite-*.jsonl.gz out into dir.
func unpack(t *testing.T, dir string) []string {
	t.Helper()
	gz, err := filepath.Glob("testdata/harwrite-*.jsonl.gz")
	if err != nil || len(gz) < 5 {
		t.Fatalf("want the 5 recordings testdata/harwrite-*.jsonl.gz, found %v (%v)", gz, err)
	}
	var out []string
	for _, p := range gz {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, strings.TrimSuffix(filepath.Base(p), ".gz"))
		if err := os.WriteFile(dst, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, dst)
	}
	return out
}
