package replay

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
)

// FuzzRead: any bytes read as a recording give a plan or an error, never
// a panic, and a plan's script (the steps a replay takes) is built
// without one either, with every step naming a connection of the plan.
func FuzzRead(f *testing.F) {
	for _, sc := range scenarios {
		if b, err := os.ReadFile(goldenPath(sc.dialect)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"kind":"frame","conn":"c1","dir":"c2s","opcode":1,"text":"{\"type\":\"hello\"}"}`))
	f.Add([]byte(`{"kind":"close","conn":"c9","code":1006,"by":"network"}` + "\n" + `{"kind":"frame","conn":"c9","dir":"s2c","opcode":8}`))
	f.Add([]byte(`{"log":{"entries":[{"_webSocketMessages":[{"type":"send","opcode":1,"data":"{}","time":1}]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Read(bytes.NewReader(b), "minicodex")
		if err != nil {
			return
		}
		d, err := dialect.Get(p.Dialect)
		if err != nil {
			return
		}
		s := newScript(p, newCorrelator(p, d, NewIDs(p.Dialect)), map[string]bool{"heartbeat": true})
		conns := map[*Conn]bool{}
		for _, c := range p.Conns {
			conns[c] = true
		}
		for _, st := range s.steps {
			if !conns[st.conn] {
				t.Fatalf("a step names a connection the plan does not hold")
			}
			if st.kind == stepSend && (st.frame < 0 || st.frame >= len(st.conn.Frames)) {
				t.Fatalf("a send step names frame %d of %d", st.frame, len(st.conn.Frames))
			}
		}
	})
}

// FuzzRewrite: rewriting a client frame with learned ids and cursors never
// panics, and valid JSON stays valid JSON.
func FuzzRewrite(f *testing.F) {
	f.Add([]byte(`{"type":"resume","session_id":"sess_old","last_seen_event_id":4}`))
	f.Add([]byte(`{"type":"resume","session_id":"sess_old","x":["sess_old",{"session_id":"sess_old"}],"last_seen_event_id":4.0}`))
	f.Add([]byte(`{"type":"resume","session_id":"sess\u005fold","last_seen_event_id":4}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		ids := NewIDs("minicodex")
		ids.Learn("sess_old", "sess_new")
		ids.LearnOrder("4", "7")
		cursors, _ := ParseMasks(KnowledgeOf("minicodex").Cursors)
		out := rewriter{ids: ids, cursors: cursors}.rewrite("resume", payload, nil)
		if json.Valid(payload) && !json.Valid(out) {
			t.Fatalf("rewrite broke JSON: %s → %s", payload, out)
		}
	})
}
