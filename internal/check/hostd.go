package check

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/wsconform/wsconform/internal/jsonx"
	"github.com/wsconform/wsconform/internal/wire"
)

// hostd rules: seq order per run, the host's spool replay and run.ack, input
// idempotency, and which endpoint (host or app) a message belongs on.
//
// A hostd session holds host connections (/ws/host: events c2s, commands
// and run.ack s2c) and app connections (/ws/app: commands c2s, events s2c).
// A connection's role comes from its URL path, or else from its first
// message: every hostd message travels in one flow only, so its type and
// direction name the endpoint.
//
// The spec keeps seq "per run_id"; the order rules compare the events of one
// run on one connection, a part of that scope. The spec names no message
// that de-duplicates or forwards unchanged in words; those rules rest on
// seq naming one event of a run's sequence and on the replay the spec
// describes, and say so in their quotes.
var (
	hdSeqOrder = Rule{ID: "hostd.seq-order", Severity: Error, Evidence: Stated, Dialect: "hostd",
		Requires: []string{"hostd.ids.seq-monotonic"},
		Spec:     "hostd-mvp.md §Identifiers: seq, monotonically increasing per run_id event sequence",
		Quote:    "\"`seq`: monotonically increasing per `run_id` event sequence\"",
		Summary:  "On one connection, each event of a run carries a greater seq than the run's event before it, host→server and server→app (the run's sequence seen on one connection)."}
	hdReplayMismatch = Rule{ID: "hostd.replay-mismatch", Severity: Error, Evidence: Stated, Dialect: "hostd",
		Requires: []string{"hostd.ids.seq-monotonic", "hostd.ack.spool-replay"},
		Spec: "hostd-mvp.md §Identifiers (seq per run_id); §Events (hostd → server → web); §Acknowledgements: offline spool replay; " +
			"interpretation: ts and members the spec does not define are not compared",
		Quote: "\"`seq`: monotonically increasing per `run_id` event sequence\" (a run_id and seq name one event); " +
			"\"## Events (hostd → server → web)\"; run.ack: \"Used for offline spool replay.\", \"Host uses this to delete spooled events up to `last_seq` and to resume replay after reconnect.\"",
		Summary: "Every copy of a run's event with a given seq (host spool replay, server→app copy, fan-out to several apps) has the type and data of the first."}
	hdAppDuplicate = Rule{ID: "hostd.app-duplicate", Severity: Error, Evidence: Stated, Dialect: "hostd",
		Requires: []string{"hostd.ids.seq-monotonic", "hostd.ack.spool-replay"},
		Spec: "hostd-mvp.md §Identifiers: seq monotonically increasing per run_id; §Acknowledgements: spool replay after reconnect " +
			"(the server de-duplicates replayed events)",
		Quote: "\"`seq`: monotonically increasing per `run_id` event sequence\"; " +
			"\"Host uses this to delete spooled events up to `last_seq` and to resume replay after reconnect.\"",
		Summary: "An app connection never receives the same (run_id, seq) event twice: the server de-duplicates the host's spool replay (a repeated seq is not an increasing one)."}
	hdAckRegress = Rule{ID: "hostd.ack-regress", Severity: Error, Evidence: Stated, Dialect: "hostd",
		Requires: []string{"hostd.ack.last-seq", "hostd.ids.seq-monotonic"},
		Spec:     "hostd-mvp.md §Acknowledgements / run.ack: last_seq, last persisted seq for this run_id",
		Quote:    "run.ack `data`: \"`last_seq`: last persisted `seq` for this `run_id`\"; \"`seq`: monotonically increasing per `run_id` event sequence\"",
		Summary:  "The last_seq a run.ack acknowledges for a run never decreases within the session."}
	hdAckUnsent = Rule{ID: "hostd.ack-unsent", Severity: Error, Evidence: Stated, Dialect: "hostd",
		Requires: []string{"hostd.ack.after-persist", "hostd.ack.last-seq"},
		Spec:     "hostd-mvp.md §Acknowledgements / run.ack: sent after persisting a host→server event with a seq",
		Quote: "\"Server sends `run.ack` back to the connected host after persisting a host→server event with a `seq`.\"; " +
			"\"`last_seq`: last persisted `seq` for this `run_id`\"",
		Summary: "run.ack acknowledges no seq beyond the highest the host has sent for the run (judged only for runs whose run.started the session saw the host send)."}
	hdSpoolAcked = Rule{ID: "hostd.spool-already-acked", Severity: Warning, Evidence: Stated, Dialect: "hostd",
		Requires: []string{"hostd.ack.spool-replay"},
		Spec:     "hostd-mvp.md §Acknowledgements / run.ack: host deletes spooled events up to last_seq and resumes replay after reconnect",
		Quote:    "\"Host uses this to delete spooled events up to `last_seq` and to resume replay after reconnect.\"",
		Summary:  "After a reconnect, a host does not replay an event the server acknowledged on an earlier connection (seq <= last_seq); an ack lost with the old connection makes this a warning."}
	hdResumeUnacked = Rule{ID: "hostd.resume-unacked", Severity: Error, Evidence: Stated, Dialect: "hostd",
		Requires: []string{"hostd.ack.spool-replay"},
		Spec:     "hostd-mvp.md §Acknowledgements / run.ack: the host deletes spooled events up to last_seq and resumes replay after reconnect",
		Quote: "\"Host uses this to delete spooled events up to `last_seq` and to resume replay after reconnect.\"; " +
			"\"`last_seq`: last persisted `seq` for this `run_id`\" (an event no run.ack covered is still spooled, and replayed)",
		Summary: "After a reconnect, a host replays the events of a run that no run.ack acknowledged before it sends later ones: it does not resume from a seq the server never acknowledged."}
	hdInputDuplicate = Rule{ID: "hostd.input-duplicate", Severity: Error, Evidence: Stated, Dialect: "hostd",
		Requires: []string{"hostd.ids.input-id-idempotent", "hostd.run-input.after-pty-write"},
		Spec:     "hostd-mvp.md §Identifiers: input_id makes inputs idempotent; §Events / run.input: emitted after an input is accepted and written to the PTY",
		Quote:    "\"`input_id`: client-generated UUID to make inputs idempotent\"; run.input: \"This is emitted after an input is accepted and written to the PTY.\"",
		Summary:  "An input_id is recorded (run.input) once per run: a re-delivered run.send_input is not written to the PTY again."}
	hdInputReforwarded = Rule{ID: "hostd.input-reforwarded", Severity: Warning, Evidence: Interpretation, Dialect: "hostd",
		Requires: []string{"hostd.ids.input-id-server-dedupes", "hostd.ids.input-id-redelivery"},
		Spec: "hostd-mvp.md §Identifiers: input_id, client-generated UUID to make inputs idempotent; " +
			"interpretation: the server de-duplicates app retries, while a re-delivery to a reconnected host is allowed",
		Quote:   "\"`input_id`: client-generated UUID to make inputs idempotent\" (the spec does not say which side de-duplicates)",
		Summary: "The server forwards a run's input_id to a host connection once, and not again after the host recorded it."}
	hdWrongEndpoint = Rule{ID: "hostd.wrong-endpoint", Severity: Warning, Evidence: Shown, Dialect: "hostd",
		Requires: []string{"hostd.events.route", "hostd.commands.route", "hostd.ack.host-only"},
		Spec: "hostd-mvp.md §WebSocket Endpoints; §Events (hostd → server → web); §Commands (web/cli → server → hostd); " +
			"§Acknowledgements: run.ack back to the connected host (the flows are shown by the section headings)",
		Quote: "\"## Events (hostd → server → web)\"; \"## Commands (web/cli → server → hostd)\"; " +
			"\"Server sends `run.ack` back to the connected host\"",
		Summary: "Events travel host→server on /ws/host and server→app on /ws/app; commands app→server on /ws/app and server→host on /ws/host; run.ack server→host only."}
)

var _ = registerRuleSet("hostd", func(o Options) ruleSet { return newHostd(o) })

var _ = register(hdSeqOrder, hdReplayMismatch, hdAppDuplicate, hdAckRegress, hdAckUnsent,
	hdSpoolAcked, hdResumeUnacked, hdInputDuplicate, hdInputReforwarded, hdWrongEndpoint)

// hdEventData lists, per event type, the data members the spec defines:
// the part of an event that replay copies must keep.
var hdEventData = map[string][]string{
	"run.started":        {"tool", "cwd", "command"},
	"run.output":         {"stream", "text"},
	"run.awaiting_input": {"reason", "prompt"},
	"run.exited":         {"exit_code"},
	"run.input":          {"actor", "input_id", "text_redacted", "text_sha256"},
}

const hdEventList = "run.started, run.output, run.awaiting_input, run.exited, run.input"

type hdRole int

const (
	hdUnknown hdRole = iota
	hdHost
	hdApp
)

func (r hdRole) article() string {
	if r == hdHost {
		return "a host"
	}
	return "an " + r.String()
}

func (r hdRole) String() string {
	switch r {
	case hdHost:
		return "host"
	case hdApp:
		return "app"
	}
	return "unknown"
}

type hostd struct {
	window int
	log    *eventLog[hdKey] // run_id+seq → the event's compared part, first sighting
	conns  map[string]*hdConn
	runs   map[string]*hdRun     // run_id → what the session knows of it
	inputs map[string]hdRecorded // run_id+input_id → its first run.input
	sent   map[string]*hdSent    // run_id+input_id → how clients sent it (hostd_http.go)
	// forwardedTo is run_id+input_id → the frame that first forwarded it
	// to a host connection.
	forwardedTo map[string]int64
}

type hdRun struct {
	started  bool // the session saw the host send run.started
	hasSent  bool
	maxSent  int64 // highest seq of the run seen from the host (or relayed to an app)
	hasAck   bool
	ack      int64  // highest last_seq acknowledged
	ackConn  string // connection the highest ack was first sent on
	ackFrame int64
	// unacked are the seqs the host sent above ack, in order, with the
	// connection that last sent each: what its spool still holds.
	unacked []hdSentSeq
	// unackedBy counts unacked by connection: resume looks for a seq sent
	// on another connection, and a run whose spool is all this
	// connection's has none (without the count, a host streaming without
	// acks made resume walk the whole window on every event).
	unackedBy map[string]int
}

// noteUnacked counts an entry of unacked as sent on conn (n = 1) or no
// longer (n = -1).
func (st *hdRun) noteUnacked(conn string, n int) {
	if st.unackedBy == nil {
		st.unackedBy = map[string]int{}
	}
	if st.unackedBy[conn] += n; st.unackedBy[conn] == 0 {
		delete(st.unackedBy, conn)
	}
}

type hdSentSeq struct {
	seq   int64
	conn  string
	frame int64
}

type hdRecorded struct {
	seq   int64
	frame int64
}

type hdConn struct {
	role      hdRole
	why       string                // how the role was learnt, for messages
	last      map[string]int64      // run_id → last seq on this connection
	delivered *recent[hdKey, int64] // app: run_id+seq → frame that delivered it here
	views     map[string]int        // app: run_id → requests for the run the spec does not define
	warned    map[string]bool       // host: runs already given a spool-already-acked warning
	skipped   map[string]bool       // host: runs already given a resume-unacked finding
	forwarded map[string]bool       // host: run_id+input_id forwarded here
}

func newHostd(opts Options) *hostd {
	return &hostd{
		window: opts.ReplayWindow,
		log:    newEventLog[hdKey](opts.ReplayWindow, hostdCompared),
		conns:  map[string]*hdConn{},
		runs:   map[string]*hdRun{},
		inputs: map[string]hdRecorded{},
		sent:   map[string]*hdSent{},

		forwardedTo: map[string]int64{},
	}
}

func (r *hostd) opened(conn, rawURL string) {
	c := r.newConn()
	if role, path := hostdRoleFromURL(rawURL); role != hdUnknown {
		// Only the path: the query carries host_token or access_token.
		c.role, c.why = role, "URL path "+path
	}
	r.conns[conn] = c
}

func (r *hostd) closed(conn string) { delete(r.conns, conn) }

func (r *hostd) newConn() *hdConn {
	return &hdConn{last: map[string]int64{}, warned: map[string]bool{}, skipped: map[string]bool{}, forwarded: map[string]bool{}}
}

func (r *hostd) conn(id string) *hdConn {
	c, ok := r.conns[id]
	if !ok {
		c = r.newConn()
		r.conns[id] = c
	}
	return c
}

// hostdRoleFromURL reads the endpoint from a connection URL (absolute or
// just path and query), allowing a prefix such as /api/ws/host.
func hostdRoleFromURL(raw string) (hdRole, string) {
	if raw == "" {
		return hdUnknown, ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return hdUnknown, ""
	}
	p := "/" + strings.Trim(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/ws/host"):
		return hdHost, p
	case strings.HasSuffix(p, "/ws/app"):
		return hdApp, p
	}
	return hdUnknown, ""
}

// hostdRoleOf is the endpoint a message's type and direction belong to.
func hostdRoleOf(m *message) hdRole {
	_, event := hdEventData[m.Type]
	toServer := m.Frame.Dir == wire.ClientToServer
	switch {
	case event && toServer, !event && !toServer:
		return hdHost // host sends events; the server sends host commands and run.ack
	default:
		return hdApp // app sends commands; the server sends apps events
	}
}

func (r *hostd) observe(m *message) []Finding {
	c := r.conn(m.Frame.Conn)
	want := hostdRoleOf(m)
	switch {
	case c.role == hdUnknown:
		c.role = want
		c.why = fmt.Sprintf("inferred from frame %d (%s %s)", m.Frame.Index, m.Frame.Dir, m.Type)
	case c.role != want:
		return []Finding{r.wrongEndpoint(c, m)}
	}
	if _, event := hdEventData[m.Type]; event {
		return r.event(c, m)
	}
	switch {
	case m.Type == "run.ack":
		return r.ack(c, m)
	case m.Type == "run.send_input" && m.Frame.Dir == wire.ServerToClient:
		return r.forward(c, m)
	case m.Type == "run.send_input":
		return r.sendWS(m)
	}
	return nil
}

// unknown hears of a message whose type hostd-mvp.md does not define. When
// an app sends one naming a run (the later relay web app's run.subscribe
// {replace: true}, its rpc.* requests), it may have asked to be sent the
// run again: what the connection then receives of the run is a new view,
// which app-duplicate and seq-order do not compare with the earlier one.
// The spec lets the protocol grow ("Fields may be added over time"), so
// such a request must not turn the answer it asked for into errors.
func (r *hostd) unknown(m *message) {
	if m.Frame.Dir != wire.ClientToServer {
		return
	}
	run, ok := jsonx.String(m.Doc["run_id"])
	if !ok {
		return
	}
	c := r.conn(m.Frame.Conn)
	if c.role == hdHost {
		return
	}
	if c.views == nil || len(c.views) >= r.window {
		c.views = map[string]int{}
	}
	c.views[run]++
	delete(c.last, run)
}

func (r *hostd) wrongEndpoint(c *hdConn, m *message) Finding {
	var who string
	switch {
	case m.Frame.Dir == wire.ServerToClient && c.role == hdApp:
		who = "sent by the server to an app connection"
	case m.Frame.Dir == wire.ServerToClient:
		who = "sent by the server to a host connection"
	case c.role == hdApp:
		who = "sent by an app"
	default:
		who = "sent by a host"
	}
	fd := hdWrongEndpoint.fire(m, "%s %s (connection role %s: %s)", m.Type, who, c.role, c.why)
	fd.Pointer = "/type"
	fd.Expected = fmt.Sprintf("%s on %s connection", hostdFlow(c.role, m.Frame.Dir), c.role.article())
	fd.Actual = fmt.Sprintf("%s %s", m.Frame.Dir, m.Type)
	return fd
}

// hostdFlow names the messages that belong on one side of an endpoint.
func hostdFlow(role hdRole, dir wire.Direction) string {
	toServer := dir == wire.ClientToServer
	switch {
	case role == hdHost && toServer, role == hdApp && !toServer:
		return string(dir) + " events (" + hdEventList + ")"
	case role == hdHost:
		return "s2c run.ack, run.send_input or run.stop"
	default:
		return "c2s run.send_input or run.stop"
	}
}

// hostdAt is jsonx.Get yielding nil for an absent member.
func hostdAt(doc any, ptr string) any {
	v, _ := jsonx.Get(doc, ptr)
	return v
}

// hdKey names a run's event: run_id and seq.
type hdKey struct {
	run  string
	seq  int64
	view int // app connections: the run's view (a later run.subscribe), 0 before any
}

func hostdKey(run string, n int64) hdKey { return hdKey{run: run, seq: n} }

func (r *hostd) run(id string) *hdRun {
	st, ok := r.runs[id]
	if !ok {
		if len(r.runs) >= r.window {
			r.runs = map[string]*hdRun{} // bounded memory: forgetting only silences rules
		}
		st = &hdRun{}
		r.runs[id] = st
	}
	return st
}

// event judges a run event, host→server or server→app. Events without a
// run_id or a seq take part in no rule.
func (r *hostd) event(c *hdConn, m *message) []Finding {
	run, ok := jsonx.String(m.Doc["run_id"])
	if !ok {
		return nil
	}
	st := r.run(run)
	if c.role == hdHost && m.Type == "run.started" {
		st.started = true
	}
	seq, ok := jsonx.Int64(m.Doc["seq"])
	if !ok {
		return nil
	}
	key := hostdKey(run, seq)
	out, ordered := r.order(c, m, run, seq, key)

	cmp := viewAt(m, "", -1, m.Doc, m.Type)
	orig, differs := r.log.compare(key, m, cmp)
	if differs {
		out = append(out, replayMismatch(hdReplayMismatch, m, orig, "", fmt.Sprintf("run %q seq %d", run, seq)))
	}
	if c.role == hdHost && ordered {
		out = append(out, r.spool(c, m, st, run, seq)...)
		out = append(out, r.resume(c, m, st, run, seq)...)
	}
	if !st.hasSent || seq > st.maxSent {
		st.hasSent, st.maxSent = true, seq
	}
	if orig == nil && m.Type == "run.input" {
		out = append(out, r.recorded(m, run, seq)...)
	}
	return out
}

// order applies seq-order and, on app connections, app-duplicate. It
// reports whether the event was in order.
func (r *hostd) order(c *hdConn, m *message, run string, seq int64, key hdKey) ([]Finding, bool) {
	var out []Finding
	dup := false
	key.view = c.views[run]
	if c.role == hdApp {
		if c.delivered == nil {
			c.delivered = newRecent[hdKey, int64](r.window)
		}
		if first, seen := c.delivered.get(key); seen {
			dup = true
			fd := hdAppDuplicate.fire(m, "run %q seq %d delivered again on this app connection (first as frame %d)", run, seq, first)
			fd.Pointer = "/seq"
			fd.Expected = fmt.Sprintf("each (run_id, seq) once; seq %d already delivered", seq)
			fd.Actual = "seq " + strconv.FormatInt(seq, 10) + " again"
			fd.Related = []int64{first}
			out = append(out, fd)
		} else {
			c.delivered.put(key, m.Frame.Index)
		}
	}
	last, seen := c.last[run]
	if seen && seq <= last && !dup {
		fd := hdSeqOrder.fire(m, "run %q: seq %d after %d on this %s connection", run, seq, last, c.role)
		fd.Pointer = "/seq"
		fd.Expected = fmt.Sprintf("> %d", last)
		fd.Actual = strconv.FormatInt(seq, 10)
		out = append(out, fd)
	}
	if !seen || seq > last {
		if !seen && len(c.last) >= r.window {
			c.last = map[string]int64{}
		}
		c.last[run] = seq
	}
	return out, !seen || seq > last
}

// hostdCompared is the part of an event its copies must keep: type and the
// data members the spec defines. ts is left out because the spec does not
// say who stamps it (a server may re-stamp on relay, a host on replay);
// host_id and members the spec does not define are left out because a
// server may add or drop them ("unknown fields must be ignored"). run_id
// and seq are the key. part is the event's document and typ its type (a
// recipe: the log makes the view again from the payload for a diff).
func hostdCompared(part any, typ string) any {
	doc, _ := part.(map[string]any)
	out := map[string]any{"type": typ}
	data, present := doc["data"]
	if !present {
		return out
	}
	obj, ok := data.(map[string]any)
	if !ok {
		out["data"] = data
		return out
	}
	kept := map[string]any{}
	for _, k := range hdEventData[typ] {
		if v, ok := obj[k]; ok {
			kept[k] = v
		}
	}
	out["data"] = kept
	return out
}

// spool warns when a host re-sends, on a later connection, an event the
// server acknowledged before; once per run and connection.
func (r *hostd) spool(c *hdConn, m *message, st *hdRun, run string, seq int64) []Finding {
	if !st.hasAck || seq > st.ack || st.ackConn == m.Frame.Conn || c.warned[run] {
		return nil
	}
	if len(c.warned) >= r.window {
		c.warned = map[string]bool{}
	}
	c.warned[run] = true
	fd := hdSpoolAcked.fire(m, "run %q seq %d re-sent although run.ack (frame %d, connection %s) acknowledged up to %d; later re-sends of this run on this connection are not reported",
		run, seq, st.ackFrame, st.ackConn, st.ack)
	fd.Pointer = "/seq"
	fd.Expected = fmt.Sprintf("> %d (spool deleted up to last_seq)", st.ack)
	fd.Actual = strconv.FormatInt(seq, 10)
	fd.Related = []int64{st.ackFrame}
	return []Finding{fd}
}

// resume applies resume-unacked to a host event and notes the event as
// sent: a seq no run.ack covered, sent on an earlier connection and not
// again on this one, below the seq the host now sends, was skipped.
func (r *hostd) resume(c *hdConn, m *message, st *hdRun, run string, seq int64) []Finding {
	var out []Finding
	others := st.unackedBy[m.Frame.Conn] < len(st.unacked)
	for _, u := range st.unacked {
		if !others || u.seq >= seq || c.skipped[run] {
			break
		}
		if u.conn == m.Frame.Conn {
			continue
		}
		if len(c.skipped) >= r.window {
			c.skipped = map[string]bool{}
		}
		c.skipped[run] = true
		acked := "no run.ack of the run"
		if st.hasAck {
			acked = fmt.Sprintf("run.ack acknowledged up to %d", st.ack)
		}
		fd := hdResumeUnacked.fire(m, "run %q: the host sends seq %d on this connection without replaying seq %d (frame %d, connection %s), which %s; later skips of this run on this connection are not reported",
			run, seq, u.seq, u.frame, u.conn, strings.Replace(acked, "no run.ack", "no run.ack covered", 1))
		fd.Pointer = "/seq"
		fd.Expected = fmt.Sprintf("seq %d replayed first (still spooled: %s)", u.seq, acked)
		fd.Actual = strconv.FormatInt(seq, 10)
		fd.Related = []int64{u.frame}
		out = append(out, fd)
	}
	if st.hasAck && seq <= st.ack {
		return out
	}
	i, found := slices.BinarySearchFunc(st.unacked, seq, func(u hdSentSeq, s int64) int { return cmp.Compare(u.seq, s) })
	switch {
	case found:
		st.noteUnacked(st.unacked[i].conn, -1)
		st.noteUnacked(m.Frame.Conn, 1)
		st.unacked[i].conn, st.unacked[i].frame = m.Frame.Conn, m.Frame.Index
	case len(st.unacked) < r.window:
		st.unacked = slices.Insert(st.unacked, i, hdSentSeq{seq: seq, conn: m.Frame.Conn, frame: m.Frame.Index})
		st.noteUnacked(m.Frame.Conn, 1)
	}
	return out
}

// recorded applies input-duplicate to a run.input seen for the first time.
func (r *hostd) recorded(m *message, run string, seq int64) []Finding {
	id, ok := jsonx.String(hostdAt(m.Doc, "/data/input_id"))
	if !ok {
		return nil
	}
	k := run + "\x00" + id
	first, seen := r.inputs[k]
	if !seen {
		if len(r.inputs) >= r.window {
			r.inputs = map[string]hdRecorded{}
		}
		r.inputs[k] = hdRecorded{seq: seq, frame: m.Frame.Index}
		return nil
	}
	sends, at := r.sendsOf(run, id)
	fd := hdInputDuplicate.fire(m, "run %q records input_id %q again as seq %d (first recorded as seq %d, frame %d)%s", run, id, seq, first.seq, first.frame, sends)
	fd.Pointer = "/data/input_id"
	fd.Expected = fmt.Sprintf("input_id %s recorded once (seq %d)", id, first.seq)
	fd.Actual = fmt.Sprintf("recorded again as seq %d", seq)
	fd.Related = append([]int64{first.frame}, at...)
	return []Finding{fd}
}

// forward applies input-reforwarded to a run.send_input sent to a host.
func (r *hostd) forward(c *hdConn, m *message) []Finding {
	run, ok := jsonx.String(m.Doc["run_id"])
	if !ok {
		return nil
	}
	id, ok := jsonx.String(hostdAt(m.Doc, "/data/input_id"))
	if !ok {
		return nil
	}
	k := run + "\x00" + id
	if _, ok := r.forwardedTo[k]; !ok {
		if len(r.forwardedTo) >= r.window {
			r.forwardedTo = map[string]int64{}
		}
		r.forwardedTo[k] = m.Frame.Index
	}
	var why string
	if c.forwarded[k] {
		why = "already forwarded on this host connection"
	} else if rec, done := r.inputs[k]; done {
		why = fmt.Sprintf("already recorded by the host as run.input seq %d (frame %d)", rec.seq, rec.frame)
	}
	if !c.forwarded[k] {
		if len(c.forwarded) >= r.window {
			c.forwarded = map[string]bool{}
		}
		c.forwarded[k] = true
	}
	if why == "" {
		return nil
	}
	fd := hdInputReforwarded.fire(m, "run.send_input of run %q input_id %q forwarded to the host again: %s", run, id, why)
	fd.Pointer = "/data/input_id"
	fd.Expected = "each input_id forwarded to a host connection once, until the host records it"
	fd.Actual = why
	return []Finding{fd}
}

// ack applies ack-regress and ack-unsent to a run.ack sent to a host.
func (r *hostd) ack(c *hdConn, m *message) []Finding {
	run, ok := jsonx.String(hostdAt(m.Doc, "/data/run_id"))
	if !ok {
		return nil
	}
	last, ok := jsonx.Int64(hostdAt(m.Doc, "/data/last_seq"))
	if !ok {
		return nil
	}
	st := r.run(run)
	var out []Finding
	if st.hasAck && last < st.ack {
		fd := hdAckRegress.fire(m, "run.ack of run %q acknowledges last_seq %d after %d (frame %d)", run, last, st.ack, st.ackFrame)
		fd.Pointer = "/data/last_seq"
		fd.Expected = fmt.Sprintf(">= %d", st.ack)
		fd.Actual = strconv.FormatInt(last, 10)
		fd.Related = []int64{st.ackFrame}
		out = append(out, fd)
	}
	if st.started && (!st.hasSent || last > st.maxSent) {
		fd := hdAckUnsent.fire(m, "run.ack of run %q acknowledges last_seq %d, beyond any seq the host sent", run, last)
		fd.Pointer = "/data/last_seq"
		fd.Expected = "no run.ack: the host sent no event of this run with a seq"
		if st.hasSent {
			fd.Expected = fmt.Sprintf("<= %d, the highest seq the host sent for the run", st.maxSent)
		}
		fd.Actual = strconv.FormatInt(last, 10)
		out = append(out, fd)
	}
	if !st.hasAck || last > st.ack {
		st.hasAck, st.ack, st.ackConn, st.ackFrame = true, last, m.Frame.Conn, m.Frame.Index
		n, _ := slices.BinarySearchFunc(st.unacked, last+1, func(u hdSentSeq, s int64) int { return cmp.Compare(u.seq, s) })
		for _, u := range st.unacked[:n] {
			st.noteUnacked(u.conn, -1)
		}
		st.unacked = slices.Delete(st.unacked, 0, n)
	}
	return out
}
