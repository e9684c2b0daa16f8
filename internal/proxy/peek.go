package proxy

import (
	"strings"

	"github.com/wsconform/wsconform/internal/sessionize"
)

// peek reads one member of a frame at relay speed (the console, the wire
// log, type-matching faults); it is sessionize.Peek, which the sessionizer
// shares with the offline validator.
func peek(doc []byte, path ...string) (string, bool) { return sessionize.Peek(doc, path...) }

// splitPointer turns an RFC 6901 pointer such as "/data/seq" (the
// ordering field of a dialect manifest) into the member names peek takes.
func splitPointer(pointer string) []string {
	toks := strings.Split(pointer[1:], "/")
	for i, t := range toks {
		toks[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(t)
	}
	return toks
}
