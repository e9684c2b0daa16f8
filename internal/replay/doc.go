// Package replay turns a recording into a regression test, in both
// directions.
//
// A Plan is a recording (JSONL or HAR) as replay needs it: its connections
// in the order they opened, each with its frames and how it ended, and the
// recording-wide order of events across connections. Client-side replay
// (`wsconform replay --against URL`) plays the client's frames of a plan
// against a live server; server-side replay (`wsconform serve --replay`,
// internal/fixture) plays the server's frames to any client that connects.
package replay
