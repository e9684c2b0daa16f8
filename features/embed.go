// Package features embeds the Gherkin conformance features of every
// dialect, so that the wsconform binary carries them.
package features

import "embed"

// FS holds features/<dialect>/*.feature and each dialect's client.json:
// how a real client of the dialect answers what the server asks, and the
// server messages that say the target cannot run a scenario.
//
//go:embed */*.feature */client.json
var FS embed.FS
