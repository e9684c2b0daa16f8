// Package wire holds the vocabulary every feeder of the check engine shares:
// a Frame as it crossed a WebSocket connection, its direction and opcode.
// It has no dependencies so that the proxy, the runner, the recording codec
// and the checker can all speak it without importing each other.
package wire
