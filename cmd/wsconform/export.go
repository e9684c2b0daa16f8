package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/wsconform/wsconform/cmd/internal/cli"
	"github.com/wsconform/wsconform/internal/asyncapi"
	"github.com/wsconform/wsconform/internal/console"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/version"
)

// runExport converts a recording offline: today to a Chrome DevTools HAR,
// the file the live view's "Save HAR" writes, for DevTools and HAR tools.
func runExport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export", "--har OUT [flags] RECORDING | --asyncapi OUT --dialect NAME",
		"Exports a recording (wsproxy --record, JSON Lines) as a HAR file as Chrome DevTools\n"+
			"writes one: one websocket entry per connection with its messages, which DevTools\n"+
			"(Network panel, import HAR) and HAR viewers show, and `wsconform validate` judges\n"+
			"to the same findings. Close, ping and pong frames, sessions and how each connection\n"+
			"ended are kept in the entries' _wsconform member. Exit 0 written, 2 usage error,\n"+
			"3 unreadable input or nothing to export.\n\n"+
			"With --asyncapi, writes a built-in dialect as an AsyncAPI 3.0 document instead (YAML,\n"+
			"or JSON when OUT ends in .json): channels, send/receive operations, payload schemas,\n"+
			"reply with correlationId, and the x-wsconform extension (ordering, resume, replay,\n"+
			"session tying, requirements with the spec's words). --protocol OUT reads it back.\n\n"+
			"Examples:\n"+
			"  wsconform export --har session.har session.jsonl\n"+
			"  wsconform export --asyncapi mitto.asyncapi.yaml --dialect mitto", stdout)
	out := fs.String("har", "", "write the HAR to `FILE` (- for stdout; required)")
	session := fs.String("session", "", "export only the connections of logical `SESSION` (as the report names it)")
	omit := fs.Bool("omit-unjudged", false, "leave out connections the recorder did not judge (not the dialect's traffic): validate judges every connection of a HAR")
	aapi := fs.String("asyncapi", "", "write the AsyncAPI 3.0 document of --dialect to `FILE` (- for stdout; .json for JSON, else YAML)")
	dialectName := fs.String("dialect", "", "with --asyncapi: the dialect to export ("+strings.Join(dialect.Names(), ", ")+")")
	if help, err := fs.parse(args); help || err != nil {
		return err
	}
	if *aapi != "" || *dialectName != "" {
		if *out != "" || fs.NArg() != 0 {
			return usageErr("export: --asyncapi takes no --har and no RECORDING")
		}
		return exportAsyncAPI(*aapi, *dialectName, stdout, stderr)
	}
	switch {
	case *out == "":
		return usageErr("export: --har FILE is required")
	case fs.NArg() != 1:
		return usageErr("export: want one RECORDING, got %d", fs.NArg())
	}
	if err := cli.CheckOutput("--har", *out); err != nil {
		return usageErr("export: %v", err)
	}
	in, err := os.Open(fs.Arg(0))
	if err != nil {
		return harnessErr(fmt.Errorf("export: %w", err))
	}
	defer in.Close()
	opts := recording.HAROptions{Creator: version.String(), Session: *session, OmitUnjudged: *omit,
		OnProblem: skipped(stderr, fs.Arg(0))}
	st, err := exportHAR(*out, stdout, in, opts)
	if err != nil {
		return harnessErr(fmt.Errorf("export: %s: %w", fs.Arg(0), err))
	}
	printExport(stderr, *out, st)
	return nil
}

// maxSkippedShown is how many unreadable parts are printed one by one; the
// summary counts them all.
const maxSkippedShown = 10

// skipped prints the first unreadable parts of the recording as they are
// met (a file of a million broken lines prints ten), through a Printer: a
// problem quotes the recording, which quotes a peer.
func skipped(w io.Writer, path string) func(recording.Problem) {
	n := 0
	pr := console.New(w, console.ColorNever)
	return func(p recording.Problem) {
		if n++; n <= maxSkippedShown {
			pr.Printf("%s: skipped %s\n", path, p)
		}
	}
}

// exportHAR writes the HAR to path (or stdout) through a temporary file
// beside it, renamed when complete, so a failed export leaves no torn HAR
// and never clobbers the recording it reads.
func exportHAR(path string, stdout io.Writer, in *os.File, opts recording.HAROptions) (recording.HARStats, error) {
	if path == "-" {
		return recording.ExportHAR(stdout, in, opts)
	}
	if same(path, in) {
		return recording.HARStats{}, errors.New("--har names the recording itself")
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return recording.HARStats{}, err
	}
	defer os.Remove(tmp.Name())
	st, err := recording.ExportHAR(tmp, in, opts)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return st, err
	}
	return st, os.Rename(tmp.Name(), path)
}

// same says whether path is the file in.
func same(path string, in *os.File) bool {
	a, err := os.Stat(path)
	if err != nil {
		return false
	}
	b, err := in.Stat()
	return err == nil && os.SameFile(a, b)
}

// printExport says what was written and what a HAR could not carry.
func printExport(w io.Writer, path string, st recording.HARStats) {
	where := path
	if path == "-" {
		where = "stdout"
	}
	fmt.Fprintf(w, "wrote the HAR to %s: %d connections, %d messages", where, st.Entries, st.Messages)
	if st.Control > 0 {
		fmt.Fprintf(w, " (%d close/ping/pong frames kept in _wsconform: HAR lists data frames only)", st.Control)
	}
	fmt.Fprintln(w)
	if st.Problems > 0 {
		fmt.Fprintf(w, "skipped %d unreadable parts of the recording\n", st.Problems)
	}
	if st.Omitted > 0 {
		fmt.Fprintf(w, "left out %d connections (other sessions, or unjudged with --omit-unjudged)\n", st.Omitted)
	}
	if st.Unjudged > 0 {
		fmt.Fprintf(w, "note: %d connections were not judged in the recording (not the dialect's traffic); validate judges them in the HAR: --omit-unjudged leaves them out\n", st.Unjudged)
	}
}

// exportAsyncAPI writes a built-in dialect as an AsyncAPI 3.0 document.
func exportAsyncAPI(out, name string, stdout, stderr io.Writer) error {
	switch {
	case out == "":
		return usageErr("export: --dialect needs --asyncapi FILE")
	case name == "":
		return usageErr("export: --asyncapi needs --dialect (%s)", strings.Join(dialect.Names(), ", "))
	case !dialect.Known(name) || dialect.Imported(name):
		return usageErr("export: unknown dialect %q (known: %s)", name, strings.Join(dialect.Names(), ", "))
	}
	if err := cli.CheckOutput("--asyncapi", out); err != nil {
		return usageErr("export: %v", err)
	}
	doc, err := asyncapi.Export(name)
	if err != nil {
		return harnessErr(fmt.Errorf("export: %w", err))
	}
	if !strings.HasSuffix(out, ".json") {
		if doc, err = asyncapi.ToYAML(doc); err != nil {
			return harnessErr(fmt.Errorf("export: %w", err))
		}
	}
	if out == "-" {
		_, err := stdout.Write(doc)
		return err
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, doc, 0o644); err != nil {
		return harnessErr(fmt.Errorf("export: %w", err))
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Remove(tmp)
		return harnessErr(fmt.Errorf("export: %w", err))
	}
	fmt.Fprintf(stderr, "wrote %s: AsyncAPI %s document of %s (%d bytes)\n", out, asyncapi.Version, name, len(doc))
	return nil
}
