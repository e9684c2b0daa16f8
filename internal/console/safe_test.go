package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fatih/color"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/console/consoletest"
	"github.com/wsconform/wsconform/internal/wire"
)

// hostileFinding is a finding whose every text is s, as a check quoting a
// peer could make it. Its diff is as check writes one: the tool's lines,
// a value as JSON (which escapes a newline), a pointer with its line
// breaks escaped (check.TestDiffPointerOneLine).
func hostileFinding(s string) check.Finding {
	v, _ := json.Marshal(s)
	ptr := strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(s)
	return check.Finding{Rule: "r." + s, Severity: check.Error, Evidence: check.Evidence(s), Quote: s, Message: s,
		Type: s, Pointer: "/" + s, Expected: s, Actual: s, Diff: "- /" + ptr + ": " + string(v) + "\n+ /a: " + string(v), Conn: s, Dir: wire.ServerToClient, Spec: s}
}

// printAll calls every Printer method with s in its arguments.
func printAll(p *Printer, colour bool, s string) {
	p.Printf("%s %q %v %-30s %d\n", s, s, errors.New(s), s, 7)
	p.Bold("%s\n", s)
	p.Dim("%s\n", s)
	p.Pass("%s\n", s)
	p.Fail("%s\n", s)
	p.Warn("%s\n", s)
	p.Color(NewColor(colour, color.FgMagenta), "%s\n", s)
	p.Severity(check.Warning)
	p.Evidence(check.Evidence(s), s, "  ")
	p.Finding(hostileFinding(s), s)
}

// TestPrinterEscapes: whatever a peer put in the arguments, the output has
// no control character but the tool's own newlines and, with colour, its
// own SGR sequences: the attack of issue 22 neither retitles, clears nor
// forges a line.
func TestPrinterEscapes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(22, 1))
	texts := []string{consoletest.Attack}
	for range 200 {
		texts = append(texts, consoletest.Hostile(rng, 12))
	}
	for _, mode := range []string{ColorNever, ColorAlways} {
		for _, s := range texts {
			var b bytes.Buffer
			p := New(&b, mode)
			printAll(p, mode == ColorAlways, s)
			if bad := consoletest.Unsafe(b.Bytes(), mode == ColorAlways); bad != "" {
				t.Fatalf("color %s, argument %q: %s", mode, s, bad)
			}
			// Only the tool's lines: one per format newline, however many
			// newlines the peer sent.
			var want bytes.Buffer
			printAll(New(&want, mode), mode == ColorAlways, "x")
			if got, exp := bytes.Count(b.Bytes(), []byte("\n")), bytes.Count(want.Bytes(), []byte("\n")); got != exp {
				t.Fatalf("color %s, argument %q: %d lines, want %d:\n%s", mode, s, got, exp, b.String())
			}
		}
	}
}

// TestPrinterFormats: escaping keeps each verb's formatting (padding,
// quoting, numbers), and an argument that needs nothing is printed as it
// was.
func TestPrinterFormats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		format string
		args   []any
		want   string
	}{
		{"%-6s|%5d|%.2f|%x", []any{"ab", 42, 1.5, 255}, "ab    |   42|1.50|ff"},
		{"%q %v", []any{"a\x1bb", errors.New("dial: \x1b[2J")}, `"a\x1bb" dial: \x1b[2J`},
		{"%s", []any{check.Error}, "error"},
		{"%s=%s", []any{"k", "v\nw"}, `k=v\nw`},
		{"%v", []any{[]string{"a\u202eb"}}, `[a\u202eb]`},
		{"no args\n", nil, "no args\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		New(&b, ColorNever).Printf(tt.format, tt.args...)
		if b.String() != tt.want {
			t.Errorf("Printf(%q, %v) = %q, want %q", tt.format, tt.args, b.String(), tt.want)
		}
	}
}

// TestPrinterRedacts: the console redacts like the reports: credential
// header lines and name=value pairs, credential members of JSON, a
// finding's Actual under a credential pointer, and every secret value it
// was told of (Secrets) wherever it is quoted later.
func TestPrinterRedacts(t *testing.T) {
	t.Parallel()
	const bearer, token, key = "sk-test-SECRETVALUE123", "hosttokenVALUE456", "apikeyVALUE789xyz"
	var b bytes.Buffer
	p := New(&b, ColorNever)
	p.Secrets("wsconform run --header 'Authorization: Bearer "+bearer+"' --var host_token="+token, "ws://h/ws?token=urltokenVALUE")
	p.Printf("re-run: %s\n", "wsconform run --header 'Authorization: Bearer "+bearer+"' --var host_token="+token)
	p.Fail("server said: %s\n", "bad token "+bearer+" for "+token)
	p.Dim("%s\n", `{"type":"auth","apiKey":"`+key+`"}`)
	p.Printf("%v\n", fmt.Errorf("dial ws://h/ws?token=urltokenVALUE: refused"))
	p.Finding(check.Finding{Rule: "r", Severity: check.Error, Message: "m", Pointer: "/apiKey", Actual: key}, "")
	out := b.String()
	for _, secret := range []string{bearer, token, key, "urltokenVALUE"} {
		if strings.Contains(out, secret) {
			t.Errorf("the console shows %q:\n%s", secret, out)
		}
	}
	if !strings.Contains(out, "Authorization: Bearer «redacted") && !strings.Contains(out, "Authorization: Bearer *") {
		t.Errorf("the header line lost its shape:\n%s", out)
	}
}

// FuzzPrinter: a finding and every method with arbitrary text, colour on:
// only the tool's SGR sequences and newlines reach the writer.
func FuzzPrinter(f *testing.F) {
	for _, s := range append(consoletest.Pieces, consoletest.Attack) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		printAll(New(&b, ColorAlways), true, s)
		if bad := consoletest.Unsafe(b.Bytes(), true); bad != "" {
			t.Fatalf("argument %q: %s", s, bad)
		}
	})
}
