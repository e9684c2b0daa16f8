package recording

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scanFile scans a file written to a temporary directory (a HAR is read
// from a file, twice) and renders what it gave, lines and problems in
// order, one word each.
func scanFile(t *testing.T, name, content string) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []string
	_, err = ScanEach(f, func(l Line) error {
		w := l.Kind + ":" + l.Conn
		if l.Kind == KindFrame {
			fr, ferr := l.Frame()
			if ferr != nil {
				t.Fatalf("a line handed on does not read: %v", ferr)
			}
			w += fmt.Sprintf("#%d=%s", fr.Index, fr.Payload)
		}
		if l.Kind == KindClose && l.By != "" {
			w += "/" + l.By
		}
		got = append(got, w)
		return nil
	}, func(p Problem) { got = append(got, "!"+p.Where()) })
	return strings.Join(got, " "), err
}

func harMsg(typ string, secs float64, opcode int, data string) string {
	return fmt.Sprintf(`{"type":%q,"time":%.3f,"opcode":%d,"data":%q}`, typ, secs, opcode, data)
}

func harEntry(url string, msgs ...string) string {
	return `{"startedDateTime":"2026-11-21T10:00:00Z","request":{"url":"` + url + `","headers":[]},` +
		`"response":{"content":{"text":"` + strings.Repeat("z", 100) + `"}},"_webSocketMessages":[` + strings.Join(msgs, ",") + `]}`
}

func harDoc(entries ...string) string {
	return `{"log":{"version":"1.2","creator":{"name":"WebInspector"},"entries":[` + strings.Join(entries, ",") + `]}}`
}

// TestHARStreamed: what the streaming reader makes of HAR files, good and
// bad. Every part it cannot read is a problem in its place, with its
// entry and message, and nothing around it is lost.
func TestHARStreamed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, har, want string
	}{
		{"one connection", harDoc(harEntry("ws://h/ws", harMsg("send", 10, 1, "a"), harMsg("receive", 11, 1, "b"))),
			"open:h1 frame:h1#1=a frame:h1#2=b close:h1"},
		{"entries out of time order are merged by time", harDoc(
			harEntry("ws://h/ws", harMsg("send", 20, 1, "c"), harMsg("receive", 22, 1, "e")),
			harEntry("ws://h/ws", harMsg("send", 10, 1, "a"), harMsg("receive", 21, 1, "d"), harMsg("receive", 30, 1, "f"))),
			"open:h2 frame:h2#1=a open:h1 frame:h1#2=c frame:h2#3=d frame:h1#4=e close:h1 frame:h2#5=f close:h2"},
		{"bad base64 is a problem, the rest is read", harDoc(harEntry("ws://h/ws",
			harMsg("send", 10, 1, "a"), harMsg("receive", 11, 2, "!!not base64"), harMsg("receive", 12, 1, "c"))),
			"open:h1 frame:h1#1=a !HAR entry 1, message 2 frame:h1#2=c close:h1"},
		{"missing fields", harDoc(harEntry("ws://h/ws", `{"type":"send","time":10,"opcode":1}`, `{"time":11,"opcode":1,"data":"x"}`,
			`{"type":"send","opcode":1,"data":"x"}`, `{"type":"send","time":12,"data":"x"}`, `7`, harMsg("send", 13, 1, "ok"))),
			"open:h1 !HAR entry 1, message 1 !HAR entry 1, message 2 !HAR entry 1, message 3 !HAR entry 1, message 4 !HAR entry 1, message 5 frame:h1#1=ok close:h1"},
		{"a DevTools error message closes the connection", harDoc(harEntry("ws://h/ws",
			harMsg("send", 10, 1, "a"), `{"type":"error","time":11,"opcode":-1,"data":"net::ERR_CONNECTION_RESET"}`)),
			"open:h1 frame:h1#1=a close:h1/network"},
		{"messages before the request", harDoc(`{"_webSocketMessages":[` + harMsg("send", 10, 1, "a") + `],"request":{"url":"ws://h/ws"}}`),
			"open:h1 frame:h1#1=a close:h1"},
		{"entries without messages are skipped", harDoc(`{"request":{"url":"https://h/"},"response":{"content":{"text":"<html>"}}}`,
			harEntry("ws://h/ws", harMsg("send", 10, 1, "a"))),
			"open:h2 frame:h2#1=a close:h2"},
		{"torn inside a message: the whole messages before it are read", harDoc(harEntry("ws://h/ws",
			harMsg("send", 10, 1, "a"), harMsg("receive", 11, 1, "b")))[:len(harDoc(harEntry("ws://h/ws", harMsg("send", 10, 1, "a"), harMsg("receive", 11, 1, "b"))))-20],
			"!HAR entry 1 open:h1 frame:h1#1=a close:h1"},
		{"torn after the entries", `{"log":{"entries":[` + harEntry("ws://h/ws", harMsg("send", 10, 1, "a")) + `]`,
			"!the HAR file open:h1 frame:h1#1=a close:h1"},
		{"no entries", `{"log":{"version":"1.2"}}`, ""},
		{"not a HAR after all", `{"log":7}`, "!the HAR file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := scanFile(t, "x.har", tt.har)
			if err != nil || got != tt.want {
				t.Errorf("got  %q (%v)\nwant %q", got, err, tt.want)
			}
		})
	}
}

// TestHARFromAPipe: a HAR that is not a file is read into memory and gives
// the same lines.
func TestHARFromAPipe(t *testing.T) {
	t.Parallel()
	doc := harDoc(harEntry("ws://h/ws", harMsg("send", 10, 1, "a"), harMsg("receive", 9, 1, "b")))
	var n int
	_, problems, err := Scan(struct{ *strings.Reader }{strings.NewReader(doc)}, func(l Line) error { n++; return nil })
	if err != nil || n != 4 || len(problems) != 0 {
		t.Fatalf("%d lines, %v, %v", n, problems, err)
	}
}

// TestJSONLProblems: every line that cannot be read is a problem with its
// line number, in its place among the lines, and reading goes on after it.
func TestJSONLProblems(t *testing.T) {
	t.Parallel()
	header := `{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex"}`
	frame := `{"kind":"frame","conn":"c1","session":"s","dir":"s2c","opcode":1,"text":"{}"}`
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"clean", header + "\n" + frame + "\n", "header: frame:c1#0={}"},
		{"over the size limit", header + "\n" + `{"kind":"frame","conn":"c1","dir":"s2c","opcode":1,"text":"` +
			strings.Repeat("a", MaxLineBytes) + `"}` + "\n" + frame + "\n", "header: !line 2 frame:c1#0={}"},
		{"bad base64", header + "\n" + `{"kind":"frame","conn":"c1","dir":"s2c","opcode":2,"base64":"!!"}` + "\n" + frame, "header: !line 2 frame:c1#0={}"},
		{"torn line", header + "\n" + `{"kind":"frame","conn":"c1","di` + "\n" + frame + "\n" + `{"kind":"fr`, "header: !line 2 frame:c1#0={} !line 4"},
		{"missing fields", header + "\n" + `{"kind":"frame","dir":"s2c","opcode":1,"text":"{}"}` + "\n" +
			`{"kind":"frame","conn":"c1","opcode":1,"text":"{}"}` + "\n" + `{"conn":"c1"}` + "\n" + frame, "header: !line 2 !line 3 !line 4 frame:c1#0={}"},
		{"not JSON", "hello\n" + frame, "!line 1 frame:c1#0={}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := scanFile(t, "x.jsonl", tt.in)
			if err != nil || got != tt.want {
				t.Errorf("got  %q (%v)\nwant %q", got, err, tt.want)
			}
		})
	}
}

// FuzzHAR feeds arbitrary HAR-looking documents to the streaming reader:
// it reports problems, never panics or loops, and every line it hands on
// reads as a frame when it is one.
func FuzzHAR(f *testing.F) {
	f.Add([]byte(harDoc(harEntry("ws://h/ws", harMsg("send", 10, 1, "a"), harMsg("receive", 11, 2, "AAE=")))))
	f.Add([]byte(harDoc(harEntry("ws://h/ws", harMsg("send", 20, 1, "c")), harEntry("ws://h/ws", harMsg("send", 10, 1, "a")))))
	f.Add([]byte(`{"log":{"entries":[{"_webSocketMessages":[{"type":"error","time":1,"data":"x"},7,null]}]}}`))
	f.Add([]byte(`{"log":{"entries":[{"_webSocketMessages" : [ {"time":"x"}`))
	f.Add([]byte(`{"log":{"entries":[{"_webSocketMessages":{}}]}}`))
	f.Add([]byte(`{"log":{"entries":[{"startedDateTime":"2026-11-27T10:00:00.000Z","time":3,"request":{"method":"POST","url":"http://h/runs/r/input",` +
		`"headers":[{"name":"Authorization","value":"Bearer x"}],"postData":{"text":"{}","_encoding":"base64"}},"response":{"status":-1,"content":{"text":"AA==","encoding":"base64"}},` +
		`"_wsconform":{"at":5,"endpoint":"input"}}]}}`))
	if har, err := os.ReadFile("testdata/chrome.har"); err == nil {
		f.Add(har)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !isHAR(bufioPeek(data)) {
			data = append([]byte(`{"log":`), data...)
		}
		var lines int
		_, err := ScanEach(bytes.NewReader(data), func(l Line) error {
			lines++
			if l.Kind == KindFrame {
				if _, err := l.Frame(); err != nil {
					t.Fatalf("a frame line handed on does not read: %v", err)
				}
			}
			if l.Kind == KindHTTP {
				if _, err := l.Exchange(); err != nil {
					t.Fatalf("an http line handed on does not read: %v", err)
				}
			}
			return nil
		}, func(Problem) {})
		if err != nil {
			t.Fatalf("a HAR read from memory failed: %v", err)
		}
		if lines > 3*len(data) {
			t.Fatalf("%d lines from %d bytes", lines, len(data))
		}
	})
}

func bufioPeek(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }
