package replay

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/reference/server"
	"github.com/wsconform/wsconform/reports"
)

// refQuery are the credentials a replay against the reference server
// gives in place of the redacted ones.
var refQuery = map[string]string{"host_token": server.DefaultAuth.HostToken}

// replayAgainst replays a recording against srvURL.
func replayAgainst(t *testing.T, rec []byte, srvURL string, opts Options) *Result {
	t.Helper()
	p, err := Read(bytes.NewReader(rec), "")
	if err != nil {
		t.Fatalf("read recording: %v", err)
	}
	opts.Against = srvURL
	if opts.Query == nil {
		opts.Query = map[string]string{}
	}
	for k, v := range refQuery {
		opts.Query[k] = v
	}
	if p.Dialect == "hostd" && opts.Query["token"] == "" {
		tok, err := Login(context.Background(), srvURL, server.DefaultAuth.User+":"+server.DefaultAuth.Password, nil)
		if err != nil {
			t.Fatalf("login: %v", err)
		}
		opts.Query["token"] = tok
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*testTimeout)
	defer cancel()
	res, err := Run(ctx, p, opts)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	return res
}

// describe renders a result for a failure message.
func describe(res *Result) string {
	var sb strings.Builder
	for _, d := range res.Diffs {
		fmt.Fprintf(&sb, "%s → %s matched=%v differs=%d %s\n", d.Conn, d.Replayed, d.Matched, d.Differs(), d.Error)
		for _, r := range d.Rows {
			if r.Op == reports.DiffSame {
				continue
			}
			fmt.Fprintf(&sb, "   %s rec=%s new=%s %v\n", r.Op, short(r.Recorded), short(r.Replayed), r.Members)
		}
	}
	for _, s := range res.Sessions {
		for _, f := range s.Findings {
			fmt.Fprintf(&sb, "  finding %s %s: %s\n", f.Severity, f.Rule, f.Message)
		}
	}
	for _, n := range res.Notes {
		fmt.Fprintf(&sb, "  note: %s\n", n)
	}
	return sb.String()
}

func short(f *reports.Frame) string {
	if f == nil {
		return "-"
	}
	p := f.Payload
	if len(p) > 120 {
		p = p[:120] + "…"
	}
	return fmt.Sprintf("%s#%d %s %s", f.Conn, f.Index, f.Type, p)
}

// errorFindings lists the error findings of the judged sessions.
func errorFindings(res *Result) []string {
	var out []string
	for _, s := range res.Sessions {
		for _, f := range s.Findings {
			if f.Severity >= check.Error {
				out = append(out, f.Rule)
			}
		}
	}
	return out
}

// scenarios are, per dialect, the runner scenarios recorded: ordinary
// flows, several connections, and a reconnect with resume.
var scenarios = []struct{ dialect, tags string }{
	{"minicodex", "@id:minicodex.resume.replay-after-refresh,@id:minicodex.send.turn"},
	{"hostd", "@id:hostd.replay.spooled-while-offline"},
	{"myagent", "@id:myagent.resume.replay-keeps-seq,@id:myagent.pipeline.full-order"},
	{"mitto", "@id:mitto.prompt.second-client-sees-turn,@id:mitto.load.after-seq"},
	{"coworker", "@id:coworker.turn.tool-call,@id:coworker.turn.normal-conversation"},
}

// TestReplayFresh: a session recorded through the proxy in front of the
// reference server replays against a fresh reference server with no diff
// and no error finding, for every dialect.
func TestReplayFresh(t *testing.T) {
	t.Parallel()
	for _, sc := range scenarios {
		t.Run(sc.dialect, func(t *testing.T) {
			t.Parallel()
			rec := record(t, sc.dialect, sc.tags)
			srv := startReference(t, sc.dialect)
			res := replayAgainst(t, rec, srv.URL, Options{})
			if res.Differs() > 0 || len(errorFindings(res)) > 0 {
				t.Fatalf("replay against a fresh reference differs:\n%s", describe(res))
			}
			t.Logf("%s", describe(res))
		})
	}
}

// TestReplayMutated: the same recordings replayed against a reference
// server that commits a deliberate violation: the connection's diff shows
// the changed stream and the check engine's finding names the rule the
// mutation breaks.
func TestReplayMutated(t *testing.T) {
	t.Parallel()
	cases := []struct {
		dialect, mutation, rule string
		// member is a pointer a changed row names, or "" when the
		// mutation drops or adds messages.
		member string
	}{
		{"minicodex", "minicodex-replay-skips-event", "minicodex.replay-gap", ""},
		{"hostd", "hostd-ack-ahead", "hostd.ack-unsent", "/data/last_seq"},
		{"myagent", "myagent-replay-alters-payload", "myagent.replay-mismatch", "/show_content"},
		{"mitto", "mitto-max-seq-below-seq", "mitto.max-seq", "/data/max_seq"},
		{"coworker", "coworker-chunk-index-skips", "coworker.chunk-gap", "/index"},
	}
	for _, tc := range cases {
		t.Run(tc.dialect, func(t *testing.T) {
			t.Parallel()
			rec := record(t, tc.dialect, tagsOf(tc.dialect))
			srv := startReference(t, tc.dialect, tc.mutation)
			res := replayAgainst(t, rec, srv.URL, Options{AnswerTimeout: 2 * time.Second})
			if res.Differs() == 0 {
				t.Fatalf("no diff against %s:\n%s", tc.mutation, describe(res))
			}
			if !hasRule(res, tc.rule) {
				t.Errorf("no %s finding against %s:\n%s", tc.rule, tc.mutation, describe(res))
			}
			if tc.member != "" && !namesMember(res, tc.member) {
				t.Errorf("no changed row names %s against %s:\n%s", tc.member, tc.mutation, describe(res))
			}
		})
	}
}

func tagsOf(dialect string) string {
	for _, sc := range scenarios {
		if sc.dialect == dialect {
			return sc.tags
		}
	}
	return ""
}

func hasRule(res *Result, rule string) bool {
	for _, s := range res.Sessions {
		for _, f := range s.Findings {
			if f.Rule == rule {
				return true
			}
		}
	}
	return false
}

func namesMember(res *Result, pointer string) bool {
	for _, d := range res.Diffs {
		for _, r := range d.Rows {
			for _, m := range r.Members {
				if m.Pointer == pointer {
					return true
				}
			}
		}
	}
	return false
}
