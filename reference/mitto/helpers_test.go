package mitto_test

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/reference/mitto"
	"github.com/wsconform/wsconform/reference/reftest"
	"github.com/wsconform/wsconform/reference/server"
)

// start runs a mitto server for a test: slow chunks fast enough for a
// quick test, no heartbeat.
func start(t testing.TB, cfg server.Config) *reftest.Server {
	t.Helper()
	return startOpts(t, reftest.Options{Config: cfg})
}

func startOpts(t testing.TB, opts reftest.Options) *reftest.Server {
	t.Helper()
	if opts.Config.Slow == 0 {
		opts.Config.Slow = 20 * time.Millisecond
	}
	if opts.Config.Heartbeat == 0 {
		opts.Config.Heartbeat = -1
	}
	srv := reftest.Start(t, "mitto", mitto.New, opts)
	if !opts.ExpectFindings {
		// Stricter than reftest: no warning either from the server's frames.
		t.Cleanup(func() {
			for _, f := range srv.Findings() {
				if f.Dir == wire.ServerToClient {
					t.Errorf("reference server frame has a finding: %s", reftest.Describe(f))
				}
			}
		})
	}
	return srv
}

// join dials session id and returns the client with its connected
// message. Its frames go to the check session named after the session.
func join(t testing.TB, srv *reftest.Server, id string, opts ...reftest.DialOption) (*reftest.Client, reftest.Msg) {
	t.Helper()
	c := srv.Dial(t, "/ws?session_id="+id, append([]reftest.DialOption{reftest.Group(id)}, opts...)...)
	return c, c.Expect("connected")
}

func frame(typ string, data map[string]any) map[string]any {
	return map[string]any{"type": typ, "data": data}
}

func prompt(id, text string) map[string]any {
	return frame("prompt", map[string]any{"message": text, "prompt_id": id})
}

func keepalive() map[string]any {
	return frame("keepalive", map[string]any{"client_time": 1718000000123})
}

func answer(req, option string) map[string]any {
	return frame("ui_prompt_answer", map[string]any{"request_id": req, "option_id": option, "label": option})
}

// reply joins the html of the agent_message events among msgs, unescaped.
func reply(msgs []reftest.Msg) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.Type == "agent_message" {
			b.WriteString(html.UnescapeString(m.Str("/data/html")))
		}
	}
	return b.String()
}

// types lists the message types of msgs.
func types(msgs []reftest.Msg) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Type
	}
	return out
}

// liveSeqs lists data.seq of the messages that carry one.
func liveSeqs(msgs []reftest.Msg) []int64 {
	var out []int64
	for _, m := range msgs {
		if m.Has("/data/seq") {
			out = append(out, m.Int("/data/seq"))
		}
	}
	return out
}

// ask sends text as a prompt and returns everything up to and including
// the first message of type until.
func ask(c *reftest.Client, id, text, until string) []reftest.Msg {
	c.Send(prompt(id, text))
	return c.Until(until)
}

// expectError waits for an error and checks its code.
func expectError(t *testing.T, c *reftest.Client, code string) reftest.Msg {
	t.Helper()
	m := c.Expect("error")
	if got := m.Str("/data/code"); got != code {
		t.Fatalf("error code %q, want %q: %s", got, code, m)
	}
	if m.Str("/data/message") == "" {
		t.Fatalf("error without message: %s", m)
	}
	return m
}

func boolAt(t *testing.T, m reftest.Msg, ptr string) bool {
	t.Helper()
	v, ok := m.Get(ptr)
	b, isBool := v.(bool)
	if !ok || !isBool {
		t.Fatalf("%s is not a boolean in %s", ptr, m)
	}
	return b
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// mustGet returns the raw JSON text of a number at ptr.
func mustGet(t *testing.T, m reftest.Msg, ptr string) string {
	t.Helper()
	v, ok := m.Get(ptr)
	if !ok {
		t.Fatalf("%s missing in %s", ptr, m)
	}
	return fmt.Sprint(v)
}
