// Package features embeds the Gherkin conformance features of every
// dialect, so that the wsconform binary carries them.
package features

import "embed"

// FS holds features/<dialect>/*.feature, each dialect's client.json (how a
// real client of the dialect answers what the server asks, and the server
// messages that say the target cannot run a scenario) and its
// requirements.json (the requirement registry that rules and scenarios
// cite, read by internal/requirements).
//
//go:embed */*.feature */client.json */requirements.json
var FS embed.FS
