// Package cdp drives a headless Chromium over the Chrome DevTools Protocol,
// for tests that must keep a page open while it changes: load it, wait for
// its state, reload it mid-session, scroll it, take screenshots. (The
// report tests in reports/ run Chromium one-shot with --dump-dom and
// --screenshot, which cannot.) CDP speaks JSON over a WebSocket; gorilla
// is the client. Start takes a testing.TB: benchmarks use it too, to
// measure the proxy with a real page open rather than a stand-in.
//
// Start fails the test when no Chromium is found (CI installs Debian's
// chromium), unless WSCONFORM_SKIP_BROWSER is set; WSCONFORM_CHROMIUM
// names another binary, and WSCONFORM_SCREENSHOTS a folder for the
// screenshots.
package cdp
