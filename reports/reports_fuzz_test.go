package reports_test

import (
	"bytes"
	"testing"

	"github.com/wsconform/wsconform/reports"
)

// FuzzReadJSON: any bytes give a report or an error, never a panic, and a
// report read back writes again.
func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(`{"format":"wsconform-report","version":1,"kind":"run","shard":"1/2","scenarios":[{"id":"a","verdict":"passed"}]}`))
	f.Add([]byte(`{"format":"wsconform-report","version":99}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"format":"wsconform-report","counts":{"passed":-1},"scenarios":[{"findings":[{"severity":"bogus"}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := reports.ReadJSON(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := reports.WriteJSON(&out, r); err != nil {
			t.Fatalf("a report read back does not write: %v", err)
		}
	})
}
