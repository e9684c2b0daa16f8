package main

import (
	"github.com/wsconform/wsconform/internal/validate"
	"github.com/wsconform/wsconform/reports"
)

// redactFindings returns validate's results with credentials redacted
// from their findings' texts, for validate --json (without --no-redact).
func redactFindings(files []validate.Result) []validate.Result {
	out := append([]validate.Result(nil), files...)
	for i := range out {
		if len(out[i].Findings) == 0 {
			continue
		}
		fs := append([]validate.Finding(nil), out[i].Findings...)
		for k := range fs {
			fs[k].Finding = reports.RedactFinding(fs[k].Finding)
		}
		out[i].Findings = fs
	}
	return out
}
