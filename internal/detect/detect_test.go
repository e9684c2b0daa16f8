package detect

import (
	"encoding/json"
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/schemas"
)

// examples returns the valid example messages of a dialect as frames.
func examples(t *testing.T, name string) []wire.Frame {
	t.Helper()
	var out []wire.Frame
	for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
		files, err := fs.Glob(schemas.FS, path.Join(name, "examples", string(dir), "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			raw, _ := fs.ReadFile(schemas.FS, f)
			var ex struct{ Valid []json.RawMessage }
			if err := json.Unmarshal(raw, &ex); err != nil {
				t.Fatal(err)
			}
			out = append(out, wire.Frame{Dir: dir, Op: wire.OpText, Payload: ex.Valid[0]})
		}
	}
	return out
}

func TestDetectsEveryDialectFromItsFrames(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			frames := examples(t, name)
			for _, n := range []int{len(frames), 5} { // the whole corpus, and a short start
				got, err := Dialect(nil, frames[:n])
				if err != nil || got.Dialect != name {
					t.Fatalf("from %d frames: got %+v, %v", n, got, err)
				}
				if !strings.Contains(got.Reason, "frames are its message types") {
					t.Errorf("reason %q does not explain", got.Reason)
				}
			}
		})
	}
}

func TestHostdPathDecides(t *testing.T) {
	t.Parallel()
	got, err := Dialect([]string{"ws://127.0.0.1:9/ws/host?host_id=h&host_token=t"}, nil)
	if err != nil || got.Dialect != "hostd" || !strings.Contains(got.Reason, "URL path") {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestRefusesToGuess(t *testing.T) {
	t.Parallel()
	for _, frames := range [][]wire.Frame{
		nil,
		{{Dir: wire.ClientToServer, Op: wire.OpText, Payload: []byte(`{"hello":"world"}`)}},
		{{Dir: wire.ServerToClient, Op: wire.OpBinary, Payload: []byte{1, 2}}},
	} {
		if got, err := Dialect([]string{"ws://x/ws"}, frames); err == nil {
			t.Errorf("%v: guessed %+v", frames, got)
		}
	}
}
