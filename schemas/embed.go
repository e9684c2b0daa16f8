// Package schemas embeds the JSON Schemas (draft-07) of every dialect, one
// folder per dialect: a manifest.json, shared definitions in defs.json, one
// schema per message type under c2s/ and s2c/ (and http/ for HTTP bodies),
// and examples/ with a valid and an invalid example of every message type.
// See README.md in this folder for the conventions.
package schemas

import "embed"

// FS holds every dialect folder. Paths are "<dialect>/manifest.json",
// "<dialect>/<c2s|s2c|http>/<type>.json", "<dialect>/examples/...".
//
//go:embed minicodex hostd myagent mitto coworker
var FS embed.FS
