// Package web is wsproxy's live web view (wsproxy --web ADDR): a page,
// served on its own loopback listener, that shows the proxy's sessions →
// connections → frames with the findings on each frame while a UI talks
// through the proxy.
//
// # Data flow
//
//	validator goroutine ──Observe──▶ ring (bounded, overwrites) ──▶ /events (SSE), one per page
//
// The proxy's validator calls Server.Observe for every frame, finding and
// connection event (proxy.LiveObserver). Observe copies the event into a
// fixed ring of slots under a mutex held for a copy, and returns: it never
// waits for a page. Each page reads the ring at its own pace from its own
// handler goroutine; a page that reads slowly (or a batch larger than its
// rate) loses the events the ring overwrote meanwhile, and is told how many
// were dropped for it. The recording still has every frame.
//
// Connection and session state (which connection belongs to which session,
// how it ended) is kept apart from the ring in a small bounded registry,
// so a page that opens late, or misses events, still knows every
// connection it sees frames of.
//
// Each page gets a batch at most every 100 ms as one SSE message (a JSON
// array ending with the stats), whose id is its last event's, so that
// Last-Event-ID resumes after the batch. The page (assets/live.js) keeps
// the rows as data and draws only those in view: a browser's cost then
// follows what the user can see, not the traffic.
//
// Findings are rendered to HTML on the server by the HTML report's own
// template (reports.FindingHTML), so a finding looks the same on the live
// page and in the report. "Download report" builds the report from a
// snapshot of the proxy (proxy.Proxy.Snapshot) with the writers used on
// exit; "Save HAR" converts the recording. A finding repeated on later
// frames of a connection (same rule, message type and member pointer) is
// one line on the page pointing at the first, which is shown in full.
//
// With gate --replay (Config.Replays) the page also shows the replay diffs,
// fetched from /replays. The gate calls Server.ReplaysChanged whenever the
// diffs may have changed; notices within a quarter of a second make one
// "replays" message on every page's stream (and one when a stream opens),
// and the page fetches the diffs again, swapping only those that changed
// and keeping what the user opened and the part in view.
//
// # Safety
//
// The listener is loopback unless Config.AllowRemote, peers must be on
// loopback too, and a request whose Host is not the listener's address is
// refused with the proxy's own rule (DNS rebinding; netguard.HostAllowed).
package web
