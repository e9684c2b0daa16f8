// Package agent is the reference server's scripted agent: a pure function
// from the user's text to what the agent does, the same for every dialect.
// Real agent servers answer with an LLM, so a conformance scenario cannot
// force "a tool call that needs approval"; the scripted agent can, and a
// scenario that relies on it is tagged @scripted.
//
// Each dialect turns a Script into its own events; the package knows
// nothing about wire formats. Same text, same Script, every time.
package agent
