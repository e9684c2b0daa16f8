package check

import (
	"reflect"
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
	exs, err := schemas.Examples(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []wire.Frame
	for _, ex := range exs {
		dir := wire.ClientToServer // an HTTP body too: as a client's frame
		if ex.Dir == "s2c" {
			dir = wire.ServerToClient
		}
		out = append(out, wire.Frame{Dir: dir, Op: wire.OpText, Payload: ex.Message})
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
