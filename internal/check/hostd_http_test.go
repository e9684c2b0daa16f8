package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
)

// hx is an HTTP exchange of a hostd test: POST path with auth and body,
// answered status with resp.
type hx struct {
	path, auth, body string
	status           int
	resp             string
}

func hxInput(auth, id, text string, status int) hx {
	return hx{path: "/runs/" + hdRunID + "/input", auth: auth, status: status,
		body: fmt.Sprintf(`{"input_id":%q,"text":%q}`, id, text), resp: `{"status":"forwarded"}`}
}

// feedMixed runs frames (step) and HTTP exchanges (hx) in order through one
// hostd session, numbering both as a recording does.
func feedMixed(t *testing.T, items ...any) []Finding {
	t.Helper()
	s := NewSession(dialect.MustGet("hostd"), Options{})
	var out []Finding
	for i, it := range items {
		switch v := it.(type) {
		case step:
			f := wire.Frame{Conn: v.conn, URL: hdURLs(v.conn), Dir: v.dir, Index: int64(i + 1), Op: wire.OpText, Payload: []byte(v.json)}
			out = append(out, s.Observe(f)...)
		case hx:
			x := wire.Exchange{ID: fmt.Sprintf("x%d", i+1), Index: int64(i + 1), Method: "POST", Path: v.path, Status: v.status,
				Auth: v.auth, Request: []byte(v.body), Response: []byte(v.resp)}
			out = append(out, s.ObserveHTTP(x)...)
		default:
			t.Fatalf("item %d: %T", i, it)
		}
	}
	noteFired(out)
	return out
}

func rulesOf(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if f.Severity >= Warning {
			out = append(out, f.Rule)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestHostdHTTP: each HTTP rule fires on its fault and stays quiet on the
// correct exchange next to it; the idempotency requirement spans HTTP and
// the app socket.
func TestHostdHTTP(t *testing.T) {
	t.Parallel()
	login := hx{path: "/auth/login", body: `{"username":"demo","password":"x"}`, status: 200, resp: `{"access_token":"t","token_type":"Bearer"}`}
	tests := []struct {
		name  string
		items []any
		want  []string
	}{
		{"forwarded, answered 500", []any{c2s("h1", hdStarted(1)), s2c("h1", hdSend(hdIn1)), hxInput("bearer", hdIn1, "y\n", 500)},
			[]string{"hostd.http-forwarded-not-2xx"}},
		{"forwarded, repeat answered 409", []any{c2s("h1", hdStarted(1)), hxInput("bearer", hdIn1, "y\n", 202), s2c("h1", hdSend(hdIn1)),
			hxInput("bearer", hdIn1, "y\n", 409)}, []string{"hostd.http-forwarded-not-2xx"}},
		{"not forwarded, refused 409 (host offline)", []any{c2s("h1", hdStarted(1)), hxInput("bearer", hdIn1, "y\n", 409)}, nil},
		{"forwarded, other input refused", []any{c2s("h1", hdStarted(1)), s2c("h1", hdSend(hdIn1)), hxInput("bearer", hdIn2, "y\n", 404)}, nil},
		{"login and one input", []any{login, c2s("h1", hdStarted(1)), hxInput("bearer", hdIn1, "y\n", 202),
			s2c("h1", hdSend(hdIn1)), c2s("h1", hdInput(2, hdIn1)), s2c("a1", hdInput(2, hdIn1))}, nil},
		{"a retry over HTTP recorded once", []any{c2s("h1", hdStarted(1)), hxInput("bearer", hdIn1, "y\n", 202),
			s2c("h1", hdSend(hdIn1)), hxInput("bearer", hdIn1, "y\n", 200), c2s("h1", hdInput(2, hdIn1))}, nil},
		{"a retry over HTTP recorded twice", []any{c2s("h1", hdStarted(1)), hxInput("bearer", hdIn1, "y\n", 202),
			s2c("h1", hdSend(hdIn1)), c2s("h1", hdInput(2, hdIn1)), hxInput("bearer", hdIn1, "y\n", 202),
			s2c("h1", hdSend(hdIn1)), c2s("h1", hdInput(3, hdIn1))},
			[]string{"hostd.input-duplicate", "hostd.input-reforwarded"}},
		{"HTTP then the socket, recorded twice", []any{c2s("h1", hdStarted(1)), hxInput("bearer", hdIn1, "y\n", 202),
			c2s("h1", hdInput(2, hdIn1)), c2s("a1", hdSend(hdIn1)), c2s("h1", hdInput(3, hdIn1))},
			[]string{"hostd.input-duplicate"}},
		{"input without a token refused 401", []any{hxInput("", hdIn1, "y\n", 401)}, []string{"hostd.http-no-bearer"}},
		{"input without a token accepted", []any{hxInput("", hdIn1, "y\n", 202)},
			[]string{"hostd.http-no-bearer", "hostd.http-unauthenticated-not-401"}},
		{"input with basic auth", []any{hxInput("basic", hdIn1, "y\n", 401)}, []string{"hostd.http-no-bearer"}},
		{"input_id reused with other text, refused", []any{hxInput("bearer", hdIn1, "y\n", 202), hxInput("bearer", hdIn1, "n\n", 422)},
			[]string{"hostd.input-id-reused"}},
		{"input_id reused with other text, accepted", []any{hxInput("bearer", hdIn1, "y\n", 202), hxInput("bearer", hdIn1, "n\n", 200)},
			[]string{"hostd.input-id-reused", "hostd.input-id-reused-accepted"}},
		{"input_id reused over the socket", []any{hxInput("bearer", hdIn1, "y\n", 202),
			c2s("a1", strings.Replace(hdSend(hdIn1), `y\n`, `n\n`, 1))}, []string{"hostd.input-id-reused"}},
		{"same input_id in another run", []any{hxInput("bearer", hdIn1, "y\n", 202),
			hx{path: "/runs/other/input", auth: "bearer", status: 202, body: fmt.Sprintf(`{"input_id":%q,"text":"n\n"}`, hdIn1)}}, nil},
		{"input body without text", []any{hx{path: "/runs/r/input", auth: "bearer", status: 400, body: `{"input_id":"x"}`}},
			[]string{"schema.interpretation"}},
		{"login answer without token", []any{hx{path: "/auth/login", body: `{}`, status: 200, resp: `{"token":"t"}`}},
			[]string{"schema.shown"}},
		{"login answer empty", []any{hx{path: "/auth/login", body: `{}`, status: 204}}, []string{"schema.shown"}},
		{"login refused: error body not judged", []any{hx{path: "/auth/login", body: `{}`, status: 401, resp: `nope`}}, nil},
		{"not the protocol's", []any{hx{path: "/static/app.js", status: 500, resp: "x"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := feedMixed(t, tt.items...)
			if got := rulesOf(fs); !slices.Equal(got, tt.want) {
				t.Errorf("rules %v, want %v:\n%v", got, tt.want, fs)
			}
		})
	}
}

// TestHostdHTTPFindingDetails: the duplicate run.input names the sends
// over HTTP, and HTTP findings blame the side that erred and name the
// exchange as frames are named.
func TestHostdHTTPFindingDetails(t *testing.T) {
	t.Parallel()
	fs := feedMixed(t, c2s("h1", hdStarted(1)), hxInput("bearer", hdIn1, "y\n", 202), c2s("h1", hdInput(3, hdIn1)),
		hxInput("bearer", hdIn1, "y\n", 202), c2s("h1", hdInput(5, hdIn1)))
	f := findOne(t, fs, "hostd.input-duplicate")
	if !strings.Contains(f.Message, "clients sent it 2 times: HTTP POST /runs/"+hdRunID+"/input (x2, index 2) → 202; HTTP POST") ||
		!slices.Equal(f.Related, []int64{3, 2, 4}) || f.Severity != Error || !slices.Contains(f.Requires, "hostd.ids.input-id-idempotent") {
		t.Errorf("input-duplicate: %q related %v requires %v", f.Message, f.Related, f.Requires)
	}
	fs = feedMixed(t, hxInput("", hdIn1, "y\n", 202))
	no, not401 := findOne(t, fs, "hostd.http-no-bearer"), findOne(t, fs, "hostd.http-unauthenticated-not-401")
	if no.Dir != wire.ClientToServer || not401.Dir != wire.ServerToClient || no.Conn != "x1" || no.Frame != 1 || !no.HTTP || !not401.HTTP ||
		no.Type != "POST /runs/:run_id/input" || not401.Actual != "202" {
		t.Errorf("blame: %+v / %+v", no, not401)
	}
	fs = feedMixed(t, hx{path: "/runs/r/input", auth: "bearer", status: 400, body: `{"input_id":"x"}`})
	if f := findOne(t, fs, "schema.interpretation"); f.Dir != wire.ClientToServer || f.Conn != "x1" || !f.HTTP {
		t.Errorf("request schema finding: %+v", f)
	}
}

// FuzzObserveHTTP: any bodies, paths and statuses of HTTP exchanges are
// judged without a panic, between frames of a session.
func FuzzObserveHTTP(f *testing.F) {
	f.Add("/runs/r1/input", "bearer", []byte(`{"input_id":"a","text":"y\n"}`), 202, []byte(`{}`))
	f.Add("/auth/login", "", []byte(`{"username":1}`), 200, []byte(`[]`))
	f.Add("/runs//input", "basic", []byte(`{"input_id":{"x":1}}`), 0, []byte{0xff})
	f.Fuzz(func(t *testing.T, path, auth string, req []byte, status int, resp []byte) {
		s := NewSession(dialect.MustGet("hostd"), Options{})
		s.Observe(wire.Frame{Conn: "h1", URL: "/ws/host", Dir: wire.ClientToServer, Index: 1, Op: wire.OpText, Payload: []byte(hdStarted(1))})
		for i := int64(2); i < 4; i++ {
			x := wire.Exchange{ID: "x", Index: i, Method: "POST", Path: path, Auth: auth, Status: status, Request: req, Response: resp}
			for _, fd := range s.ObserveHTTP(x) {
				if fd.Rule == "" || fd.Frame != i {
					t.Fatalf("finding %+v", fd)
				}
			}
		}
	})
}
