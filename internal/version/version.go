// Package version says which wsconform this is, for reports, recordings
// and --version.
package version

import "runtime/debug"

// base is the version of this source tree; a release tag, when the binary
// was built by `go install ...@vX.Y.Z`, takes precedence.
const base = "0.1.0-dev"

// String returns "wsconform <version>".
func String() string { return "wsconform " + Number() }

// Number returns the version number alone.
func Number() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return base
}
