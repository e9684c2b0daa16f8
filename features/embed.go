// Package features embeds the Gherkin conformance features of every
// dialect, so that the wsconform binary carries them.
package features

import "embed"

// FS holds features/<dialect>/*.feature.
//
//go:embed */*.feature
var FS embed.FS
