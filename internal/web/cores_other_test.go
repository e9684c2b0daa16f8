//go:build unix && !linux

package web

import (
	"testing"

	"github.com/wsconform/wsconform/internal/cdp"
)

// splitCores is Linux's (processor masks per thread); elsewhere the
// split-cores benchmark is skipped.
func splitCores(*testing.B, *cdp.Browser) (func(), bool) { return nil, false }
