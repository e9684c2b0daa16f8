package asyncapi

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/wire"
)

// tickerDoc is a protocol with an ordered event stream and a request/reply
// pair, whose x-wsconform ordering is given by ext.
const tickerDoc = `asyncapi: 3.0.0
info: {title: Ticker %d, version: "1"}
channels:
  t:
    address: /t
    messages:
      tick: {$ref: '#/components/messages/tick'}
      get: {$ref: '#/components/messages/get'}
      got: {$ref: '#/components/messages/got'}
operations:
  tick: {action: send, channel: {$ref: '#/channels/t'}, messages: [{$ref: '#/channels/t/messages/tick'}]}
  get:
    action: receive
    channel: {$ref: '#/channels/t'}
    messages: [{$ref: '#/channels/t/messages/get'}]
    reply: {channel: {$ref: '#/channels/t'}, messages: [{$ref: '#/channels/t/messages/got'}]}
components:
  messages:
    tick:
      name: tick
      payload: {type: object, required: [type, n, feed], properties: {type: {const: tick}, n: {type: integer}, feed: {type: string}, at: {type: string}}}
    get:
      name: get
      correlationId: {location: '$message.payload#/id'}
      payload: {type: object, properties: {type: {const: get}, id: {type: string}}}
    got:
      name: got
      correlationId: {location: '$message.payload#/re'}
      payload: {type: object, properties: {type: {const: got}, re: {type: string}}}
x-wsconform:
%s
`

var tickers atomic.Int64

// TestGenericRules: the rules a document without a built-in rule set gets,
// driven by its ordering (pointer, scope, types, evidence) and its
// correlationIds.
func TestGenericRules(t *testing.T) {
	t.Parallel()
	const stated = `  ordering: {pointer: /n, scope: /feed, direction: s2c, evidence: stated, quote: "n counts up per feed"}
  replay: {ignore: [/at]}`
	tick := func(feed string, n int, at string) string {
		return fmt.Sprintf(`{"type":"tick","feed":%q,"n":%d,"at":%q}`, feed, n, at)
	}
	type frame struct {
		conn string
		dir  wire.Direction
		text string
	}
	s2c := func(conn, text string) frame { return frame{conn, wire.ServerToClient, text} }
	c2s := func(conn, text string) frame { return frame{conn, wire.ClientToServer, text} }
	tests := []struct {
		name   string
		ext    string
		frames []frame
		want   []string // rule severity pointer, in order
	}{
		{"in order per feed", stated, []frame{s2c("c1", tick("a", 1, "t1")), s2c("c1", tick("b", 1, "t1")), s2c("c1", tick("a", 2, "t2"))}, nil},
		{"backwards in a feed", stated, []frame{s2c("c1", tick("a", 1, "t1")), s2c("c1", tick("a", 3, "t1")), s2c("c1", tick("a", 2, "t3"))},
			[]string{"protocol.order error /n"}},
		{"backwards without stated evidence is a warning", "  ordering: {pointer: /n, scope: /feed}",
			[]frame{s2c("c1", tick("a", 2, "t")), s2c("c1", tick("a", 1, "t"))}, []string{"protocol.order warning /n"}},
		{"a faithful replay on a new connection", stated,
			[]frame{s2c("c1", tick("a", 1, "t1")), s2c("c1", tick("a", 2, "t2")), s2c("c2", tick("a", 1, "later")), s2c("c2", tick("a", 2, "later"))}, nil},
		{"an altered replay", stated,
			[]frame{s2c("c1", tick("a", 1, "t1")), s2c("c2", `{"type":"tick","feed":"a","n":1,"at":"t1","extra":true}`)},
			[]string{"protocol.replay-equal error /extra"}},
		{"a reply to a request", stated, []frame{c2s("c1", `{"type":"get","id":"q1"}`), s2c("c1", `{"type":"got","re":"q1"}`)}, nil},
		{"a reply to nothing", stated, []frame{c2s("c1", `{"type":"get","id":"q1"}`), s2c("c1", `{"type":"got","re":"q2"}`)},
			[]string{"protocol.reply-unmatched error /re"}},
		{"a reply on another connection", stated, []frame{c2s("c1", `{"type":"get","id":"q1"}`), s2c("c2", `{"type":"got","re":"q1"}`)},
			[]string{"protocol.reply-unmatched error /re"}},
		{"a second reply", stated, []frame{c2s("c1", `{"type":"get","id":"q1"}`), s2c("c1", `{"type":"got","re":"q1"}`), s2c("c1", `{"type":"got","re":"q1"}`)},
			[]string{"protocol.reply-unmatched error /re"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc := fmt.Sprintf(tickerDoc, tickers.Add(1), tt.ext)
			p, err := Parse("ticker.yaml", []byte(doc), nil)
			if err != nil {
				t.Fatal(err)
			}
			s := check.NewSession(p.Dialect, check.Options{})
			var got []string
			for i, f := range tt.frames {
				for _, fd := range s.Observe(wire.Frame{Conn: f.conn, Dir: f.dir, Op: wire.OpText, Index: int64(i + 1), Payload: []byte(f.text)}) {
					got = append(got, fmt.Sprintf("%s %s %s", fd.Rule, fd.Severity, fd.Pointer))
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings %q, want %q", got, tt.want)
			}
		})
	}
}

// TestGenericRulesAreStateful: the generic rules judge the order and
// pairing of frames, not one frame by itself, and the catalogue knows them.
func TestGenericRulesAreStateful(t *testing.T) {
	t.Parallel()
	for _, r := range check.ProtocolRuleList() {
		if check.Stateless(r.ID) {
			t.Errorf("%s is stateless", r.ID)
		}
		if got, ok := check.Lookup(r.ID); !ok || got.ID != r.ID {
			t.Errorf("Lookup(%s) = %v, %v", r.ID, got.ID, ok)
		}
	}
}
