package mitto

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/reference/server"
)

// maxDepth bounds the nesting of a client message; no mitto message nests
// more than three levels.
const maxDepth = 32

// clientTypes are the types a client may send (mitto.md §Frontend →
// Backend Messages).
var clientTypes = map[string]bool{
	"prompt": true, "cancel": true, "ui_prompt_answer": true, "permission_answer": true,
	"load_events": true, "keepalive": true, "rename_session": true,
}

// decode turns one client message into its type and data, or the error to
// answer it with.
func decode(in server.Inbound, maxFrame int64) (string, map[string]any, *wireError) {
	switch {
	case in.Binary:
		return "", nil, errf(codeBinary, "binary frames are not supported: send each message as a JSON text frame")
	case in.Oversize:
		return "", nil, errf(codeTooLarge, "message of %d bytes exceeds the limit of %d bytes", in.Size, maxFrame)
	}
	doc, issues, err := jsonx.Decode(in.Data, maxDepth)
	if err != nil {
		return "", nil, errf(codeInvalidJSON, "message is not valid JSON: %v", err)
	}
	for _, is := range issues {
		if is.Kind == jsonx.InvalidUTF8 || is.Kind == jsonx.LoneSurrogate {
			return "", nil, errf(codeInvalidJSON, "message is not valid UTF-8 JSON: %s at %q", is.Kind, is.Pointer)
		}
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return "", nil, errf(codeInvalidMessage, "message must be a JSON object {type, data}")
	}
	typ, ok := m["type"].(string)
	if !ok {
		return "", nil, errf(codeInvalidMessage, "message needs a string type")
	}
	if !clientTypes[typ] {
		return typ, nil, errf(codeUnknownType, "unknown message type %q", typ)
	}
	raw := m["data"]
	if raw == nil && typ == "cancel" {
		return typ, map[string]any{}, nil // cancel {} carries nothing; a missing or null data is harmless
	}
	data, ok := raw.(map[string]any)
	if !ok {
		return typ, nil, errf(codeInvalidMessage, "%s needs a data object", typ)
	}
	return typ, data, nil
}

// fields reads typed members of a message's data, remembering the first
// problem so a handler can read every field and check once.
type fields struct {
	typ  string
	data map[string]any
	err  *wireError
}

func (f *fields) fail(key, want string) {
	if f.err == nil {
		f.err = errf(codeInvalidMessage, "%s: data.%s must be %s", f.typ, key, want)
	}
}

// str reads a string member; required ones must be present.
func (f *fields) str(key string, required bool) (string, bool) {
	v, ok := f.data[key]
	if !ok {
		if required {
			f.fail(key, "present (a string)")
		}
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		f.fail(key, "a string")
	}
	return s, ok
}

// int reads an optional integer member of at least min.
func (f *fields) int(key string, min int64) (int64, bool) {
	v, ok := f.data[key]
	if !ok {
		return 0, false
	}
	n, ok := jsonx.Int64(v)
	if !ok || n < min {
		f.fail(key, "an integer of at least "+strconv.FormatInt(min, 10))
		return 0, false
	}
	return n, true
}

// boolean reads an optional boolean member.
func (f *fields) boolean(key string) (bool, bool) {
	v, ok := f.data[key]
	if !ok {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		f.fail(key, "a boolean")
	}
	return b, ok
}

// number reads a required JSON number and keeps it as written, so an echo
// returns exactly what the client sent.
func (f *fields) number(key string) json.Number {
	v, ok := f.data[key]
	if !ok {
		f.fail(key, "present (a number)")
		return ""
	}
	n, ok := v.(json.Number)
	if !ok {
		f.fail(key, "a number")
	}
	return n
}

// strings reads an optional array of strings.
func (f *fields) strings(key string) {
	v, ok := f.data[key]
	if !ok {
		return
	}
	list, ok := v.([]any)
	if !ok {
		f.fail(key, "an array of strings")
		return
	}
	for _, x := range list {
		if _, ok := x.(string); !ok {
			f.fail(key, "an array of strings")
			return
		}
	}
}

func (f *fields) check() error {
	if f.err != nil {
		return f.err
	}
	return nil
}

// asWire unwraps the wireError a handler returned.
func asWire(err error) *wireError {
	var we *wireError
	if errors.As(err, &we) {
		return we
	}
	return errf(codeInvalidMessage, "%v", err)
}
