// Package dialect is the registry of protocol dialects. It reads each
// dialect's manifest from the embedded schemas, compiles its JSON Schemas
// once per process, and answers the questions every feeder asks: which
// member holds the message type, which types flow in which direction, and
// which schema judges a message.
package dialect
