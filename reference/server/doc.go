// Package server is the plumbing every reference dialect shares: the
// per-connection read and write pumps with a bounded send queue, fault
// injection on the way out, the bounded replay log, injectable ids and
// clock, and the set of mutations a server was asked to commit.
//
// A dialect package accepts a connection with Accept, then calls Conn.Serve
// with its own Handler; everything protocol-specific stays in the dialect.
package server
