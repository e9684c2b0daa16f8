package reports

import (
	"strconv"
	"strings"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// describeLimit is the largest payload Describe decodes: a wire log only
// needs the type and ordering value, not a second decode of a huge frame.
const describeLimit = 1 << 20

// Describe reads a frame's message type and ordering value (event_id, seq,
// index: the dialect's ordering field) for a wire log row. Both are empty
// when the frame is not a JSON text frame or lacks them.
func Describe(d *dialect.Dialect, f wire.Frame) (typ, seq string) {
	if d == nil || f.Op != wire.OpText || len(f.Payload) > describeLimit {
		return "", ""
	}
	doc, _, err := jsonx.Decode(f.Payload, jsonx.DefaultMaxDepth)
	if err != nil {
		return "", ""
	}
	if v, ok := jsonx.Field(doc, d.TypeField); ok {
		typ, _ = v.(string)
	}
	if d.Ordering.Pointer != "" {
		if v, ok := jsonx.Get(doc, d.Ordering.Pointer); ok {
			if n, ok := jsonx.Int64(v); ok {
				seq = strconv.FormatInt(n, 10)
			}
		}
	}
	return typ, seq
}

// SeqLabel is the name of a dialect's ordering field (event_id, seq,
// index), the heading of the wire log's ordering column; "seq" when the
// dialect is unknown.
func SeqLabel(dialectName string) string {
	d, err := dialect.Get(dialectName)
	if err != nil || d.Ordering.Pointer == "" {
		return "seq"
	}
	p := d.Ordering.Pointer
	return p[strings.LastIndexByte(p, '/')+1:]
}
