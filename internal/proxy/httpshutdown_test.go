package proxy

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestShutdownWaitsForHTTP: a plain HTTP request still in the proxy's
// hands when it shuts down is cancelled (a long poll must not hold up
// Ctrl-C) and logged before the report is written. The proxy used to write
// its report without waiting for HTTP handlers, which is how
// TestHTTPRefusals once lost its /boom session: the client had the 500
// before the handler had filed it. Here the upstream never answers until
// the test ends, so without the wait the request is deterministically
// missing, and without the cancellation Shutdown would hang.
func TestShutdownWaitsForHTTP(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(started) })
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); up.Close() })
	tp := startProxy(t, Config{Upstream: up.URL, Dialect: "minicodex"})
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Get(tp.http + "/poll")
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	<-started
	tp.Stop()
	if con := tp.console.String(); !strings.Contains(con, "HTTP GET /poll → 502") || !strings.Contains(con, "shutting down") {
		// Fatal: without the cancellation the client is still waiting
		t.Fatalf("the request in progress at shutdown is not in the log:\n%s", con)
	}
	if code := <-answered; code != http.StatusBadGateway {
		t.Errorf("the client got %d, want 502", code)
	}
}
