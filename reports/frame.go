package reports

import (
	"encoding/base64"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/wire"
)

// MaxPayload is how much of a payload a report keeps per frame by default,
// so a 10 MB frame does not become a 10 MB report row.
const MaxPayload = 64 << 10

// NewFrame copies a wire frame into a report frame; typ and seq are what the
// feeder decoded (empty when unknown). Payloads beyond max bytes are cut.
func NewFrame(f wire.Frame, typ, seq string, max int) Frame {
	if max <= 0 {
		max = MaxPayload
	}
	out := Frame{Index: f.Index, Time: f.Time, Conn: f.Conn, Dir: f.Dir, Op: f.Op.String(),
		Type: typ, Seq: seq, Size: len(f.Payload), CloseCode: f.CloseCode}
	p := f.Payload
	if len(p) > max {
		p, out.Truncated = p[:max], true
	}
	if out.Truncated {
		p = trimPartialRune(p)
	}
	out.Binary = f.Op == wire.OpBinary || !utf8.Valid(p)
	if out.Binary {
		out.Payload = base64.StdEncoding.EncodeToString(p)
	} else {
		out.Payload = string(p)
	}
	return out
}

// trimPartialRune drops a UTF-8 sequence cut in the middle by truncation.
func trimPartialRune(p []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(p) > 0; i++ {
		r, size := utf8.DecodeLastRune(p)
		if r != utf8.RuneError || size > 1 {
			return p
		}
		p = p[:len(p)-1]
	}
	return p
}
