package recording

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzWriteHAR: whatever the input, WriteHAR never panics; it exports a
// HAR that is JSON and that the HAR reader reads without a problem, or it
// says why it cannot and writes nothing.
func FuzzWriteHAR(f *testing.F) {
	f.Add([]byte(harRec))
	f.Add([]byte(""))
	f.Add([]byte("garbage\n{"))
	f.Add([]byte(`{"log":{"entries":[{"request":{"url":"ws://h"},"_webSocketMessages":[{"type":"send","time":1,"opcode":1,"data":"x"}]}]}}`))
	f.Add([]byte(`{"kind":"frame","conn":"c","dir":"c2s","time":"9999-12-31T23:59:59Z","opcode":2,"base64":"/w=="}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		err := WriteHAR(&out, bytes.NewReader(in), HAROptions{MemoryBytes: 256, TempDir: t.TempDir()})
		if err != nil {
			if out.Len() > 0 {
				t.Fatalf("error %v after writing %d bytes", err, out.Len())
			}
			if !errors.Is(err, ErrNothingToExport) && !strings.Contains(err.Error(), "read recording") {
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}
		if !json.Valid(out.Bytes()) {
			t.Fatalf("the HAR is not JSON:\n%s", out.String())
		}
		_, problems, err := Scan(bytes.NewReader(out.Bytes()), func(Line) error { return nil })
		if err != nil || len(problems) > 0 {
			t.Fatalf("the HAR reader reads the export with %v %v:\n%s", err, problems, out.String())
		}
	})
}
