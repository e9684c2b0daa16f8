package recording

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// errNotFast sends a line to encoding/json: the fast reader met something
// it does not read exactly as encoding/json would.
var errNotFast = errors.New("not a fast line")

// decodeLine fills a Line from one recording line. The lines our
// recorders write (exact lower-case keys, values of the fields' types) are
// read by jsonx without reflection, about twice as fast as
// encoding/json.Unmarshal, which was a third of `validate`'s time on a
// large file. Anything else (a key in another case, a null, a number that
// is not a plain integer where one is wanted, a duplicate key, a string
// that is not UTF-8) is read by encoding/json, so that every line means,
// and every bad line fails, exactly as before (FuzzDecodeLine).
func decodeLine(raw []byte) (Line, error) {
	if l, ok := fastLine(raw); ok {
		return l, nil
	}
	var l Line
	// Unmarshal, not a Decoder: a Decoder copies the line into a buffer of
	// its own, which for a line of a 16 MiB frame is up to 96 MiB more.
	// Unmarshal also refuses a second value after the first.
	return l, json.Unmarshal(raw, &l)
}

// fastLine reads a line with jsonx, and reports false when it cannot read
// it exactly as encoding/json would.
func fastLine(raw []byte) (Line, bool) {
	var l Line
	issues, err := jsonx.Members(raw, l.member)
	return l, err == nil && len(issues) == 0
}

// lazyText reads a line leaving a frame's text undecoded (Line.rawText):
// what it cannot read so, parseLine reads.
func lazyText(raw []byte) (Line, error) {
	var l Line
	issues, err := jsonx.MembersLazy(raw, func(k string) bool { return k == "text" }, func(key string, v any, lit []byte) error {
		if key == "text" && v == nil && len(lit) > 0 && lit[0] == '"' {
			l.rawText = lit
			return nil
		}
		return l.member(key, v, lit)
	})
	if err != nil || len(issues) > 0 {
		return parseLine(raw)
	}
	return l, checkLine(l)
}

// member sets the field a key names, or refuses with errNotFast.
func (l *Line) member(key string, v any, raw []byte) error {
	switch key {
	case "kind":
		return setString(&l.Kind, v)
	case "format":
		return setString(&l.Format, v)
	case "version":
		return setInt(&l.Version, raw)
	case "dialect":
		return setString(&l.Dialect, v)
	case "tool":
		return setString(&l.Tool, v)
	case "conn":
		return setString(&l.Conn, v)
	case "session":
		return setString(&l.Session, v)
	case "parent":
		return setString(&l.Parent, v)
	case "pending":
		return setBool(&l.Pending, v)
	case "url":
		return setString(&l.URL, v)
	case "unjudged":
		return setString(&l.Unjudged, v)
	case "time":
		if _, ok := v.(string); !ok {
			return errNotFast
		}
		return l.Time.UnmarshalJSON(raw) // its own parse of the raw text, as encoding/json calls it
	case "dir":
		s, ok := v.(string)
		if !ok {
			return errNotFast
		}
		l.Dir = wire.Direction(s)
		return nil
	case "index":
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return errNotFast
		}
		l.Index = n
		return nil
	case "opcode":
		return setInt(&l.Opcode, raw)
	case "text":
		return setPtr(&l.Text, v)
	case "base64":
		return setPtr(&l.Base64, v)
	case "code":
		return setInt(&l.Code, raw)
	case "reason":
		return setString(&l.Reason, v)
	case "by":
		return setString(&l.By, v)
	}
	return l.httpMember(key, v, raw)
}

// httpMember sets the fields of an http line.
func (l *Line) httpMember(key string, v any, raw []byte) error {
	switch key {
	case "endpoint":
		return setString(&l.Endpoint, v)
	case "method":
		return setString(&l.Method, v)
	case "path":
		return setString(&l.Path, v)
	case "status":
		return setInt(&l.Status, raw)
	case "auth":
		return setString(&l.Auth, v)
	case "ms":
		if _, ok := v.(json.Number); !ok {
			return errNotFast
		}
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return errNotFast
		}
		l.Millis = f
		return nil
	case "request":
		return setPtr(&l.Request, v)
	case "request_base64":
		return setPtr(&l.RequestBase64, v)
	case "request_cut":
		return setBool(&l.RequestCut, v)
	case "response":
		return setPtr(&l.Response, v)
	case "response_base64":
		return setPtr(&l.ResponseBase64, v)
	case "response_cut":
		return setBool(&l.ResponseCut, v)
	}
	return errNotFast // unknown here: encoding/json ignores it or matches it without case
}

func setString(dst *string, v any) error {
	s, ok := v.(string)
	if !ok {
		return errNotFast
	}
	*dst = s
	return nil
}

func setPtr(dst **string, v any) error {
	s, ok := v.(string)
	if !ok {
		return errNotFast
	}
	*dst = &s
	return nil
}

func setBool(dst *bool, v any) error {
	b, ok := v.(bool)
	if !ok {
		return errNotFast
	}
	*dst = b
	return nil
}

// setInt reads a plain integer literal; anything else (a fraction, an
// exponent, out of range) is left to encoding/json and its error.
func setInt(dst *int, raw []byte) error {
	n, err := strconv.ParseInt(string(raw), 10, 0)
	if err != nil {
		return errNotFast
	}
	*dst = int(n)
	return nil
}
