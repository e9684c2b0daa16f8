package recording

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
)

// TestHTTPLineRoundTrip: an http line reads back as the exchange written,
// bodies that are not UTF-8 included, and the header names version 2 only
// when the writer was told it may write one.
func TestHTTPLineRoundTrip(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	x := wire.Exchange{ID: "h1", Index: 7, Time: at, Duration: 1500 * time.Microsecond, Endpoint: "input",
		Method: "POST", Path: "/runs/r1/input", Status: 202, Auth: "bearer",
		Request: []byte(`{"input_id":"u1","text":"hi\n"}`), Response: []byte{0xff, 0xfe}, ResponseCut: true}
	for _, withHTTP := range []bool{false, true} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, Header{Dialect: "hostd", Started: at, HTTP: withHTTP})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.HTTP("hostd", x); err != nil {
			t.Fatal(err)
		}
		want := `"version":1,`
		if withHTTP {
			want = `"version":2,`
		}
		if !strings.Contains(buf.String(), want) {
			t.Errorf("HTTP=%v: header lacks %s:\n%s", withHTTP, want, buf.String())
		}
		r := NewReader(&buf)
		var got []Line
		for {
			l, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, l)
		}
		if len(r.Problems()) > 0 || len(got) != 2 || got[1].Kind != KindHTTP || got[1].Session != "hostd" {
			t.Fatalf("read back %+v, problems %v", got, r.Problems())
		}
		back, err := got[1].Exchange()
		if err != nil {
			t.Fatal(err)
		}
		if back.ID != x.ID || back.Index != x.Index || !back.Time.Equal(at) || back.Duration != x.Duration || back.Endpoint != x.Endpoint ||
			back.Method != x.Method || back.Path != x.Path || back.Status != x.Status || back.Auth != x.Auth ||
			!bytes.Equal(back.Request, x.Request) || !bytes.Equal(back.Response, x.Response) || !back.ResponseCut || back.RequestCut {
			t.Errorf("round trip:\n got %+v\nwant %+v", back, x)
		}
	}
}

// TestHTTPLineRedacted: the password of a login and the token of its
// answer never reach the file; the exchange handed in is not changed.
func TestHTTPLineRedacted(t *testing.T) {
	t.Parallel()
	req := []byte(`{"username":"demo","password":"hunter2-secret"}`)
	resp := []byte(`{"access_token":"tok_4f9a8b7c6d5e","token_type":"Bearer"}`)
	x := wire.Exchange{ID: "h1", Index: 1, Endpoint: "login", Method: "POST", Path: "/auth/login", Status: 200, Request: req, Response: resp}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{HTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.HTTP("", x); err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"hunter2-secret", "tok_4f9a8b7c6d5e"} {
		if strings.Contains(buf.String(), secret) {
			t.Errorf("recording holds %q:\n%s", secret, buf.String())
		}
	}
	if !strings.Contains(buf.String(), `\"username\":\"demo\"`) {
		t.Errorf("redaction took more than the credentials:\n%s", buf.String())
	}
	if string(x.Request) != `{"username":"demo","password":"hunter2-secret"}` {
		t.Error("the caller's request body was changed")
	}
	var kept bytes.Buffer
	w, _ = NewWriter(&kept, Header{HTTP: true, KeepSecrets: true})
	_ = w.HTTP("", x)
	if !strings.Contains(kept.String(), "hunter2-secret") {
		t.Error("KeepSecrets redacted the body")
	}
}

// TestHTTPLineVersions: version 1 and 2 headers are read, a later one is a
// problem naming both; a malformed http line is a problem, not a crash.
func TestHTTPLineVersions(t *testing.T) {
	t.Parallel()
	lines := []string{
		`{"kind":"header","format":"wsconform-recording","version":1,"time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"header","format":"wsconform-recording","version":2,"time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"header","format":"wsconform-recording","version":3,"time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"http","conn":"h1","method":"POST","path":"/auth/login","status":200,"time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"http","conn":"h2","path":"/auth/login","time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"http","conn":"h3","method":"POST","path":"/x","status":20,"time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"http","method":"POST","path":"/x","time":"2026-11-27T10:00:00Z"}`,
		`{"kind":"http","conn":"h4","method":"POST","path":"/x","request":"a","request_base64":"YQ==","time":"2026-11-27T10:00:00Z"}`,
	}
	wantOK := []bool{true, false, false, true, false, false, false, false} // the second header is "a second header line"
	for i, l := range lines {
		_, err := parseLine([]byte(l))
		if i == 1 {
			if err != nil {
				t.Errorf("version 2 header: %v", err)
			}
			continue
		}
		if (err == nil) != wantOK[i] {
			t.Errorf("line %d: err %v, want ok=%v", i, err, wantOK[i])
		}
		if i == 2 && (err == nil || !strings.Contains(err.Error(), "reads 1 to 2")) {
			t.Errorf("version 3: %v", err)
		}
	}
	var l Line
	_ = json.Unmarshal([]byte(lines[3]), &l)
	if x, err := l.Exchange(); err != nil || x.Request != nil || x.Status != 200 {
		t.Errorf("exchange without bodies: %+v %v", x, err)
	}
}
