package recording

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// harRec is a small recording with what a HAR has no member for: a binary
// frame, a text frame that is not UTF-8, close and ping frames, a pending
// connection, an unjudged one and a connection dropped without a close.
const harRec = `{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex","tool":"wsconform 0.1.0","time":"2026-11-21T10:00:00Z"}
{"kind":"open","conn":"c1","session":"s1","url":"http://127.0.0.1:7337/ws?token=REDACTED&x=a%20b","time":"2026-11-21T10:00:00Z"}
{"kind":"frame","conn":"c1","session":"s1","dir":"c2s","index":1,"time":"2026-11-21T10:00:01.000000001Z","opcode":1,"text":"{\"type\":\"hello\",\"v\":\"1.0.0\",\"note\":\"<b>&\"}"}
{"kind":"frame","conn":"c1","session":"s1","dir":"s2c","index":2,"time":"2026-11-21T10:00:01.5Z","opcode":2,"base64":"AAEC/w=="}
{"kind":"frame","conn":"c1","session":"s1","dir":"s2c","index":3,"time":"2026-11-21T10:00:01.6Z","opcode":1,"base64":"eyJ0eXBlIjoi/yJ9"}
{"kind":"frame","conn":"c1","session":"s1","dir":"c2s","index":4,"time":"2026-11-21T10:00:01.7Z","opcode":9,"text":""}
{"kind":"open","conn":"c2","pending":true,"url":"ws://127.0.0.1:7337/ws","time":"2026-11-21T10:00:02Z"}
{"kind":"frame","conn":"c2","dir":"c2s","index":5,"time":"2026-11-21T10:00:02.1Z","opcode":1,"text":"{\"type\":\"resume\"}"}
{"kind":"session","conn":"c2","session":"s1","parent":"c1","time":"2026-11-21T10:00:02.1Z"}
{"kind":"frame","conn":"c1","session":"s1","dir":"c2s","index":6,"time":"2026-11-21T10:00:02.2Z","opcode":8,"code":1000,"base64":"A+hieWU="}
{"kind":"close","conn":"c1","session":"s1","time":"2026-11-21T10:00:02.3Z","code":1000,"reason":"bye","by":"client"}
{"kind":"open","conn":"c3","pending":true,"url":"ws://127.0.0.1:7337/notify","time":"2026-11-21T10:00:03Z"}
{"kind":"frame","conn":"c3","dir":"s2c","index":7,"time":"2026-11-21T10:00:03.1Z","opcode":1,"text":"{\"kind\":\"notify\"}"}
{"kind":"session","conn":"c3","session":"c3","unjudged":"not minicodex messages","time":"2026-11-21T10:00:03.1Z"}
{"kind":"close","conn":"c2","session":"s1","time":"2026-11-21T10:00:04Z","code":1006,"reason":"connection reset","by":"network"}
`

// exportedHAR is what a HAR reader (Chrome's importer) looks at.
type exportedHAR struct {
	Log struct {
		Version string `json:"version"`
		Creator struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"creator"`
		Pages   []any `json:"pages"`
		Private struct {
			Dialect string `json:"dialect"`
		} `json:"_wsconform"`
		Entries []struct {
			StartedDateTime string   `json:"startedDateTime"`
			Time            *float64 `json:"time"`
			Request         struct {
				Method      string `json:"method"`
				URL         string `json:"url"`
				HTTPVersion string `json:"httpVersion"`
				Headers     []any  `json:"headers"`
				QueryString []struct {
					Name, Value string
				} `json:"queryString"`
				Cookies     []any `json:"cookies"`
				HeadersSize *int  `json:"headersSize"`
				BodySize    *int  `json:"bodySize"`
			} `json:"request"`
			Response struct {
				Status     int    `json:"status"`
				StatusText string `json:"statusText"`
				Headers    []any  `json:"headers"`
				Content    *struct {
					Size     int     `json:"size"`
					MimeType *string `json:"mimeType"`
				} `json:"content"`
			} `json:"response"`
			Cache        map[string]any     `json:"cache"`
			Timings      map[string]float64 `json:"timings"`
			ResourceType string             `json:"_resourceType"`
			Private      harEntryPrivate    `json:"_wsconform"`
			Messages     []struct {
				Type   string  `json:"type"`
				Time   float64 `json:"time"`
				Opcode int     `json:"opcode"`
				Data   string  `json:"data"`
				Base64 string  `json:"_wsconformBase64"`
			} `json:"_webSocketMessages"`
		} `json:"entries"`
	} `json:"log"`
}

func exportString(t *testing.T, rec string, opts HAROptions) (exportedHAR, string) {
	t.Helper()
	var out bytes.Buffer
	if err := WriteHAR(&out, strings.NewReader(rec), opts); err != nil {
		t.Fatalf("WriteHAR: %v", err)
	}
	var d exportedHAR
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatalf("the HAR is not JSON: %v\n%s", err, out.String())
	}
	return d, out.String()
}

// TestWriteHARShape: the document has every member Chrome's HAR importer
// and HAR 1.2 require, with the values Chrome writes for a WebSocket.
func TestWriteHARShape(t *testing.T) {
	t.Parallel()
	d, raw := exportString(t, harRec, HAROptions{Creator: "wsconform 9.9.9"})
	l := d.Log
	if l.Version != "1.2" || l.Creator.Name != "wsconform" || l.Creator.Version != "9.9.9" || l.Pages == nil || l.Private.Dialect != "minicodex" {
		t.Errorf("log head: %+v", l)
	}
	if len(l.Entries) != 3 {
		t.Fatalf("want 3 entries, got %d", len(l.Entries))
	}
	for i, e := range l.Entries {
		switch {
		case e.Time == nil || e.StartedDateTime == "" || e.Cache == nil || len(e.Timings) != 7:
			t.Errorf("entry %d: time, startedDateTime, cache or timings missing: %+v", i, e)
		case e.Request.Method != "GET" || e.Request.HTTPVersion != "HTTP/1.1" || e.Request.Headers == nil || e.Request.Cookies == nil ||
			e.Request.QueryString == nil || e.Request.HeadersSize == nil || e.Request.BodySize == nil:
			t.Errorf("entry %d: request: %+v", i, e.Request)
		case e.Response.Status != 101 || e.Response.StatusText != "Switching Protocols" || e.Response.Headers == nil ||
			e.Response.Content == nil || e.Response.Content.MimeType == nil:
			t.Errorf("entry %d: response: %+v", i, e.Response)
		case e.ResourceType != "websocket" || e.Messages == nil:
			t.Errorf("entry %d: not a websocket entry with messages", i)
		}
		if _, err := time.Parse(time.RFC3339Nano, e.StartedDateTime); err != nil {
			t.Errorf("entry %d: startedDateTime: %v", i, err)
		}
	}
	e := l.Entries[0]
	if e.Request.URL != "ws://127.0.0.1:7337/ws?token=REDACTED&x=a%20b" {
		t.Errorf("url %q: want the ws:// URL, still redacted", e.Request.URL)
	}
	if q := e.Request.QueryString; len(q) != 2 || q[0].Name != "token" || q[0].Value != "REDACTED" || q[1].Value != "a b" {
		t.Errorf("queryString %+v", q)
	}
	if !strings.Contains(raw, `<b>&`) {
		t.Errorf("payloads are HTML-escaped: %s", raw)
	}
}

// TestWriteHARMessages: text, binary (base64, opcode 2, as Chrome) and
// non-UTF-8 text (U+FFFD in data, the bytes in _wsconformBase64) frames;
// control frames are not messages but kept in _wsconform; a connection
// dropped without a close frame ends with DevTools' error message.
func TestWriteHARMessages(t *testing.T) {
	t.Parallel()
	d, _ := exportString(t, harRec, HAROptions{})
	c1, c2, c3 := d.Log.Entries[0], d.Log.Entries[1], d.Log.Entries[2]
	if len(c1.Messages) != 3 {
		t.Fatalf("c1: want 3 messages (no ping, no close), got %+v", c1.Messages)
	}
	hello, bin, bad := c1.Messages[0], c1.Messages[1], c1.Messages[2]
	if hello.Type != "send" || hello.Opcode != 1 || hello.Time < 1795255201 || hello.Time > 1795255201.001 {
		t.Errorf("hello: %+v", hello)
	}
	if bin.Type != "receive" || bin.Opcode != 2 || bin.Data != "AAEC/w==" {
		t.Errorf("binary: %+v", bin)
	}
	raw, _ := base64.StdEncoding.DecodeString(bad.Base64)
	if bad.Opcode != 1 || !bytes.Equal(raw, []byte("{\"type\":\"\xff\"}")) || bad.Data != "{\"type\":\"\uFFFD\"}" {
		t.Errorf("invalid UTF-8 text: %+v", bad)
	}
	p := c1.Private
	if p.Conn != "c1" || p.Session != "s1" || p.Pings != 1 || len(p.CloseFrames) != 1 || p.CloseFrames[0].Code != 1000 ||
		p.CloseFrames[0].Reason != "bye" || p.Close == nil || p.Close.By != ByClient {
		t.Errorf("c1 private: %+v", p)
	}
	if last := c2.Messages[len(c2.Messages)-1]; last.Type != "error" || last.Data != "connection reset" || last.Opcode != -1 {
		t.Errorf("c2 ends with %+v, want an error message", last)
	}
	if c2.Private.Session != "s1" || c2.Private.Parent != "c1" {
		t.Errorf("c2 private: %+v", c2.Private)
	}
	if c3.Private.Unjudged == "" {
		t.Errorf("c3 is not marked unjudged: %+v", c3.Private)
	}
}

// TestWriteHARReadBack: the HAR reader reads the export back: the same
// data frames, payloads byte for byte (binary included), in the order of
// the recording, the client's close frame and ending, and the dropped
// connection closed by the network.
func TestWriteHARReadBack(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := WriteHAR(&out, strings.NewReader(harRec), HAROptions{}); err != nil {
		t.Fatal(err)
	}
	var got []string
	src, problems, err := Scan(bytes.NewReader(out.Bytes()), func(l Line) error {
		switch l.Kind {
		case KindFrame:
			f, err := l.Frame()
			if err != nil {
				return err
			}
			got = append(got, fmt.Sprintf("%s %s %d %q", l.Conn, f.Dir, f.Op, f.Payload))
		case KindClose:
			got = append(got, fmt.Sprintf("%s close %s", l.Conn, l.By))
		}
		return nil
	})
	if err != nil || src != SourceHAR || len(problems) > 0 {
		t.Fatalf("read back: %v %s %v", err, src, problems)
	}
	want := []string{
		`h1 c2s 1 "{\"type\":\"hello\",\"v\":\"1.0.0\",\"note\":\"<b>&\"}"`,
		`h1 s2c 2 "\x00\x01\x02\xff"`,
		`h1 s2c 1 "{\"type\":\"\xff\"}"`, // JSON strings hold no invalid UTF-8: the reader takes the bytes from _wsconformBase64
		`h1 c2s 8 "bye"`,                 // the client's close frame, kept in the entry's _wsconform
		`h1 close client`,                // and how the connection ended: as recorded, not a cut
		`h2 c2s 1 "{\"type\":\"resume\"}"`,
		`h3 s2c 1 "{\"kind\":\"notify\"}"`,
		`h3 close `,
		`h2 close network`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("read back:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWriteHAROrder: frames recorded out of time order, or at the same
// instant on two connections, read back in the recording's order.
func TestWriteHAROrder(t *testing.T) {
	t.Parallel()
	rec := `{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex","time":"2026-11-21T10:00:00Z"}
{"kind":"open","conn":"a","url":"ws://h/ws","time":"2026-11-21T10:00:00Z"}
{"kind":"open","conn":"b","url":"ws://h/ws","time":"2026-11-21T10:00:00Z"}
{"kind":"frame","conn":"b","dir":"s2c","time":"2026-11-21T10:00:01Z","opcode":1,"text":"1"}
{"kind":"frame","conn":"a","dir":"s2c","time":"2026-11-21T10:00:01Z","opcode":1,"text":"2"}
{"kind":"frame","conn":"b","dir":"s2c","time":"2026-11-21T10:00:00.5Z","opcode":1,"text":"3"}
{"kind":"frame","conn":"a","dir":"s2c","time":"0001-01-01T00:00:00Z","opcode":1,"text":"4"}
{"kind":"frame","conn":"b","dir":"s2c","time":"2026-11-21T10:00:02Z","opcode":1,"text":"5"}
`
	var out bytes.Buffer
	if err := WriteHAR(&out, strings.NewReader(rec), HAROptions{}); err != nil {
		t.Fatal(err)
	}
	var got string
	if _, problems, err := Scan(bytes.NewReader(out.Bytes()), func(l Line) error {
		if l.Kind == KindFrame {
			got += *l.Text
		}
		return nil
	}); err != nil || len(problems) > 0 {
		t.Fatalf("read back: %v %v", err, problems)
	}
	if got != "12345" {
		t.Errorf("read back in the order %s, want 12345", got)
	}
}

// TestWriteHARSession: Session exports one logical session (a pending
// connection belongs to the one its session line names); OmitUnjudged
// leaves out the connection that was not judged.
func TestWriteHARSession(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts HAROptions
		want []string
	}{
		{"all", HAROptions{}, []string{"c1", "c2", "c3"}},
		{"session s1", HAROptions{Session: "s1"}, []string{"c1", "c2"}},
		{"unjudged session", HAROptions{Session: "c3"}, []string{"c3"}},
		{"omit unjudged", HAROptions{OmitUnjudged: true}, []string{"c1", "c2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, _ := exportString(t, harRec, tc.opts)
			var got []string
			for _, e := range d.Log.Entries {
				got = append(got, e.Private.Conn)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("entries %v, want %v", got, tc.want)
			}
		})
	}
}

// TestWriteHARNothing: an empty, garbage, connection-less recording, or a
// session not in it, is ErrNothingToExport with the reason, and nothing
// is written.
func TestWriteHARNothing(t *testing.T) {
	t.Parallel()
	header := `{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex","time":"2026-11-21T10:00:00Z"}` + "\n"
	for _, tc := range []struct {
		name, rec string
		opts      HAROptions
		want      string
	}{
		{"empty", "", HAROptions{}, "the recording is empty"},
		{"blank lines", "\n\n  \n", HAROptions{}, "the recording is empty"},
		{"garbage", "this is\nnot a recording\n", HAROptions{}, "no line could be read (2 unreadable; the first, line 1"},
		{"binary garbage", "\x00\xff\xfe{{{", HAROptions{}, "no line could be read"},
		{"header only", header, HAROptions{}, "holds no connection (1 lines)"},
		{"other session", harRec, HAROptions{Session: "nope"}, `no connection of session "nope"`},
		{"empty HAR", `{"log":{"entries":[]}}`, HAROptions{}, "the HAR file has no WebSocket messages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := WriteHAR(&out, strings.NewReader(tc.rec), tc.opts)
			if !errors.Is(err, ErrNothingToExport) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrNothingToExport saying %q", err, tc.want)
			}
			if out.Len() > 0 {
				t.Errorf("wrote %d bytes", out.Len())
			}
		})
	}
}

// TestWriteHARProblems: unreadable lines are skipped and told to
// OnProblem; the rest is exported.
func TestWriteHARProblems(t *testing.T) {
	t.Parallel()
	var told []string
	var out bytes.Buffer
	st, err := ExportHAR(&out, strings.NewReader("garbage\n"+harRec), HAROptions{OnProblem: func(p Problem) { told = append(told, p.String()) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 || !strings.HasPrefix(told[0], "line 1: ") || st.Problems != 1 {
		t.Errorf("problems told: %v, counted %d", told, st.Problems)
	}
	if st.Entries != 3 || st.Messages != 6 || st.Control != 2 || st.Unjudged != 1 || st.Omitted != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestWriteHARSpool: with a tiny memory bound the messages go through the
// spool file, and the document is the same as when held in memory; the
// spool file is removed.
func TestWriteHARSpool(t *testing.T) {
	t.Parallel()
	rec := bigRecording(500, 7)
	var mem, spooled bytes.Buffer
	if err := WriteHAR(&mem, strings.NewReader(rec), HAROptions{}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteHAR(&spooled, strings.NewReader(rec), HAROptions{MemoryBytes: 1000, TempDir: dir}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mem.Bytes(), spooled.Bytes()) {
		t.Errorf("spooled export differs from the one held in memory")
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("spool left behind: %v", left)
	}
	if err := WriteHAR(io.Discard, strings.NewReader(rec), HAROptions{MemoryBytes: 1, TempDir: filepath.Join(dir, "missing")}); err == nil {
		t.Errorf("a spool that cannot be created is no error")
	}
}

// bigRecording is a recording of frames frames interleaved over conns
// connections.
func bigRecording(frames, conns int) string {
	var b strings.Builder
	b.WriteString(`{"kind":"header","format":"wsconform-recording","version":1,"dialect":"minicodex","time":"2026-11-21T10:00:00Z"}` + "\n")
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	for c := range conns {
		fmt.Fprintf(&b, `{"kind":"open","conn":"c%d","session":"s%d","url":"ws://127.0.0.1:7337/ws","time":%q}`+"\n", c, c, t0.Format(time.RFC3339Nano))
	}
	for i := range frames {
		c, dir := i%conns, wire.ServerToClient
		if i%5 == 0 {
			dir = wire.ClientToServer
		}
		ts := t0.Add(time.Duration(i) * time.Millisecond).Format(time.RFC3339Nano)
		fmt.Fprintf(&b, `{"kind":"frame","conn":"c%d","session":"s%d","dir":%q,"index":%d,"time":%q,"opcode":1,"text":"{\"type\":\"assistant_delta\",\"event_id\":%d,\"text\":\"some streamed words of a reply\"}"}`+"\n",
			c, c, dir, i+1, ts, i+1)
	}
	for c := range conns {
		fmt.Fprintf(&b, `{"kind":"close","conn":"c%d","session":"s%d","code":1000,"by":"client","time":%q}`+"\n", c, c, t0.Add(time.Hour).Format(time.RFC3339Nano))
	}
	return b.String()
}

// BenchmarkWriteHAR exports a recording of 100,000 frames over 20
// connections (about 24 MB), from a file as the command does, with the
// default memory bound (so it spools).
func BenchmarkWriteHAR(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, []byte(bigRecording(100_000, 20)), 0o644); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		err = WriteHAR(io.Discard, f, HAROptions{TempDir: b.TempDir()})
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}
