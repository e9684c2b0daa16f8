package asyncapi

import (
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

func validateOne(t *testing.T, p *Protocol, dir wire.Direction, text string) []check.Finding {
	t.Helper()
	return check.Validate(p.Dialect, wire.Frame{Conn: "c1", Dir: dir, Op: wire.OpText, Index: 1, Payload: []byte(text)}, check.Limits{})
}
