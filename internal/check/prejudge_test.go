package check

import (
	"encoding/json"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/schemas"
)

// exampleFrames are every example of a dialect, valid and invalid, in
// both directions, with a binary and a close frame and frames that are not
// JSON: the stateless rules' every outcome.
func exampleFrames(t *testing.T, name string) []wire.Frame {
	t.Helper()
	var out []wire.Frame
	err := fs.WalkDir(schemas.FS, name+"/examples", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(schemas.FS, p)
		if err != nil {
			return err
		}
		var ex struct {
			Valid   []json.RawMessage `json:"valid"`
			Invalid []struct {
				Message json.RawMessage `json:"message"`
			} `json:"invalid"`
		}
		if err := json.Unmarshal(raw, &ex); err != nil {
			return err
		}
		dir := wire.ClientToServer
		if strings.Contains(p, "/s2c/") {
			dir = wire.ServerToClient
		}
		for _, v := range ex.Valid {
			out = append(out, wire.Frame{Dir: dir, Op: wire.OpText, Payload: v})
		}
		for _, v := range ex.Invalid {
			out = append(out, wire.Frame{Dir: dir, Op: wire.OpText, Payload: v.Message})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return append(out, wire.Frame{Dir: wire.ServerToClient, Op: wire.OpBinary, Payload: []byte{1, 2}},
		wire.Frame{Dir: wire.ClientToServer, Op: wire.OpText, Payload: []byte(`{"a":1,"a":2}`)},
		wire.Frame{Dir: wire.ClientToServer, Op: wire.OpText, Payload: []byte("not json \xff")},
		wire.Frame{Dir: wire.ServerToClient, Op: wire.OpClose})
}

// TestObserveJudgedIsObserve: a frame prejudged on another goroutine, and
// located (connection, index) only afterwards, gets exactly the findings
// Observe gives it; a Judged made under other limits is not used.
func TestObserveJudgedIsObserve(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		d := dialect.MustGet(name)
		frames := exampleFrames(t, name)
		plain, pre := NewSession(d, Options{}), NewSession(d, Options{})
		for round, conn := range []string{"a", "b"} {
			judged := make([]*Judged, len(frames))
			done := make(chan struct{})
			go func() {
				defer close(done)
				for i, f := range frames {
					lim := Limits{}
					if i%7 == 3 {
						lim.MaxFrameBytes = 10 // another session's limits
					}
					judged[i] = Prejudge(d, f, lim)
				}
			}()
			<-done
			for i, f := range frames {
				f.Conn, f.Index = conn, int64(round*len(frames)+i+1)
				want := plain.Observe(f)
				if got := pre.ObserveJudged(f, judged[i]); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s frame %d (%s): ObserveJudged\n%+v\nObserve\n%+v", name, i, f.Payload, got, want)
				}
			}
		}
	}
}
