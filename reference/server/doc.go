// Package server is the plumbing every reference dialect shares: the
// per-connection read and write pumps with a bounded send queue, fault
// injection on the way out, the bounded replay log, injectable ids and
// clock, and the set of mutations a server was asked to commit.
//
// A dialect package accepts a connection with Accept, then calls Conn.Serve
// with its own Handler; everything protocol-specific stays in the dialect.
//
// A client that does not keep up is closed with 1013 (try again later):
// when its send queue overflows, or when one write to it has blocked for
// WriteTimeout (it stopped reading). The close frame follows the frame
// under way, never cuts it, so a client that reads again within
// CloseGrace reads 1013 after everything sent before it; one that does
// not is dropped. Guard (guard.go) says who may connect: Origin, Host, how
// many at once, how long a silent connection stays.
package server
