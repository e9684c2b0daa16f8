package check

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/jsonx"
)

// The generic stateful rules of a protocol imported from an AsyncAPI
// document that names no built-in rule set: what AsyncAPI says (a reply
// carries the correlationId of its request) and what the x-wsconform
// extension adds (the ordering member and its scope, what a replay must
// equal). They are parameterised by the dialect's manifest, so a protocol
// team gets them without Go code. Their severity follows the evidence the
// document gives: an ordering without stated evidence and a quote is a
// warning, never a failed MUST.
var (
	ruleProtocolOrder = Rule{ID: "protocol.order", Severity: Error, Evidence: Stated, Dialect: ProtocolRules,
		Spec:    "x-wsconform.ordering of the protocol's AsyncAPI document",
		Summary: "Within a connection the ordering member increases per scope; a value seen before is a re-delivery, judged by protocol.replay-equal."}
	ruleProtocolReplay = Rule{ID: "protocol.replay-equal", Severity: Error, Evidence: Stated, Dialect: ProtocolRules,
		Spec:    "x-wsconform.replay of the protocol's AsyncAPI document",
		Summary: "An event delivered again (same ordering value and scope) equals the original, apart from the members x-wsconform.replay.ignore names."}
	ruleProtocolReplyUnmatched = Rule{ID: "protocol.reply-unmatched", Severity: Error, Evidence: Stated, Dialect: ProtocolRules,
		Spec:    "AsyncAPI 3 operation reply with correlationId",
		Quote:   `AsyncAPI 3.0 §Correlation ID Object: "An object that specifies an identifier at design time that can used for message tracing and correlation."`,
		Summary: "A reply carries the correlation id of a request sent before it on the same connection."}
)

// ProtocolRules is the Dialect of the generic protocol rules.
const ProtocolRules = "protocol"

// protocolRules are kept apart from the rule registry: no requirement
// registry holds them (the document's extension does), and the built-in
// dialects' catalogues do not list them.
var protocolRules = map[string]Rule{}

func init() {
	for _, r := range []Rule{ruleProtocolOrder, ruleProtocolReplay, ruleProtocolReplyUnmatched} {
		protocolRules[r.ID] = r
	}
}

// ProtocolRuleList returns the generic protocol rules, sorted by id.
func ProtocolRuleList() []Rule {
	out := make([]Rule, 0, len(protocolRules))
	for _, r := range protocolRules {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// protocolSet is the ruleSet of an imported protocol.
type protocolSet struct {
	d      *dialect.Dialect
	order  Rule
	replay Rule
	// last is the newest ordering value per connection and scope.
	last map[string]map[string]int64
	log  *eventLog[string]
	// pending holds the open requests of each connection by pair and id.
	pending map[string]map[string]pendingReq
}

type pendingReq struct {
	frame int64
	typ   string
}

func newProtocolSet(d *dialect.Dialect, opts Options) *protocolSet {
	ignore := d.Replay.Ignore
	// the compared view: the message less x-wsconform.replay.ignore
	view := func(part any, _ string) any { return without(part, ignore) }
	p := &protocolSet{d: d, order: ruleProtocolOrder, replay: ruleProtocolReplay,
		last: map[string]map[string]int64{}, log: newEventLog[string](opts.ReplayWindow, view),
		pending: map[string]map[string]pendingReq{}}
	p.order = withEvidence(p.order, d.Ordering.Evidence, d.Ordering.Quote, d.Ordering.Spec)
	p.replay = withEvidence(p.replay, d.Ordering.Evidence, d.Ordering.Quote, d.Replay.Spec)
	return p
}

// withEvidence holds a generic rule to the evidence the document gives.
func withEvidence(r Rule, ev, quote, spec string) Rule {
	r.Evidence, r.Quote = Evidence(ev), quote
	if spec != "" {
		r.Spec = spec
	}
	if !r.Evidence.Valid() {
		r.Evidence = Interpretation
	}
	if r.Evidence != Stated || quote == "" {
		r.Severity = Warning
	}
	return r
}

func (p *protocolSet) opened(conn, _ string) {
	p.last[conn] = map[string]int64{}
	p.pending[conn] = map[string]pendingReq{}
}

func (p *protocolSet) observe(m *message) []Finding {
	var out []Finding
	out = append(out, p.ordering(m)...)
	out = append(out, p.pairing(m)...)
	return out
}

// ordering judges the ordering member of a message, if it has one.
func (p *protocolSet) ordering(m *message) []Finding {
	o := p.d.Ordering
	if o.Pointer == "" || (o.Direction != "" && o.Direction != m.Frame.Dir) || (len(o.Types) > 0 && !contains(o.Types, m.Type)) {
		return nil
	}
	raw, ok := jsonx.Get(m.Doc, o.Pointer)
	if !ok {
		return nil
	}
	v, ok := integer(raw)
	if !ok {
		return nil // the schema judges the member's type
	}
	scope := ""
	if o.Scope != "" {
		if s, ok := jsonx.Get(m.Doc, o.Scope); ok {
			scope = fmt.Sprint(s)
		}
	}
	key := scope + "\x00" + strconv.FormatInt(v, 10)
	view := viewAt(m, "", -1, m.Doc, "")
	orig, differs := p.log.compare(key, m, view)
	if orig != nil {
		if differs {
			return []Finding{replayMismatch(p.replay, m, orig, "", fmt.Sprintf("%s %d", o.Pointer, v))}
		}
		return nil // a faithful re-delivery (a replay)
	}
	last := p.last[m.Frame.Conn]
	if last == nil {
		last = map[string]int64{}
		p.last[m.Frame.Conn] = last
	}
	prev, seen := last[scope]
	last[scope] = v
	if seen && v <= prev {
		fd := p.order.fire(m, "%s went from %d to %d", o.Pointer, prev, v)
		fd.Pointer, fd.Expected, fd.Actual = o.Pointer, fmt.Sprintf("greater than %d", prev), strconv.FormatInt(v, 10)
		return []Finding{fd}
	}
	return nil
}

// pairing opens a request and matches a reply to it.
func (p *protocolSet) pairing(m *message) []Finding {
	var out []Finding
	open := p.pending[m.Frame.Conn]
	if open == nil {
		open = map[string]pendingReq{}
		p.pending[m.Frame.Conn] = open
	}
	for i, pr := range p.d.Pairs {
		if pr.Request == m.Type && pr.RequestDir == m.Frame.Dir {
			if id, ok := correlation(m.Doc, pr.RequestID); ok {
				open[strconv.Itoa(i)+"\x00"+id] = pendingReq{frame: m.Frame.Index, typ: m.Type}
			}
		}
		if m.Frame.Dir == pr.RequestDir || !contains(pr.Replies, m.Type) {
			continue
		}
		id, ok := correlation(m.Doc, pr.ReplyID)
		if !ok {
			continue // the schema says whether the id is required
		}
		k := strconv.Itoa(i) + "\x00" + id
		if _, ok := open[k]; ok {
			delete(open, k)
			continue
		}
		fd := ruleProtocolReplyUnmatched.fire(m, "%s answers %s %q, which no %s on this connection sent", m.Type, pr.ReplyID, id, pr.Request)
		fd.Pointer, fd.Expected, fd.Actual = pr.ReplyID, "the id of an open "+pr.Request, fmt.Sprintf("%q", id)
		out = append(out, fd)
	}
	return out
}

// closed forgets a connection's state. A request left open is not a
// finding: a connection that ends mid-request is often the peer's choice.
func (p *protocolSet) closed(conn string) {
	delete(p.last, conn)
	delete(p.pending, conn)
}

func correlation(doc map[string]any, ptr string) (string, bool) {
	if ptr == "" {
		return "", false
	}
	v, ok := jsonx.Get(doc, ptr)
	if !ok || v == nil {
		return "", false
	}
	if s, isStr := v.(string); isStr {
		return s, true
	}
	return string(jsonx.Canonical(v)), true
}

func integer(v any) (int64, bool) {
	switch n := v.(type) {
	case interface{ Int64() (int64, error) }:
		i, err := n.Int64()
		return i, err == nil
	case float64:
		if n == float64(int64(n)) {
			return int64(n), true
		}
	case int64:
		return n, true
	case int:
		return int64(n), true
	}
	return 0, false
}

// RuleSetKnown reports whether name is a built-in set of stateful rules
// that an imported protocol may name (x-wsconform.ruleSet).
func RuleSetKnown(name string) bool {
	_, ok := ruleSets[name]
	return ok
}
