package replay

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/recording"
)

// TestReplayHAR: a recording exported as a HAR (wsconform export --har)
// replays against a fresh reference server as the recording does: no
// diff, and each connection ends as recorded (the client's close is
// closed, not cut), since the reader takes the ending from the entry's
// _wsconform. A HAR that says nothing of its endings (a browser's) ends
// each connection with a normal close.
func TestReplayHAR(t *testing.T) {
	t.Parallel()
	rec := record(t, "minicodex", "@id:minicodex.send.turn")
	var har bytes.Buffer
	if err := recording.WriteHAR(&har, bytes.NewReader(rec), recording.HAROptions{}); err != nil {
		t.Fatal(err)
	}
	bare := stripWsconform(t, har.Bytes())
	for name, file := range map[string][]byte{"exported": har.Bytes(), "bare": bare} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := startReference(t, "minicodex")
			res := replayAgainst(t, file, srv.URL, Options{})
			if res.Differs() > 0 || len(errorFindings(res)) > 0 {
				t.Fatalf("replay of the HAR differs:\n%s", describe(res))
			}
			for _, s := range res.Sessions {
				for _, c := range s.Conns {
					if c.CloseCode == 1006 {
						t.Errorf("%s ended by a cut (1006 %s), want a close", c.ID, c.CloseBy)
					}
				}
			}
		})
	}
}

// stripWsconform removes every _wsconform member of a HAR, as a browser
// would write it.
func stripWsconform(t *testing.T, har []byte) []byte {
	t.Helper()
	doc, err := Decode(har)
	if err != nil {
		t.Fatal(err)
	}
	var strip func(v any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if strings.HasPrefix(k, "_wsconform") && k != "_wsconformBase64" {
					delete(x, k)
					continue
				}
				strip(e)
			}
		case []any:
			for _, e := range x {
				strip(e)
			}
		}
	}
	strip(doc)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
