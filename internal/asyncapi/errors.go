package asyncapi

import "fmt"

// Error is a document that cannot be imported: where (the file and a JSON
// pointer into it) and why, on one line.
type Error struct {
	File  string
	Place string
	Msg   string
}

func (e *Error) Error() string {
	place := e.Place
	if place == "" {
		place = "/"
	}
	if e.File == "" {
		return fmt.Sprintf("at %s: %s", place, e.Msg)
	}
	return fmt.Sprintf("%s: at %s: %s", e.File, place, e.Msg)
}

func errAt(file, place, format string, args ...any) *Error {
	return &Error{File: file, Place: place, Msg: fmt.Sprintf(format, args...)}
}
