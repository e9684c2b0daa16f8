package replay

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reports"
)

func TestCompare(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, typ, rec, new string
		ignore              []string
		want                []MemberDiff
	}{
		{"equal", "x", `{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1.0}`, nil, nil},
		{"changed", "x", `{"a":1}`, `{"a":2}`, nil, []MemberDiff{{"/a", "1", "2"}}},
		{"null is not absent", "x", `{"a":null}`, `{}`, nil, []MemberDiff{{"/a", "null", ""}}},
		{"absent is not null", "x", `{}`, `{"a":null}`, nil, []MemberDiff{{"/a", "", "null"}}},
		{"masked pointer", "x", `{"data":{"ts":1,"v":2}}`, `{"data":{"ts":3,"v":2}}`, []string{"/data/ts"}, nil},
		{"masked wildcard", "x", `{"data":[{"ts":1},{"ts":2}]}`, `{"data":[{"ts":5},{"ts":6}]}`, []string{"/data/*/ts"}, nil},
		{"masked any depth", "x", `{"a":{"b":{"ts":1}}}`, `{"a":{"b":{"ts":2}}}`, []string{"ts"}, nil},
		{"typed mask other type", "y", `{"ts":1}`, `{"ts":2}`, []string{"x:/ts"}, []MemberDiff{{"/ts", "1", "2"}}},
		{"masked absent", "x", `{"ts":1}`, `{}`, []string{"ts"}, nil},
		{"id renamed", "x", `{"session_id":"s1","n":"s1"}`, `{"session_id":"s2","n":"s2"}`, nil, nil},
		{"id inside text", "x", `{"session_id":"sess-000001","dir":"/b/sess-000001/x"}`, `{"session_id":"sess-000002","dir":"/b/sess-000002/x"}`, nil, nil},
		{"id inconsistent", "x", `{"run_id":"r1","x":{"run_id":"r1"}}`, `{"run_id":"r2","x":{"run_id":"r3"}}`, nil, []MemberDiff{{"/x/run_id", `"r1"`, `"r3"`}}},
		{"two ids become one", "x", `{"a_id":"r1","b_id":"r2"}`, `{"a_id":"n","b_id":"n"}`, nil, []MemberDiff{{"/b_id", `"r2"`, `"n"`}}},
		{"redacted recorded", "x", `{"apiKey":"«redacted: 9 chars»"}`, `{"apiKey":"sk-123456"}`, nil, nil},
		{"token redacted in a text", "x", `{"text":"use «redacted: 40 chars» now"}`, `{"text":"use ghp_0123456789abcdefghijABCDEFGHIJklmnop now"}`, nil, nil},
		{"redacted in JSON in a string", "x", `{"c":"{\"apiKey\":\"«redacted: 9 chars»\"}"}`, `{"c":"{\"apiKey\":\"sk-123456\"}"}`, nil, nil},
		{"text around the token changed", "x", `{"text":"use «redacted: 40 chars» now"}`, `{"text":"lost ghp_x now"}`, nil,
			[]MemberDiff{{"/text", `"use «redacted: 40 chars» now"`, `"lost ghp_x now"`}}},
		{"array longer", "x", `{"a":[1]}`, `{"a":[1,2]}`, nil, []MemberDiff{{"/a/1", "", "2"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			masks, err := ParseMasks(tc.ignore)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := Decode([]byte(tc.rec))
			b, _ := Decode([]byte(tc.new))
			// numbers keep their spelling: the replayed value shows as written
			got := Compare(tc.typ, a, b, masks, NewIDs(""))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseMaskErrors(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "/", "a/b", "x:"} {
		if _, err := ParseMask(s); err == nil {
			t.Errorf("ParseMask(%q) accepted", s)
		}
	}
}

func TestAlign(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a, b string
		want string // per row: = same, - missing, + extra
	}{
		{"a b c", "a b c", "==="},
		{"a b c", "a c", "=-="},
		{"a c", "a b c", "=+="},
		{"a b", "b a", "-=+"},
		{"", "a", "+"},
		{"a", "", "-"},
		{"a x b", "a y b", "=-+="},
	}
	for _, tc := range cases {
		pairs := align(strings.Fields(tc.a), strings.Fields(tc.b))
		var sb strings.Builder
		for _, p := range pairs {
			switch {
			case p.a >= 0 && p.b >= 0:
				sb.WriteByte('=')
			case p.a >= 0:
				sb.WriteByte('-')
			default:
				sb.WriteByte('+')
			}
		}
		if sb.String() != tc.want {
			t.Errorf("align(%q, %q) = %s, want %s", tc.a, tc.b, sb.String(), tc.want)
		}
		if g := greedy(strings.Fields(tc.a), strings.Fields(tc.b)); len(g) < max(len(strings.Fields(tc.a)), len(strings.Fields(tc.b))) {
			t.Errorf("greedy(%q, %q) lost rows: %v", tc.a, tc.b, g)
		}
	}
}

func TestRewrite(t *testing.T) {
	t.Parallel()
	ids := NewIDs("minicodex")
	ids.Learn("sess_old", "sess_new")
	ids.LearnOrder("4", "7")
	ids.LearnOrder("6", "9")
	cursors, _ := ParseMasks(KnowledgeOf("minicodex").Cursors)
	w := rewriter{ids: ids, cursors: cursors}
	cases := []struct{ typ, in, want string }{
		{"resume", `{"type": "resume", "session_id": "sess_old", "last_seen_event_id": 4}`, `{"type": "resume", "session_id": "sess_new", "last_seen_event_id": 7}`},
		{"resume", `{"type":"resume","last_seen_event_id":5}`, `{"type":"resume","last_seen_event_id":8}`},
		{"send", `{"type":"send","n":4,"text":"sess_old is mine"}`, `{"type":"send","n":4,"text":"sess_old is mine"}`},
		{"send", `{"type":"send","x":"sess\u005fold"}`, `{"type":"send","x":"sess_new"}`},
		{"send", `not json`, `not json`},
	}
	for _, tc := range cases {
		if got := string(w.rewrite(tc.typ, []byte(tc.in), nil)); got != tc.want {
			t.Errorf("rewrite(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestURLFor(t *testing.T) {
	t.Parallel()
	ids := NewIDs("mitto")
	ids.Learn("session-old", "session-new")
	cases := []struct{ against, rec, want string }{
		{"ws://h:1", "ws://p:2/ws?session_id=session-old&x=1", "ws://h:1/ws?session_id=session-new&x=1"},
		{"ws://h:1/", "ws://p:2/ws", "ws://h:1/ws"},
		{"ws://h:1/mitto", "ws://p:2/ws", "ws://h:1/mitto/ws"},
		{"ws://h:1/ws", "ws://p:2/ws", "ws://h:1/ws"},
		{"http://h:1", "ws://p:2/ws/app?token=redacted(19)", "ws://h:1/ws/app?token=fresh"},
		{"ws://h:1", "ws://p:2/s/session-old/ws", "ws://h:1/s/session-new/ws"},
	}
	for _, tc := range cases {
		tg, err := newTarget(tc.against, nil, map[string]string{"token": "fresh"})
		if err != nil {
			t.Fatal(err)
		}
		if got := tg.urlFor(tc.rec, ids); got != tc.want {
			t.Errorf("urlFor(%s, %s) = %s, want %s", tc.against, tc.rec, got, tc.want)
		}
	}
}

func TestOrderNear(t *testing.T) {
	t.Parallel()
	ids := NewIDs("")
	ids.LearnOrder("2", "12")
	ids.LearnOrder("5", "15")
	for in, want := range map[string]string{"2": "12", "3": "13", "9": "19"} {
		if got, ok := ids.OrderNear(json.Number(in)); !ok || got.String() != want {
			t.Errorf("OrderNear(%s) = %s %v, want %s", in, got, ok, want)
		}
	}
	if _, ok := ids.OrderNear("1"); ok {
		t.Errorf("OrderNear(1) found a value below every learned one")
	}
}

// TestMoved: a message the new server sent a place away, unchanged within
// the masks, is one "moved" row that does not fail the diff; a changed
// one stays a missing and an extra row.
func TestMoved(t *testing.T) {
	t.Parallel()
	d := dialect.MustGet("coworker")
	frame := func(i int64, dir wire.Direction, text string) wire.Frame {
		return wire.Frame{Conn: "c", Index: i, Dir: dir, Op: wire.OpText, Payload: []byte(text)}
	}
	build := func(texts ...string) side {
		var s side
		for i, x := range texts {
			f := frame(int64(i+1), wire.ServerToClient, x)
			typ, _ := reports.Describe(d, f)
			s.frames, s.types = append(s.frames, f), append(s.types, typ)
		}
		return s
	}
	hello := `{"type":"server_hello","sessionId":"s1"}`
	status := `{"type":"provider_status","sessionId":"s1","ok":true}`
	catalog := `{"type":"provider_catalog","sessionId":"s1"}`
	tests := []struct {
		name     string
		replayed []string
		want     string
		matched  bool
	}{
		{"swapped", []string{hello, catalog, status}, "[same moved same]", true},
		{"swapped and changed", []string{hello, catalog, `{"type":"provider_status","sessionId":"s1","ok":false}`}, "[same missing same extra]", false},
		{"in place", []string{hello, status, catalog}, "[same same same]", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			df := differ{d: d, ids: NewIDs("coworker"), payload: 1 << 10}
			rec, rep := build(hello, status, catalog), build(tt.replayed...)
			var rows []reports.ReplayRow
			for _, p := range align(rec.types, rep.types) {
				rows = append(rows, df.row(p, rec, rep))
			}
			rows = df.moved(rows, rec, rep)
			var ops []string
			for _, r := range rows {
				ops = append(ops, r.Op)
			}
			if fmt.Sprint(ops) != tt.want {
				t.Errorf("rows %v, want %s", ops, tt.want)
			}
			if got := (reports.ReplayDiff{Rows: rows}).Differs() == 0; got != tt.matched {
				t.Errorf("matched %v, want %v", got, tt.matched)
			}
		})
	}
}

// TestRewriteToken: a token the server minted (myagent's signed state)
// is learned whole from the aligned answer and handed back in place of
// the recorded one; a client frame without it is sent as recorded.
func TestRewriteToken(t *testing.T) {
	t.Parallel()
	ids := NewIDs("myagent")
	oldState := map[string]any{"checksum": "aa", "state": map[string]any{"n": json.Number("1")}}
	ids.LearnToken(oldState, map[string]any{"checksum": "bb", "state": map[string]any{"n": json.Number("2")}})
	w := rewriter{ids: ids, tokens: map[string]bool{"signed_state": true}}
	got := string(w.rewrite("user.reconnect_with_state", []byte(`{"event":"user.reconnect_with_state","metadata":{"signed_state":{"state":{"n":1},"checksum":"aa"}}}`), nil))
	if !strings.Contains(got, `"checksum":"bb"`) || !strings.Contains(got, `"n":2`) {
		t.Errorf("token not handed back: %s", got)
	}
	plain := `{"event":"user.message","content":"hi"}`
	if got := string(w.rewrite("user.message", []byte(plain), nil)); got != plain {
		t.Errorf("a frame without the token changed: %s", got)
	}
	other := `{"event":"user.reconnect_with_state","metadata":{"signed_state":{"checksum":"zz"}}}`
	if got := string(w.rewrite("user.reconnect_with_state", []byte(other), nil)); got != other {
		t.Errorf("an unknown token value changed: %s", got)
	}
}
