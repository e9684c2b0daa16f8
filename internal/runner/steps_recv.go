package runner

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cucumber/godog"
)

// duration reads a step's time ("2s", "500ms"), scaled; def when empty.
func (w *World) duration(s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return w.to.scaled(def), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, harnessf("duration %q: write it as 500ms, 2s, 1m", s)
	}
	return w.to.scaled(d), nil
}

// clientWithin is a step's client and how long it waits: the step's own
// time, or def.
func (w *World) clientWithin(name, within string, def time.Duration) (*client, time.Duration, error) {
	c, err := w.client(name)
	if err != nil {
		return nil, 0, err
	}
	d, err := w.duration(within, def)
	return c, d, err
}

// expect waits for the first message of type typ that satisfies want (any
// when nil), consuming everything before it.
func (w *World) expect(ctx context.Context, name, typ, within string, want any) error {
	c, d, err := w.clientWithin(name, within, w.to.Receive)
	if err != nil {
		return err
	}
	from := c.cursor
	var near []string
	m, err := c.waitFor(ctx, d, func(m message) (bool, bool, error) {
		if !typeIs(m.typ, typ) {
			return true, false, nil
		}
		if want != nil {
			if p, ok := subset(want, m.doc, ""); !ok {
				got, _ := lookup(m.doc, p)
				near = append(near, fmt.Sprintf("%s at %s was %s", typ, p, show(got)))
				return true, false, nil
			}
		}
		return true, true, nil
	})
	if err != nil {
		expected := fmt.Sprintf("%q within %s", typ, d)
		if want != nil {
			expected = fmt.Sprintf("%q matching %s within %s", typ, show(want), d)
		}
		return w.missed(err, expected, typ, c, from, near)
	}
	w.aboutFrame(m.index, leafPointers(want, "")...)
	w.last, w.lastDesc, w.lastIndex = m.doc, m.typ, m.index
	return nil
}

// missed turns a wait for a message of type named that failed into a
// failure naming what came instead (periodic messages of other types left
// out: how many ticked is not what happened).
func (w *World) missed(err error, expected, named string, c *client, from int, near []string) error {
	if isHarness(err) {
		return err
	}
	actual := "received " + c.recent(from, named)
	if len(near) > 0 {
		actual += "; not matching: " + strings.Join(near[max(0, len(near)-3):], "; ")
	}
	var closed *closedError
	if errors.As(err, &closed) {
		actual += "; then " + closed.Error()
	}
	actual += w.openingHint(c)
	return failf(expected, actual, "client %q did not receive the expected message", c.name)
}

func stepReceive(ctx context.Context, name, typ, within string) error {
	return worldOf(ctx).expect(ctx, name, typ, within, nil)
}

func stepReceiveWith(ctx context.Context, name, typ, within string, doc *godog.DocString) error {
	w := worldOf(ctx)
	text, err := expand(doc.Content, w.vars)
	if err != nil {
		return err
	}
	want, err := decodeJSON(text)
	if err != nil {
		return err
	}
	return w.expect(ctx, name, typ, within, want)
}

// stepReceiveInOrder waits for each row in turn: a type, and optionally
// a JSON object the message must contain. Other messages may come in
// between (a run_status "starting" before the first assistant_text); the
// rows must arrive as a subsequence, in this order.
func stepReceiveInOrder(ctx context.Context, name string, table *godog.Table) error {
	w := worldOf(ctx)
	for i, row := range table.Rows {
		if len(row.Cells) == 0 {
			continue
		}
		typ := strings.TrimSpace(row.Cells[0].Value)
		var want any
		if len(row.Cells) > 1 && strings.TrimSpace(row.Cells[1].Value) != "" {
			text, err := expand(row.Cells[1].Value, w.vars)
			if err != nil {
				return err
			}
			if want, err = decodeJSON(text); err != nil {
				return err
			}
		}
		if err := w.expect(ctx, name, typ, "", want); err != nil {
			var f *Failure
			if errors.As(err, &f) {
				f.Msg += fmt.Sprintf(" (row %d of %d)", i+1, len(table.Rows))
			}
			return err
		}
	}
	return nil
}

// stepReceiveNo listens for a while and fails when a message of the type
// arrives. It consumes nothing, so later steps still see every message.
func stepReceiveNo(ctx context.Context, name, typ, within string) error {
	return worldOf(ctx).quiet(ctx, name, within, func(m message) bool { return m.typ == typ }, fmt.Sprintf("no %q", typ))
}

// stepReceiveNothing listens for a while and fails on any message but the
// dialect's periodic ones (periodic.go): a heartbeat that ticks meanwhile
// is not an answer to anything.
func stepReceiveNothing(ctx context.Context, name, within string) error {
	w := worldOf(ctx)
	return w.quiet(ctx, name, within, func(m message) bool { return !w.unnamedPeriodic(m, "") }, "no message")
}

func (w *World) quiet(ctx context.Context, name, within string, bad func(message) bool, expected string) error {
	c, d, err := w.clientWithin(name, within, w.to.Quiet)
	if err != nil {
		return err
	}
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return harnessf("scenario stopped: %v", ctx.Err())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.msgs[c.cursor:] {
		if bad(m) {
			w.aboutFrame(m.index)
			return failf(expected+" within "+d.String(), "received "+describeMsg(m)+" "+show(m.doc),
				"client %q received an unexpected message", c.name)
		}
	}
	return nil
}

// stepHasReceived counts every message of a type the connection received
// so far (consumed or not), optionally those whose member meets a
// predicate: how a scenario proves "exactly once" after a replay. With
// "within D" it first waits up to D for the count to reach the bound
// (exactly, or at least, N): a server may emit two messages in either
// order, and a ping barrier does not order them (the server can answer
// the ping before it queues the second; the reference server does).
func stepHasReceived(ctx context.Context, name, bound, count, typ, within, path, pred string) error {
	w := worldOf(ctx)
	c, err := w.client(name)
	if err != nil {
		return err
	}
	want := 0
	if count != "no" {
		want, _ = strconv.Atoi(count)
	}
	var p predicate
	if path != "" {
		text, err := expand(pred, w.vars)
		if err != nil {
			return err
		}
		if p, err = parsePredicate(text); err != nil {
			return err
		}
	}
	if within != "" && bound != "at most " {
		d, err := w.duration(within, 0)
		if err != nil {
			return err
		}
		if err := c.waitUntil(ctx, d, func() bool { return len(c.matching(typ, path, p)) >= want }); err != nil {
			return err
		}
	}
	c.mu.Lock()
	matched := c.matching(typ, path, p)
	c.mu.Unlock()
	for _, m := range matched {
		if path != "" {
			w.aboutFrame(m.index, memberPointer(path))
		} else {
			w.aboutFrame(m.index)
		}
	}
	got := len(matched)
	ok := got == want
	switch bound {
	case "at least ":
		ok = got >= want
	case "at most ":
		ok = got <= want
	}
	if !ok {
		expected := fmt.Sprintf("%s%d %q", bound, want, typ)
		if within != "" {
			expected += " within " + within
		}
		if path != "" {
			expected += fmt.Sprintf(" where %q %s", path, p.text)
		}
		return failf(expected, fmt.Sprintf("%d", got), "client %q received a wrong number of messages", c.name)
	}
	return nil
}

// matching lists the messages of type typ received so far whose member at
// path (when given) meets p. c.mu held.
func (c *client) matching(typ, path string, p predicate) []message {
	var out []message
	for _, m := range c.msgs {
		if m.typ != typ {
			continue
		}
		if path != "" {
			v, ok := lookup(m.doc, path)
			if pass, _ := p.test(v, ok); !pass {
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

func stepIsClosed(ctx context.Context, name, code, within string) error {
	w := worldOf(ctx)
	c, d, err := w.clientWithin(name, within, w.to.Receive)
	if err != nil {
		return err
	}
	from := c.cursor
	_, err = c.waitFor(ctx, d, func(message) (bool, bool, error) { return true, false, nil })
	var closed *closedError
	if !errors.As(err, &closed) {
		if isHarness(err) {
			return err
		}
		return failf("the connection closed", "still open after "+d.String()+", received "+c.recent(from, ""), "client %q was not closed", c.name)
	}
	delete(w.clients, c.name)
	if code != "" && strconv.Itoa(closed.code) != code {
		return failf("close code "+code, closed.Error(), "client %q was closed with another code", c.name)
	}
	return nil
}

func stepStaysConnected(ctx context.Context, name, within string) error {
	w := worldOf(ctx)
	c, d, err := w.clientWithin(name, within, w.to.Quiet)
	if err != nil {
		return err
	}
	select {
	case <-time.After(d):
	case <-c.done:
		c.mu.Lock()
		code, reason := c.code, c.reason
		c.mu.Unlock()
		return failf("the connection open for "+d.String(), closeText(code, reason), "client %q was closed", c.name)
	case <-ctx.Done():
		return harnessf("scenario stopped: %v", ctx.Err())
	}
	return nil
}

// stepIts tests a member of the last message (or HTTP response body).
func stepIts(ctx context.Context, path, pred string) error {
	w := worldOf(ctx)
	if w.lastDesc == "" {
		return harnessf("\"its\" needs a message or HTTP response received before")
	}
	text, err := expand(pred, w.vars)
	if err != nil {
		return err
	}
	p, err := parsePredicate(text)
	if err != nil {
		return err
	}
	w.aboutFrame(w.lastIndex, memberPointer(path))
	v, ok := lookup(w.last, path)
	if pass, expected := p.test(v, ok); !pass {
		return failf(expected, describeValue(v, ok), "%s: %q is wrong", w.lastDesc, path)
	}
	return nil
}

func stepRememberIts(ctx context.Context, path, name string) error {
	w := worldOf(ctx)
	if w.lastDesc == "" {
		return harnessf("\"its\" needs a message or HTTP response received before")
	}
	w.aboutFrame(w.lastIndex, memberPointer(path))
	v, ok := lookup(w.last, path)
	if !ok {
		return failf(fmt.Sprintf("a member %q", path), "absent", "%s has no %q to remember", w.lastDesc, path)
	}
	w.vars[name] = varText(v)
	return nil
}

func stepRemember(ctx context.Context, value, name string) error {
	w := worldOf(ctx)
	v, err := expand(value, w.vars)
	if err != nil {
		return err
	}
	w.vars[name] = v
	return nil
}

func stepWait(ctx context.Context, d string) error {
	w := worldOf(ctx)
	dur, err := w.duration(d, 0)
	if err != nil {
		return err
	}
	select {
	case <-time.After(dur):
		return nil
	case <-ctx.Done():
		return harnessf("scenario stopped: %v", ctx.Err())
	}
}

// stepSkip waits and then consumes everything received so far: the grace
// a spec gives a server to act on a request (a cancel lands between two
// chunks already on the wire), so that a later "receives no X" judges only
// what the server sent after it had that moment. "I wait" consumes nothing.
func stepSkip(ctx context.Context, name, d string) error {
	if err := stepWait(ctx, d); err != nil {
		return err
	}
	c, err := worldOf(ctx).client(name)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.cursor = len(c.msgs)
	c.mu.Unlock()
	return nil
}

// stepFirstReceived waits (Receive timeout) for the connection's first
// message and tests its type; it consumes nothing and makes the first
// message the one "its" refers to. "receives T" cannot say "first": it
// skips whatever came before T. A periodic message (periodic.go) is not
// the first unless the step names its type: whether a tick beats the
// server's greeting depends only on when the scenario connected.
func stepFirstReceived(ctx context.Context, name, typ string) error {
	w := worldOf(ctx)
	c, err := w.client(name)
	if err != nil {
		return err
	}
	first, ok := c.firstBut(w, typ)
	if !ok {
		d := w.to.scaled(w.to.Receive)
		from := c.cursor
		// match never consumes: it only waits for a message to exist
		if _, err := c.waitFor(ctx, d, func(m message) (bool, bool, error) {
			return false, !w.unnamedPeriodic(m, typ), nil
		}); err != nil {
			return w.missed(err, fmt.Sprintf("a first message %q within %s", typ, d), typ, c, from, nil)
		}
		first, _ = c.firstBut(w, typ)
	}
	w.aboutFrame(first.index)
	w.lastIndex = first.index
	if first.typ != typ {
		return failf(fmt.Sprintf("%q first", typ), describeMsg(first)+" "+show(first.doc),
			"client %q received another message first", c.name)
	}
	w.last, w.lastDesc = first.doc, first.typ
	return nil
}

// firstBut is the first message the connection received that is not a
// periodic message of a type other than named.
func (c *client) firstBut(w *World, named string) (message, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.msgs {
		if !w.unnamedPeriodic(m, named) {
			return m, true
		}
	}
	return message{}, false
}
