// Package reference assembles the reference servers of every dialect into
// one HTTP server: the thing `wsconform serve` runs, `wsconform run` tests
// by default and `wsconform gate` puts behind the proxy.
//
// Each dialect lives in its own package (reference/minicodex, …) and
// serves its documented paths at its root; with several dialects each is
// mounted under /<dialect>/. The plumbing they share is reference/server,
// the scripted agent is reference/agent, and reference/reftest drives them
// over real loopback connections in tests.
package reference
