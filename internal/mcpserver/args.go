package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// maxArgBytes bounds a tool call's arguments: every tool takes a few
// short strings and numbers, so a larger document is a mistake or an
// attack, refused before it is parsed.
const maxArgBytes = 64 << 10

// checker is implemented by argument types with rules a JSON schema of
// the Go type cannot say (a range, one member or another): decodeArgs
// calls it after decoding.
type checker interface{ check() error }

// decodeArgs decodes a tool call's arguments into v strictly: a JSON
// object (absent or null is {}), no unknown member, every member of its
// type, then v's own checks. Its errors name the argument and what was
// wanted, for an agent to correct its call; they are the words of an
// error result, never a panic.
func decodeArgs[T any](raw json.RawMessage, v *T) error {
	if len(raw) > maxArgBytes {
		return fmt.Errorf("arguments are %d bytes, more than the %d this server reads", len(raw), maxArgBytes)
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	if trimmed[0] != '{' {
		return fmt.Errorf("arguments must be a JSON object, got %s", jsonKind(trimmed))
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return argError(err, reflect.TypeFor[T]())
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("arguments must be one JSON object, with nothing after it")
	}
	if c, ok := any(v).(checker); ok {
		return c.check()
	}
	return nil
}

// argError turns encoding/json's error into words about the argument.
func argError(err error, t reflect.Type) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		name := typeErr.Field
		if name == "" {
			name = "(the arguments)"
		}
		return fmt.Errorf("argument %q: want %s, got a JSON %s", name, goKind(typeErr.Type), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return fmt.Errorf("arguments are not valid JSON: %v", syntaxErr)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return fmt.Errorf("unknown argument %s (this tool takes: %s)", name, strings.Join(argNames(t), ", "))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("arguments are not valid JSON: the object is cut short")
	}
	return fmt.Errorf("arguments: %w", err)
}

// argNames are the JSON names of t's members, sorted.
func argNames(t reflect.Type) []string {
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// goKind names a Go type as JSON calls it.
func goKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(goKind(t.Elem()), "a "), "an ") + "s"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return t.String()
}

// jsonKind names the kind of a JSON document by its first byte.
func jsonKind(b []byte) string {
	switch b[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	if b[0] == '-' || (b[0] >= '0' && b[0] <= '9') {
		return "a number"
	}
	return "something that is not JSON"
}

// inRange checks an optional integer argument (0: not given).
func inRange(name string, v, lo, hi int) error {
	if v != 0 && (v < lo || v > hi) {
		return fmt.Errorf("argument %q: %d is out of range: give %d to %d", name, v, lo, hi)
	}
	return nil
}

// orDefault is v, or def when v was not given (0).
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
