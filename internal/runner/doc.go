// Package runner runs the Gherkin conformance features against servers.
//
// Features live in features/<dialect>/ (embedded in the binary) or in a
// user's directory. Each scenario runs in its own World: the clients it
// opened, the variables it remembered, and one check.Session that judges
// every frame it sent or received. Steps form one vocabulary shared by all
// dialects (connect, send a JSON docstring, expect a message type within a
// time, expect a field value, disconnect, reconnect, a second client, plain
// HTTP); the dialect is data, taken from the scenario's tag or folder.
//
// A scenario's verdict combines its steps and the check engine. Its level
// is derived from its primary requirement (the first @req:ID tag, looked up
// in features/<dialect>/requirements.json): a failed step fails a stated
// MUST-like or type requirement, makes a SHOULD or a shown one non-strict,
// and is an observation for a MAY or an interpretation (reported, never
// judged). An error finding in a server frame fails it whatever its level;
// a warning makes it non-strict. A feature tree without a registry keeps
// the @must / @should tags. A network or
// harness problem is an error verdict, never a failure of the server.
// Findings about frames the scenario itself sent (deliberately invalid
// input) blame the client, which is us, so they do not count.
package runner
