package recording

import (
	"encoding/base64"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// appendFrameLine appends the line FrameLine(session, f) makes, with its
// time in UTC, byte for byte as the Writer's json.Encoder writes it
// (TestAppendFrameLineIsEncoder, FuzzAppendFrameLine): members in Line's
// order, empty ones left out, the newline. It neither copies the payload
// into a string nor reflects: the encoder was a quarter of wsproxy's CPU
// in a burst. ok is false for a time encoding/json refuses (a year
// outside 0–9999): the caller then goes the slow way, which reports it.
func appendFrameLine(dst []byte, session string, f wire.Frame) (out []byte, ok bool) {
	t := f.Time.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		return dst, false
	}
	dst = append(dst, `{"kind":"frame"`...)
	if f.Conn != "" {
		dst = append(dst, `,"conn":`...)
		dst = jsonx.AppendQuotedString(dst, f.Conn)
	}
	if session != "" {
		dst = append(dst, `,"session":`...)
		dst = jsonx.AppendQuotedString(dst, session)
	}
	dst = append(dst, `,"time":"`...)
	dst = t.AppendFormat(dst, time.RFC3339Nano)
	dst = append(dst, '"')
	if f.Dir != "" {
		dst = append(dst, `,"dir":`...)
		dst = jsonx.AppendQuotedString(dst, string(f.Dir))
	}
	if f.Index != 0 {
		dst = append(dst, `,"index":`...)
		dst = strconv.AppendInt(dst, f.Index, 10)
	}
	if f.Op != 0 {
		dst = append(dst, `,"opcode":`...)
		dst = strconv.AppendInt(dst, int64(f.Op), 10)
	}
	if f.Op != wire.OpBinary && utf8.Valid(f.Payload) {
		dst = append(dst, `,"text":`...)
		dst = jsonx.AppendQuoted(dst, f.Payload)
	} else {
		dst = append(dst, `,"base64":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, f.Payload)
		dst = append(dst, '"')
	}
	if f.CloseCode != 0 {
		dst = append(dst, `,"code":`...)
		dst = strconv.AppendInt(dst, int64(f.CloseCode), 10)
	}
	return append(dst, "}\n"...), true
}
