package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/recording"
	"github.com/wsconform/wsconform/internal/wire"
)

// fuzzMaxRead bounds the inputs FuzzRead reads. The fuzzer minimizes
// every input that finds new coverage before it keeps it, and its last
// pass tries taking out every span of the input's bytes: time quadratic in
// the input's length, each try a whole Read and newScript (100-200 µs
// here, about half of it the fuzzer's own coverage bookkeeping). Inputs
// beyond the bound return before Read, so they find no coverage and are
// never minimized; the size limits of the readers (MaxHARBytes, the
// longest line) are the recording package's tests'.
const fuzzMaxRead = 2 << 10

// fuzzMinimizeLimit is the fuzz targets' -fuzzminimizetime unless the
// command line gives one. Go's default, 60 s for each input that finds
// new coverage, kept both workers minimizing for most of a short run
// even with the small seeds below (a structured input loses its new
// coverage when almost any span of it is taken out, so the quadratic pass
// runs to its end): `go test -fuzz FuzzRead -fuzztime 20s` ran a few
// thousand inputs and kept about five, and FuzzRewrite, whose inputs are
// tens of bytes, stalled for seconds at a time on a loaded machine. 1000
// tries trim an input's tail and most of its bytes in a fraction of a
// second.
const fuzzMinimizeLimit = "1000x"

// minimizeFlag is the go test flag -fuzzminimizetime.
const minimizeFlag = "test.fuzzminimizetime"

// minimizeGiven says whether the command line set -fuzzminimizetime; it
// is read once, before defaultMinimizeLimit sets the flag.
var minimizeGiven = sync.OnceValue(func() bool {
	given := false
	flag.Visit(func(fl *flag.Flag) { given = given || fl.Name == minimizeFlag })
	return given
})

// defaultMinimizeLimit sets -fuzzminimizetime to limit for the rest of f
// when the command line did not set it. The fuzzing coordinator reads the
// flag when f.Fuzz starts, so it must be called before; the flag is set
// back when f ends, so that another fuzz target of the package, fuzzed
// after f's seeds ran as tests, keeps Go's default.
func defaultMinimizeLimit(f *testing.F, limit string) {
	f.Helper()
	if minimizeGiven() {
		return
	}
	was := flag.Lookup(minimizeFlag).Value.String()
	if err := flag.Set(minimizeFlag, limit); err != nil {
		f.Fatalf("-%s %s: %v", minimizeFlag, limit, err)
	}
	f.Cleanup(func() { _ = flag.Set(minimizeFlag, was) })
}

// readSeeds cuts the golden recordings into small seeds, each the
// recording's header and a few lines of one connection (see cutConns), so
// that every kind of line and every way a connection ends that the
// goldens hold (client close, server close, network loss), in each
// dialect, is a seed the fuzzer runs and minimizes quickly. har are the
// HAR seeds: of each recording, its first cut with a data frame as
// WriteHAR exports it, without what the HAR reader skips (trimHAR), and
// the first of them whole. They are few: a HAR is one JSON document, and
// the fuzzer minimizes one (tries taking out every span of its bytes) far
// more slowly than lines it can take out whole.
func readSeeds(tb testing.TB) (jsonl, har [][]byte) {
	tb.Helper()
	for _, sc := range scenarios {
		b, err := os.ReadFile(goldenPath(sc.dialect))
		if err != nil {
			tb.Fatalf("%v (regenerate with -update)", err)
		}
		cuts, first := cutConns(tb, b)
		jsonl = append(jsonl, cuts...)
		if first < 0 {
			continue
		}
		var h bytes.Buffer
		if err := recording.WriteHAR(&h, bytes.NewReader(cuts[first]), recording.HAROptions{Creator: "wsconform fuzz"}); err != nil {
			tb.Fatalf("export a seed of %s as HAR: %v", sc.dialect, err)
		}
		if len(har) == 0 {
			har = append(har, h.Bytes())
		}
		har = append(har, trimHAR(tb, h.Bytes()))
	}
	return jsonl, har
}

// cutConns is readSeeds for one recording. Each seed holds a connection's
// open and session lines and either its end (its control frames and close
// line, with its shortest data frame) or one of its data frames; a seed
// of a shape (the kinds of its end, or the direction and opcode of its
// frame) another connection gave already is left out.
func cutConns(tb testing.TB, rec []byte) (seeds [][]byte, firstData int) {
	tb.Helper()
	type line struct {
		raw    []byte
		Kind   string `json:"kind"`
		Conn   string `json:"conn"`
		Dir    string `json:"dir"`
		Opcode int    `json:"opcode"`
		By     string `json:"by"`
	}
	var header []byte
	var order []string
	lines := map[string][]*line{}
	sc := bufio.NewScanner(bytes.NewReader(rec))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := &line{raw: append(bytes.Clone(sc.Bytes()), '\n')}
		if err := json.Unmarshal(l.raw, l); err != nil {
			tb.Fatalf("golden line %q: %v", l.raw, err)
		}
		switch {
		case l.Kind == "header":
			header = l.raw
		case l.Conn != "":
			if _, ok := lines[l.Conn]; !ok {
				order = append(order, l.Conn)
			}
			lines[l.Conn] = append(lines[l.Conn], l)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	data := func(l *line) bool { return l.Kind == "frame" && (l.Opcode == 1 || l.Opcode == 2) }
	seen := map[string]bool{}
	firstData = -1
	// seed adds the header and the lines of ls that open the connection,
	// name its session, or that keep says, unless shape was seen.
	seed := func(ls []*line, shape string, keep func(*line) bool) {
		if seen[shape] {
			return
		}
		seen[shape] = true
		b := bytes.Clone(header)
		for _, l := range ls {
			if l.Kind == "open" || l.Kind == "session" || keep(l) {
				b = append(b, l.raw...)
				if data(l) && firstData < 0 {
					firstData = len(seeds)
				}
			}
		}
		seeds = append(seeds, b)
	}
	for _, c := range order {
		ls := lines[c]
		end := "end"
		for _, l := range ls {
			switch {
			case l.Kind == "frame" && !data(l):
				end += fmt.Sprintf(" %s:%d", l.Dir, l.Opcode)
			case l.Kind == "close":
				end += " close:" + l.By
			}
		}
		// An end with the connection's shortest data frame: a recording
		// without one has nothing to replay, and its end no step.
		var short *line
		for _, l := range ls {
			if data(l) && (short == nil || len(l.raw) < len(short.raw)) {
				short = l
			}
		}
		seed(ls, end, func(l *line) bool { return l == short || l.Kind == "close" || (l.Kind == "frame" && !data(l)) })
		for _, f := range ls {
			if data(f) {
				seed(ls, fmt.Sprintf("data %s:%d", f.Dir, f.Opcode), func(l *line) bool { return l == f })
			}
		}
	}
	return seeds, firstData
}

// trimHAR leaves out of an exported HAR the members its reader skips
// (an entry's response, cache, timings, the request's headers), halving
// a seed of one connection; what is left (members sorted by name) reads
// as the whole did.
func trimHAR(tb testing.TB, har []byte) []byte {
	tb.Helper()
	var doc struct {
		Log struct {
			Wsconform json.RawMessage              `json:"_wsconform,omitempty"`
			Entries   []map[string]json.RawMessage `json:"entries"`
		} `json:"log"`
	}
	if err := json.Unmarshal(har, &doc); err != nil {
		tb.Fatalf("exported HAR: %v", err)
	}
	for _, e := range doc.Log.Entries {
		for k := range e {
			switch k {
			case "startedDateTime", "_wsconform", "_webSocketMessages":
			case "request":
				var req struct {
					URL string `json:"url"`
				}
				if err := json.Unmarshal(e[k], &req); err != nil {
					tb.Fatalf("exported HAR: %v", err)
				}
				e[k], _ = json.Marshal(req)
			default:
				delete(e, k)
			}
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// FuzzRead: any bytes read as a recording (JSONL or HAR) give a plan or an
// error, never a panic; a plan is consistent (its events name its
// connections and their frames), and its script (the steps a replay
// takes) is built without a panic either: every step names a connection
// of the plan, a send a client data frame, each replayed connection opens
// first and ends once, and every awaited answer is a server data frame.
func FuzzRead(f *testing.F) {
	defaultMinimizeLimit(f, fuzzMinimizeLimit)
	jsonl, har := readSeeds(f)
	for _, seed := range append(jsonl, har...) {
		if len(seed) > fuzzMaxRead {
			f.Fatalf("a seed of %d bytes, beyond fuzzMaxRead (%d): the fuzz function would not read it", len(seed), fuzzMaxRead)
		}
		f.Add(seed)
	}
	f.Add([]byte(`{"kind":"frame","conn":"c1","dir":"c2s","opcode":1,"text":"{\"type\":\"hello\"}"}`))
	f.Add([]byte(`{"kind":"close","conn":"c9","code":1006,"by":"network"}` + "\n" + `{"kind":"frame","conn":"c9","dir":"s2c","opcode":8}`))
	f.Add([]byte(`{"kind":"open","conn":"c1","url":"ws://h/ws"}` + "\n" +
		`{"kind":"frame","conn":"c1","dir":"c2s","opcode":1,"text":"{\"type\":\"start\",\"req_id\":\"r1\"}"}` + "\n" +
		`{"kind":"open","conn":"c2","url":"ws://h/ws"}` + "\n" +
		`{"kind":"session","conn":"c2","session":"s","parent":"c1"}` + "\n" +
		`{"kind":"close","conn":"c1","code":1006,"by":"network"}` + "\n" +
		`{"kind":"frame","conn":"c2","dir":"s2c","opcode":1,"text":"{\"type\":\"ack\",\"req_id\":\"r1\"}"}` + "\n" +
		`{"kind":"session","conn":"c3","unjudged":"not the dialect's"}`))
	f.Add([]byte(`{"log":{"entries":[{"_webSocketMessages":[{"type":"send","opcode":1,"data":"{}","time":1}]}]}}`))
	// Two connections, a binary answer, and DevTools' "error" (the
	// network lost the first).
	f.Add([]byte(`{"log":{"entries":[{"request":{"url":"ws://h/ws"},"_webSocketMessages":[` +
		`{"type":"send","time":1,"opcode":1,"data":"{\"type\":\"hello\"}"},{"type":"error","time":2,"opcode":-1,"data":"gone"}]},` +
		`{"request":{"url":"ws://h/ws"},"_webSocketMessages":[{"type":"receive","time":3,"opcode":2,"data":"AAE="}]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > fuzzMaxRead {
			return
		}
		p, err := Read(bytes.NewReader(b), "auto")
		if p == nil {
			if err == nil {
				t.Fatal("Read gave neither a plan nor an error")
			}
			return
		}
		checkPlan(t, p)
		if errors.Is(err, ErrNoFrames) {
			return
		}
		if err != nil {
			// No dialect named or detected: replay it as --dialect would.
			p.Dialect = "minicodex"
		}
		d, err := dialect.Get(p.Dialect)
		if err != nil {
			t.Fatalf("Read chose dialect %q: %v", p.Dialect, err)
		}
		s := newScript(p, newCorrelator(p, d, NewIDs(p.Dialect)), map[string]bool{"heartbeat": true})
		checkScript(t, p, s)
	})
}

// checkPlan fails t unless every event of p names one of its connections
// and, for a frame, one of that connection's frames; each connection
// opens once and ends at most once, with an End when it ends.
func checkPlan(t *testing.T, p *Plan) {
	t.Helper()
	conns := map[*Conn]bool{}
	ids := map[string]bool{}
	frames := 0
	for _, c := range p.Conns {
		if conns[c] || ids[c.ID] {
			t.Fatalf("connection %q is in the plan twice", c.ID)
		}
		conns[c], ids[c.ID] = true, true
		frames += len(c.Frames)
	}
	opens, closes := map[*Conn]int{}, map[*Conn]int{}
	for i, ev := range p.Events {
		if !conns[ev.Conn] {
			t.Fatalf("event %d names a connection the plan does not hold", i)
		}
		switch ev.Kind {
		case EvOpen:
			if opens[ev.Conn]++; opens[ev.Conn] > 1 {
				t.Fatalf("connection %q opens twice", ev.Conn.ID)
			}
		case EvFrame:
			if opens[ev.Conn] == 0 {
				t.Fatalf("event %d: a frame of %q before it opens", i, ev.Conn.ID)
			}
			if ev.Frame < 0 || ev.Frame >= len(ev.Conn.Frames) {
				t.Fatalf("event %d names frame %d of %d", i, ev.Frame, len(ev.Conn.Frames))
			}
			frames--
		case EvClose:
			if opens[ev.Conn] == 0 {
				t.Fatalf("event %d: %q ends before it opens", i, ev.Conn.ID)
			}
			if closes[ev.Conn]++; closes[ev.Conn] > 1 || ev.Conn.End == nil {
				t.Fatalf("event %d: %q ends twice or without an End", i, ev.Conn.ID)
			}
		}
	}
	if frames != 0 {
		t.Fatalf("the connections hold %d frames the events do not name", frames)
	}
	for _, c := range p.Conns {
		if opens[c] != 1 {
			t.Fatalf("connection %q has %d open events", c.ID, opens[c])
		}
		if (c.End != nil) != (closes[c] == 1) {
			t.Fatalf("connection %q: End %v but %d close events", c.ID, c.End, closes[c])
		}
	}
}

// checkScript fails t unless s is a script of p as newScript documents
// it: steps in timeline order, each naming a connection of p; a replayed
// connection opens first, then sends client data frames, then ends with
// exactly one close, cut, await or finish; a skipped one has no step; an
// answer is a server data frame of its connection.
func checkScript(t *testing.T, p *Plan, s *script) {
	t.Helper()
	conns := map[*Conn]bool{}
	for _, c := range p.Conns {
		conns[c] = true
	}
	opened, ended := map[*Conn]bool{}, map[*Conn]bool{}
	for i, st := range s.steps {
		c := st.conn
		if !conns[c] {
			t.Fatalf("step %d names a connection the plan does not hold", i)
		}
		if _, ok := s.skipped[c]; ok {
			t.Fatalf("step %d replays %q, a skipped connection", i, c.ID)
		}
		if i > 0 && st.pos < s.steps[i-1].pos {
			t.Fatalf("step %d at %d comes after a step at %d", i, st.pos, s.steps[i-1].pos)
		}
		if st.pos < 0 || st.pos > len(p.Events) {
			t.Fatalf("step %d at %d of %d events", i, st.pos, len(p.Events))
		}
		if st.kind == stepOpen {
			if opened[c] {
				t.Fatalf("step %d opens %q again", i, c.ID)
			}
			opened[c] = true
			continue
		}
		if !opened[c] {
			t.Fatalf("step %d (kind %d) on %q before it opens", i, st.kind, c.ID)
		}
		if ended[c] {
			t.Fatalf("step %d (kind %d) on %q after it ended", i, st.kind, c.ID)
		}
		switch st.kind {
		case stepSend:
			if st.frame < 0 || st.frame >= len(c.Frames) {
				t.Fatalf("a send step names frame %d of %d", st.frame, len(c.Frames))
			}
			if f := c.Frames[st.frame]; f.Dir != wire.ClientToServer || (f.Op != wire.OpText && f.Op != wire.OpBinary) {
				t.Fatalf("a send step names a frame %s opcode %d", f.Dir, f.Op)
			}
		case stepClose, stepCut, stepAwait, stepFinish:
			ended[c] = true
			if st.frame >= len(c.Frames) || (st.frame >= 0 && st.kind != stepClose) {
				t.Fatalf("step %d (kind %d) names frame %d of %d", i, st.kind, st.frame, len(c.Frames))
			}
		default:
			t.Fatalf("step %d has kind %d", i, st.kind)
		}
	}
	for _, c := range p.Conns {
		if _, ok := s.skipped[c]; !ok && (!opened[c] || !ended[c]) {
			t.Fatalf("connection %q is replayed without an open and an end (open %v, end %v)", c.ID, opened[c], ended[c])
		}
	}
	for c, as := range s.answers {
		if !conns[c] {
			t.Fatal("an answer of a connection the plan does not hold")
		}
		for _, a := range as {
			if a.frame < 0 || a.frame >= len(c.Frames) {
				t.Fatalf("an answer names frame %d of %d", a.frame, len(c.Frames))
			}
			if f := c.Frames[a.frame]; f.Dir != wire.ServerToClient || (f.Op != wire.OpText && f.Op != wire.OpBinary) {
				t.Fatalf("an answer names a frame %s opcode %d", f.Dir, f.Op)
			}
		}
	}
	for c, keys := range s.byKey {
		for _, frames := range keys {
			for _, i := range frames {
				if i < 0 || i >= len(c.Frames) {
					t.Fatalf("an answer key names frame %d of %d", i, len(c.Frames))
				}
			}
		}
	}
}

// FuzzRewrite: rewriting a client frame with learned ids and cursors never
// panics, and valid JSON stays valid JSON.
func FuzzRewrite(f *testing.F) {
	defaultMinimizeLimit(f, fuzzMinimizeLimit)
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
