package version

import (
	"runtime"
	"strings"
	"testing"
)

func TestInfo(t *testing.T) {
	got := Info("wsproxy")
	for _, want := range []string{"wsproxy ", Number(), " commit ", runtime.Version(), runtime.GOOS + "/" + runtime.GOARCH} {
		if !strings.Contains(got, want) {
			t.Errorf("Info = %q, lacks %q", got, want)
		}
	}
	if strings.Contains(got, "wsconform") {
		t.Errorf("Info(wsproxy) = %q names another binary", got)
	}
}
