package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListTools: every tool is listed with an object input schema and an
// output schema, and recordings under the roots are resources.
func TestListTools(t *testing.T) {
	t.Parallel()
	cs := connect(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		in, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(in), `"type":"object"`) || tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("%s: input schema %s, output schema %v", tool.Name, in, tool.OutputSchema)
		}
	}
	want := []string{"explain", "frames", "live_findings", "live_sessions", "replay", "run_scenarios", "validate_recording"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	rs, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uri string
	for _, r := range rs.Resources {
		if strings.HasSuffix(r.URI, "/minicodex-replay-gap.jsonl") {
			uri = r.URI
		}
	}
	if uri == "" {
		t.Fatalf("no resource for the fixture among %d", len(rs.Resources))
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, `"rule":"minicodex.replay-gap"`) {
		t.Errorf("resource %s: %+v", uri, rr.Contents)
	}
}

// TestValidateRecordingFindsReplayGap: the planted replay gap is one
// problem naming its rule, the requirement it breaks, the spec's words,
// expected vs actual and its frame.
func TestValidateRecordingFindsReplayGap(t *testing.T) {
	t.Parallel()
	cs := connect(t, Config{})
	res := callOK[validateResult](t, cs, "validate_recording", `{"path":"minicodex-replay-gap.jsonl"}`)
	if res.Verdict != "failed" || res.Dialect != "minicodex" || res.Counts.Errors != 1 {
		t.Fatalf("verdict %s, dialect %s, counts %+v", res.Verdict, res.Dialect, res.Counts)
	}
	p := problemOf(res.Problems, "minicodex.replay-gap")
	if p == nil {
		t.Fatalf("no replay-gap problem: %+v", res.Problems)
	}
	if !slices.Contains(p.Requirements, "minicodex.handshake.reply") || !strings.Contains(p.Quote, "replay delta from last_seen_event_id") ||
		p.Expected != "event_id 2 next" || p.Actual != "3" || !slices.Equal(p.Frames, []int64{14}) || p.Severity != "error" || p.Dir != "s2c" {
		t.Errorf("problem %+v", *p)
	}
	// a second root, by absolute path too; three distinct problems
	planted := callOK[validateResult](t, cs, "validate_recording", `{"path":`+quoteAbs(t, plantedRecording)+`}`)
	var rules []string
	for _, p := range planted.Problems {
		rules = append(rules, p.Rule)
	}
	slices.Sort(rules)
	if want := []string{"minicodex.event-id-order", "minicodex.replay-mismatch", "schema.violation"}; !slices.Equal(rules, want) {
		t.Errorf("planted: rules %v, want %v", rules, want)
	}
}

// TestFrames: a window around the gap's frame, a rule filter and paging.
func TestFrames(t *testing.T) {
	t.Parallel()
	cs := connect(t, Config{})
	around := callOK[framesResult](t, cs, "frames", `{"path":"minicodex-replay-gap.jsonl","around":14,"before":1,"after":1}`)
	var idx []int64
	for _, f := range around.Frames {
		idx = append(idx, f.Index)
	}
	if !slices.Equal(idx, []int64{13, 14, 15}) {
		t.Fatalf("around 14: frames %v", idx)
	}
	gap := around.Frames[1]
	if gap.Type != "run_status" || gap.Seq != "3" || gap.Dir != "s2c" || len(gap.Findings) != 1 || gap.Findings[0].Rule != "minicodex.replay-gap" {
		t.Errorf("frame 14: %+v", gap)
	}
	byRule := callOK[framesResult](t, cs, "frames", `{"path":"minicodex-replay-gap.jsonl","rule":"minicodex.replay-gap"}`)
	if byRule.Matched != 1 || len(byRule.Frames) != 1 || byRule.Frames[0].Index != 14 {
		t.Errorf("rule filter: %+v", byRule)
	}
	page := callOK[framesResult](t, cs, "frames", `{"path":"minicodex-replay-gap.jsonl","dir":"c2s","limit":2,"max_bytes":16}`)
	if len(page.Frames) != 2 || page.NextAfterIndex != page.Frames[1].Index || !page.Frames[0].Truncated || len(page.Frames[0].Payload) > 16 {
		t.Fatalf("page 1: %+v", page)
	}
	next := callOK[framesResult](t, cs, "frames", `{"path":"minicodex-replay-gap.jsonl","dir":"c2s","limit":2,"after_index":`+itoa(page.NextAfterIndex)+`}`)
	if len(next.Frames) == 0 || next.Frames[0].Index <= page.NextAfterIndex {
		t.Errorf("page 2: %+v", next)
	}
}

// TestExplain: a rule gives its requirements with the spec's words and
// the scenarios that test them; a requirement id works too; a schema rule
// with a message type gives conforming examples.
func TestExplain(t *testing.T) {
	t.Parallel()
	cs := connect(t, Config{})
	rule := callOK[explainResult](t, cs, "explain", `{"id":"minicodex.replay-gap"}`)
	if rule.Kind != "rule" || rule.Rule == nil || rule.Rule.Severity != "error" || len(rule.Requirements) == 0 {
		t.Fatalf("rule: %+v", rule)
	}
	var reply *explainRequirement
	for i := range rule.Requirements {
		if rule.Requirements[i].ID == "minicodex.handshake.reply" {
			reply = &rule.Requirements[i]
		}
	}
	if reply == nil || reply.Quote == "" || !slices.Contains(reply.Rules, "minicodex.replay-gap") || len(reply.Scenarios) == 0 {
		t.Fatalf("requirement: %+v", reply)
	}
	req := callOK[explainResult](t, cs, "explain", `{"id":"minicodex.handshake.reply"}`)
	if req.Kind != "requirement" || len(req.Requirements) != 1 || req.Requirements[0].Quote != reply.Quote {
		t.Errorf("requirement id: %+v", req)
	}
	schema := callOK[explainResult](t, cs, "explain", `{"id":"schema.violation","dialect":"minicodex","type":"heartbeat"}`)
	valid := 0
	for _, e := range schema.Examples {
		if e.Type != "heartbeat" {
			t.Errorf("example of %s", e.Type)
		}
		if e.Valid {
			valid++
		}
	}
	if valid != 1 || len(schema.Examples) < 2 {
		t.Errorf("examples: %+v", schema.Examples)
	}
}

func quoteAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := absPath(p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(abs)
	return string(b)
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestFramesZeroContext: before and after 0 are the frame alone, not the
// default window.
func TestFramesZeroContext(t *testing.T) {
	t.Parallel()
	cs := connect(t, Config{})
	res := callOK[framesResult](t, cs, "frames", `{"path":"minicodex-replay-gap.jsonl","around":14,"before":0,"after":0}`)
	if len(res.Frames) != 1 || res.Frames[0].Index != 14 {
		t.Errorf("frames %+v", res.Frames)
	}
	bad := call(t, cs, "frames", `{"path":"minicodex-replay-gap.jsonl","around":14,"before":-1}`)
	if !bad.IsError || !strings.Contains(text(bad), `argument "before": -1 is out of range`) {
		t.Errorf("before -1: %s", text(bad))
	}
}

// TestAnnotations: the tools that send messages to a server say they are
// not read-only; the others say they are.
func TestAnnotations(t *testing.T) {
	t.Parallel()
	cs := connect(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		talks := tool.Name == "run_scenarios" || tool.Name == "replay"
		if tool.Annotations == nil || tool.Annotations.ReadOnlyHint == talks {
			t.Errorf("%s: annotations %+v", tool.Name, tool.Annotations)
		}
	}
}
