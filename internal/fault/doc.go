// Package fault parses and applies fault specs: deliberate network
// misbehaviour (drop, delay, jitter, duplicate, reorder, close, pause) that
// the reference server and the proxy inject into a message stream so that a
// client's reconnect and resume logic gets exercised.
//
// A spec is one string, the same on the command line (--fault SPEC) and in a
// connection's query (?fault=SPEC):
//
//	drop-after=N        close the TCP connection, without a close frame, after N messages
//	close=CODE[@N]      send a close frame with CODE after N messages (default 0)
//	delay=DUR           hold every message DUR before sending it
//	jitter=DUR          hold every message a random 0..DUR (seeded) before sending it
//	duplicate=N|TYPE    send the Nth message, or the first message of TYPE, twice
//	reorder=TYPE        swap the first message of TYPE with the message after it
//	pause=DUR[@N]       stop sending for DUR after N messages
//
// A spec may start with a direction, "c2s:" or "s2c:" (default s2c), for
// the proxy, which relays both. Injectors are deterministic for a given seed.
package fault
