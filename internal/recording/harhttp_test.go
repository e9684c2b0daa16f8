package recording

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestHARHTTPRoundTrip: a recording's http lines export as HAR entries
// DevTools shows (method, URL on the sockets' origin, postData, content)
// and read back as the same exchanges, in the same place among the frames.
func TestHARHTTPRoundTrip(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../cmd/wsconform/testdata/hostd-duplicate-input.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var har bytes.Buffer
	st, err := ExportHAR(&har, bytes.NewReader(raw), HAROptions{Creator: "wsconform test"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries != 4 { // the host's socket and three exchanges
		t.Errorf("%d entries, want 4", st.Entries)
	}
	for _, want := range []string{`"method":"POST","url":"http://127.0.0.1:`, `"postData":{"mimeType":"application/json","text":"{\"input_id\"`,
		`"status":202,"statusText":"Accepted"`, `{"name":"Authorization","value":"Bearer (not recorded)"}`, `"_resourceType":"fetch"`} {
		if !strings.Contains(har.String(), want) {
			t.Errorf("HAR lacks %s", want)
		}
	}
	type item struct {
		kind, conn string
		index      int64
	}
	read := func(src []byte) []item {
		var out []item
		var prev Line
		_, problems, err := Scan(bytes.NewReader(src), func(l Line) error {
			switch l.Kind {
			case KindHTTP:
				out = append(out, item{l.Kind, l.Method + " " + l.Path, l.Index})
				if x, err := l.Exchange(); err != nil || (prev.Kind == KindHTTP && x.ID == prev.Conn) {
					t.Errorf("exchange %+v: %v", x, err)
				}
			case KindFrame:
				if l.Opcode == 1 {
					out = append(out, item{l.Kind, string(l.Dir), l.Index})
				}
			}
			prev = l
			return nil
		})
		if err != nil || len(problems) > 0 {
			t.Fatalf("scan: %v %v", err, problems)
		}
		return out
	}
	want, got := read(raw), read(har.Bytes())
	if len(want) != len(got) {
		t.Fatalf("HAR reads back %d lines, the recording has %d:\n%v\n%v", len(got), len(want), got, want)
	}
	for i := range want {
		if want[i].kind != got[i].kind || want[i].conn != got[i].conn {
			t.Errorf("line %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// TestHARHTTPFromBrowser: in a browser's HAR, entries with a body (POST)
// become http lines with the Authorization scheme only; GETs and their
// bodies are never held.
func TestHARHTTPFromBrowser(t *testing.T) {
	t.Parallel()
	har := `{"log":{"entries":[
{"startedDateTime":"2026-11-27T10:00:00.000Z","time":12.5,"request":{"method":"GET","url":"http://h/app.js","headers":[]},"response":{"status":200,"content":{"text":"` + strings.Repeat("x", 1000) + `"}}},
{"startedDateTime":"2026-11-27T10:00:01.000Z","time":3,"request":{"method":"POST","url":"http://h/runs/r1/input?x=1","headers":[{"name":"authorization","value":"Bearer eyJhbGciOi.secret.sig"}],"postData":{"mimeType":"application/json","text":"{\"input_id\":\"a\",\"text\":\"y\\n\"}"}},"response":{"status":202,"content":{"size":2,"mimeType":"application/json","text":"{}"}}},
{"startedDateTime":"2026-11-27T10:00:00.500Z","time":1,"request":{"url":"ws://h/ws/app"},"_webSocketMessages":[{"type":"receive","time":1795773600.7,"opcode":1,"data":"{}"},{"type":"receive","time":1795773601.5,"opcode":1,"data":"{}"}]}
]}}`
	var lines []Line
	_, problems, err := Scan(strings.NewReader(har), func(l Line) error {
		lines = append(lines, l)
		return nil
	})
	if err != nil || len(problems) > 0 {
		t.Fatalf("scan: %v %v", err, problems)
	}
	var kinds []string
	for _, l := range lines {
		kinds = append(kinds, l.Kind)
	}
	if strings.Join(kinds, " ") != "open frame http frame close" {
		t.Fatalf("lines %v", kinds)
	}
	x, err := lines[2].Exchange()
	if err != nil || x.Method != "POST" || x.Path != "/runs/r1/input" || x.Auth != "bearer" || x.Status != 202 ||
		string(x.Request) != `{"input_id":"a","text":"y\n"}` || string(x.Response) != "{}" || x.Index != 2 || x.ID != "h2" {
		t.Errorf("exchange %+v %v", x, err)
	}
	if strings.Contains(string(lines[2].Auth), "eyJ") {
		t.Error("the token was kept")
	}
}
