package gate

import (
	"net/http"

	"github.com/wsconform/wsconform/internal/proxy"
)

// watchUpstream has Options.UpstreamChanged follow a replay fixture: it
// compares a client frame as the proxy relays it, adds the row of a frame
// that never came before it sends the next recorded one, and completes a
// connection's diff before its handler returns. So every frame and close
// the proxy observes, and every return of the upstream's handler, is a
// notice; the receiver makes one update of many (web.Server coalesces
// them), so a notice per frame costs the relay nothing.
func watchUpstream(opts *Options) {
	if opts.UpstreamChanged == nil || opts.Upstream == nil {
		return
	}
	opts.Live = changeNotices{inner: opts.Live, changed: opts.UpstreamChanged}
	up := *opts.Upstream // the caller's stays as it was
	up.Handler = changeHandler{inner: up.Handler, changed: opts.UpstreamChanged}
	opts.Upstream = &up
}

// changeNotices passes the proxy's events on (to inner, when set) and
// notices frames and closes.
type changeNotices struct {
	inner   proxy.LiveObserver
	changed func()
}

func (n changeNotices) Observe(ev *proxy.LiveEvent) {
	if n.inner != nil {
		n.inner.Observe(ev)
	}
	if ev.Kind == proxy.LiveFrame || ev.Kind == proxy.LiveClose {
		n.changed()
	}
}

// changeHandler notices the end of each request the upstream served (a
// replayed connection's diff is complete by then).
type changeHandler struct {
	inner   http.Handler
	changed func()
}

func (h changeHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer h.changed()
	h.inner.ServeHTTP(w, r)
}
