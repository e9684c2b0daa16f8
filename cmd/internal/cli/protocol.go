package cli

import (
	"fmt"
	"io"

	"github.com/wsconform/wsconform/internal/asyncapi"
)

// ProtocolUsage is the help of --protocol, the same on every command.
const ProtocolUsage = "judge the protocol an AsyncAPI 3.0 document `FILE` (YAML or JSON) describes, instead of a built-in dialect: its messages, directions, payload schemas, reply/correlationId pairs and x-wsconform extension drive the check engine (see README, \"Your own protocol\")"

// Protocol imports --protocol FILE, registers it as a dialect and returns
// its name. The notes (which stateful checks the document does not enable,
// and the extension key that would) are printed to w, one line each.
func Protocol(file string, w io.Writer) (string, error) {
	p, err := asyncapi.Load(file)
	if err != nil {
		return "", err
	}
	for _, n := range p.Notes {
		fmt.Fprintf(w, "%s: %s\n", file, n)
	}
	return p.Name, nil
}
