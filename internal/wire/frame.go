package wire

import (
	"fmt"
	"time"
)

// Direction says who sent a frame: the client (c2s) or the server (s2c).
type Direction string

// The two directions of a WebSocket connection, spelled as in recordings.
const (
	ClientToServer Direction = "c2s"
	ServerToClient Direction = "s2c"
)

// Valid reports whether d is one of the two known directions.
func (d Direction) Valid() bool { return d == ClientToServer || d == ServerToClient }

// Arrow is the console glyph for a direction.
func (d Direction) Arrow() string {
	if d == ClientToServer {
		return "→"
	}
	return "←"
}

// Opcode is the RFC 6455 opcode of a message.
type Opcode int

// RFC 6455 §5.2 opcodes. Continuation frames never reach this layer:
// feeders hand over whole messages.
const (
	OpText   Opcode = 1
	OpBinary Opcode = 2
	OpClose  Opcode = 8
	OpPing   Opcode = 9
	OpPong   Opcode = 10
)

func (o Opcode) String() string {
	switch o {
	case OpText:
		return "text"
	case OpBinary:
		return "binary"
	case OpClose:
		return "close"
	case OpPing:
		return "ping"
	case OpPong:
		return "pong"
	}
	return fmt.Sprintf("opcode(%d)", int(o))
}

// Frame is one whole WebSocket message (or control frame) as observed.
type Frame struct {
	// Conn identifies the connection the frame travelled on. Frames of
	// reconnections of one logical session carry different Conn values but are
	// fed to the same check.Session.
	Conn string
	// URL is the connection's request URL (path and query matter to
	// dialects with several endpoints, such as hostd). Optional.
	URL string
	// Index is the position of the frame in its recording or live stream,
	// used to link findings to frames. Feeders assign it; it is never reused.
	Index int64
	Dir   Direction
	Time  time.Time
	Op    Opcode
	// Payload is the message body: text as is, binary as raw bytes. For a
	// close frame it is the reason text.
	Payload []byte
	// CloseCode is the status code of a close frame (0 when none was sent).
	CloseCode int
}
