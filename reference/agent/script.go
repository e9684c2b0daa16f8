package agent

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Commands documents the hints the scripted agent understands, in the
// order `wsconform serve --help` and the README list them.
var Commands = []struct{ Syntax, Summary string }{
	{"/tool NAME [JSON]", "call tool NAME with JSON arguments; the call needs the user's approval"},
	{"/exec NAME [JSON]", "call tool NAME without asking for approval"},
	{"/ask [KIND] QUESTION", "ask the user a question and wait for the answer (KIND: confirm, text, select, multiselect; default confirm)"},
	{"/think TEXT", "stream TEXT as reasoning before the answer"},
	{"/slow N", "stream N chunks, one every Slow interval (100ms by default), so an abort can land mid-run"},
	{"/stream N", "stream N chunks as fast as the client reads"},
	{"/fail [MESSAGE]", "end the turn with an error"},
	{"anything else", "echo it back: \"Echo: TEXT\", streamed word by word"},
}

// Pace says how fast to stream.
type Pace struct {
	// Chunk is the pause between chunks of an ordinary reply.
	Chunk time.Duration
	// Slow is the pause between chunks of a /slow reply.
	Slow time.Duration
}

// Script is what the agent does for one user message, in this order:
// reasoning, then a tool call or a question (at most one), then the reply
// chunks, then success or Fail.
type Script struct {
	// Reasoning is streamed first, chunk by chunk.
	Reasoning []string
	Tool      *Tool
	Question  *Question
	// Chunks are the reply, streamed in order with Pause between them.
	Chunks []string
	Pause  time.Duration
	// Fail, when not empty, ends the turn with this error message after the
	// chunks.
	Fail string
}

// Tool is a tool call.
type Tool struct {
	Name string
	Args map[string]any
	// NeedsApproval holds the call until the user approves or denies it.
	NeedsApproval bool
	// Output is the tool's result text when it runs.
	Output string
}

// Question asks the user something.
type Question struct {
	// Kind is confirm, text, select or multiselect.
	Kind    string
	Text    string
	Options []string
}

// MaxChunks bounds /slow and /stream so a typo cannot make a run endless.
const MaxChunks = 100000

// questionKinds are the kinds /ask accepts as its first word.
var questionKinds = map[string]bool{"confirm": true, "text": true, "select": true, "multiselect": true}

// Plan returns the script for text. It never fails: a malformed hint is
// echoed like any other text, so a client can type anything.
func Plan(text string, pace Pace) Script {
	cmd, arg := splitCommand(text)
	switch cmd {
	case "/tool", "/exec":
		if t, ok := tool(arg, cmd == "/tool"); ok {
			return Script{Tool: t, Chunks: words(toolReply(t)), Pause: pace.Chunk}
		}
	case "/ask":
		if arg != "" {
			q := question(arg)
			return Script{Question: q, Chunks: words("Thanks for answering."), Pause: pace.Chunk}
		}
	case "/think":
		if arg != "" {
			return Script{Reasoning: words(arg), Chunks: words("Done thinking."), Pause: pace.Chunk}
		}
	case "/slow", "/stream":
		if n, err := strconv.Atoi(arg); err == nil && n > 0 && n <= MaxChunks {
			p := pace.Chunk
			if cmd == "/slow" {
				p = pace.Slow
			}
			return Script{Chunks: numbered(n), Pause: p}
		}
	case "/fail":
		msg := arg
		if msg == "" {
			msg = "the scripted agent failed on request (/fail)"
		}
		return Script{Chunks: words("Working on it."), Pause: pace.Chunk, Fail: msg}
	}
	return Script{Chunks: words("Echo: " + text), Pause: pace.Chunk}
}

// Reply is the whole reply text, the chunks joined.
func (s Script) Reply() string { return strings.Join(s.Chunks, "") }

func splitCommand(text string) (cmd, arg string) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "/") {
		return "", ""
	}
	cmd, arg, _ = strings.Cut(t, " ")
	return cmd, strings.TrimSpace(arg)
}

func tool(arg string, approval bool) (*Tool, bool) {
	name, raw, _ := strings.Cut(arg, " ")
	if name == "" {
		return nil, false
	}
	args := map[string]any{}
	if raw = strings.TrimSpace(raw); raw != "" {
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			args = map[string]any{"input": raw}
		}
	}
	return &Tool{
		Name: name, Args: args, NeedsApproval: approval,
		Output: fmt.Sprintf("%s ran with %d argument(s)", name, len(args)),
	}, true
}

func toolReply(t *Tool) string {
	return fmt.Sprintf("Tool %s finished.", t.Name)
}

// DeniedReply is the reply after the user denies a tool call.
func DeniedReply(t *Tool) string {
	return fmt.Sprintf("Tool %s was denied; continuing without it.", t.Name)
}

// AnsweredReply is the reply after the user answers a question.
func AnsweredReply(answer string) []string {
	return words("You answered: " + answer)
}

func question(arg string) *Question {
	kind, rest, _ := strings.Cut(arg, " ")
	if !questionKinds[kind] || strings.TrimSpace(rest) == "" {
		kind, rest = "confirm", arg
	}
	q := &Question{Kind: kind, Text: strings.TrimSpace(rest)}
	switch kind {
	case "confirm":
		q.Options = []string{"yes", "no"}
	case "select", "multiselect":
		q.Options = []string{"red", "green", "blue"}
	}
	return q
}

// words splits text into chunks that keep their trailing space, so the
// chunks concatenate back to text exactly.
func words(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

func numbered(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("chunk %d of %d. ", i+1, n)
	}
	return out
}
