package runner

import (
	"net/url"
	"strings"
)

// Console lines of a run that shares one session.
const (
	SharedSessionNotice = "scenarios share the session in --target: running them one at a time; use --session-cmd for one session each"
)

// genericSessionQuery are query members that name a session in any
// dialect's URL, beside those its client.json declares.
var genericSessionQuery = []string{"session_id", "sessionid", "session", "sid"}

// sessionInURL says which part of a target URL names a session ("" when
// none): a query member the dialect's client.json calls the session (mitto:
// session_id), a query member named like one, or a path segment after
// /session/ or /sessions/. Scenarios run concurrently against such a URL
// share one session on the server and fail on each other's prompts
// ("prompt already in progress"), so the run goes one at a time.
func sessionInURL(raw string, spec *clientSpec) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	q := u.Query()
	var names []string
	if spec != nil {
		names = append(names, spec.SessionQuery...)
	}
	for _, n := range append(names, genericSessionQuery...) {
		for k, vs := range q {
			if strings.EqualFold(k, n) && len(vs) > 0 && vs[0] != "" {
				return "?" + k + "="
			}
		}
	}
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i := 0; i+1 < len(segs); i++ {
		if s := strings.ToLower(segs[i]); (s == "session" || s == "sessions") && segs[i+1] != "" {
			return "/" + segs[i] + "/"
		}
	}
	return ""
}

// concurrencyFor is how many scenarios run at once against a target: the
// user's --concurrency when given; else one when every scenario would join
// the session the target URL names (no --session-cmd), else eight, or
// ReferenceConcurrency against the reference server.
func (r *run) concurrencyFor(t Target) int {
	if r.opts.Concurrency > 0 {
		return r.opts.Concurrency
	}
	if t.Reference {
		return ReferenceConcurrency
	}
	if r.opts.SessionCmd == "" && !t.Reference {
		for d, spec := range r.specs {
			if sessionInURL(t.urlFor(d), spec) != "" {
				r.notice(SharedSessionNotice)
				return 1
			}
		}
	}
	return DefaultConcurrency
}

// workingFor is how many of the open scenarios may work at once, the
// others listening through a window: DefaultConcurrency against the
// reference server (unless the user set --concurrency), all of them
// elsewhere.
func (r *run) workingFor(t Target, open int) int {
	if t.Reference && r.opts.Concurrency == 0 {
		return min(open, DefaultConcurrency)
	}
	return open
}

// DefaultConcurrency is how many scenarios run at once per target unless
// the user says otherwise or they share a session.
const DefaultConcurrency = 8

// ReferenceConcurrency is how many scenarios run at once against the
// reference server unless the user says otherwise, DefaultConcurrency of
// them working and the others listening through a window (schedule.go).
// The scenarios spend nearly all their time in windows and waiting for
// heartbeats (the whole suite is under 2 s of CPU), and the reference
// server is ours to load: at eight at a time the 399 scenarios took 8 s of
// waiting, at 32 (longest first) they take little more than the longest
// of them, 2 s. A server of someone else's keeps eight: it may count
// connections or limit sessions.
const ReferenceConcurrency = 32

func (r *run) notice(line string) {
	if r.opts.Notice != nil {
		r.noticeMu.Lock()
		defer r.noticeMu.Unlock()
		r.opts.Notice(line)
	}
}
