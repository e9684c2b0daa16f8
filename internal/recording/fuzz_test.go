package recording

import (
	"bytes"
	"os"
	"testing"
)

// FuzzScan feeds arbitrary bytes to the recording and HAR readers: they
// must report problems, never panic or hang.
func FuzzScan(f *testing.F) {
	f.Add([]byte(`{"kind":"header","format":"wsconform-recording","version":1}` + "\n" +
		`{"kind":"frame","conn":"c1","dir":"c2s","index":1,"opcode":1,"text":"{}"}`))
	f.Add([]byte(`{"kind":"frame","conn":"c1","dir":"s2c","opcode":2,"base64":"AAE="}`))
	f.Add([]byte(`{"log":{"entries":[{"request":{"url":"ws://x"},"_webSocketMessages":[{"type":"send","time":1.5,"opcode":1,"data":"{}"}]}]}}`))
	f.Add([]byte("\n\n{\"kind\":\n"))
	f.Add([]byte(`{"kind":"header","format":"wsconform-recording","version":2}` + "\n" +
		`{"kind":"http","conn":"h1","session":"hostd","index":1,"method":"POST","path":"/auth/login","status":200,"request":"{}","response_base64":"AAE="}`))
	f.Add([]byte(`{"kind":"dialect","dialect":"minicodex","reason":"x"}` + "\n" +
		`{"kind":"open","conn":"c1","pending":true}` + "\n" + `{"kind":"session","conn":"c1","session":"s"}`))
	if har, err := os.ReadFile("testdata/chrome.har"); err == nil {
		f.Add(har)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = Scan(bytes.NewReader(data), func(l Line) error {
			if l.Kind == KindFrame {
				_, _ = l.Frame()
			}
			if l.Kind == KindHTTP {
				_, _ = l.Exchange()
			}
			return nil
		})
	})
}
