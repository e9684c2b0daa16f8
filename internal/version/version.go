// Package version says which wsconform this is, for reports, recordings
// and --version.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// base is the version of this source tree; a release tag, when the binary
// was built by `go install ...@vX.Y.Z`, takes precedence.
const base = "0.1.0-dev"

// Stamped by ci/install.sh and ci/release.sh with -ldflags "-X
// github.com/wsconform/wsconform/internal/version.stampVersion=… -X
// ….stampCommit=…": a binary built from a checkout (not by go install of
// a module version) still says which version and commit it is.
var (
	stampVersion string
	stampCommit  string
)

// String returns "wsconform <version>".
func String() string { return "wsconform " + Number() }

// Number returns the version number alone.
func Number() string {
	if stampVersion != "" {
		return stampVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return base
}

// Info is what --version prints: the binary's own name, the version, the
// commit it was built from (with "modified" when the tree had changes)
// and the Go toolchain, e.g.
//
//	wsproxy 0.1.0-dev commit 07bb781c3f2a (modified) go1.26.8 linux/amd64
//
// The commit is "unknown" when the binary carries no VCS stamp (go run of
// a file, go test, a build outside a checkout).
func Info(binary string) string {
	commit, modified, goVersion := "unknown", false, runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
				if len(commit) > 12 {
					commit = commit[:12]
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if stampCommit != "" && commit == "unknown" {
		commit = stampCommit
		if len(commit) > 12 {
			commit = commit[:12]
		}
	}
	if modified {
		commit += " (modified)"
	}
	return fmt.Sprintf("%s %s commit %s %s %s/%s", binary, Number(), commit, goVersion, runtime.GOOS, runtime.GOARCH)
}
