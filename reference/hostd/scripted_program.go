package hostd

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wsconform/wsconform/reference/agent"
	"github.com/wsconform/wsconform/reference/server"
)

// Exit codes of a stopped run: 128 + the signal number, as a shell reports
// a process killed by SIGTERM (15) or SIGKILL (9).
const (
	exitTerm   = 143
	exitKill   = 137
	exitFailed = 1
)

// maxQueued bounds the inputs typed while the program is busy; more are
// recorded (run.input) but the program never reads them.
const maxQueued = 64

// maxRedacted bounds text_redacted, in characters.
const maxRedacted = 200

// greeting is the first output of every run.
const greeting = "scripted agent ready. Type a message, or /tool NAME, /exec NAME, /ask QUESTION, /think TEXT, /slow N, /stream N, /fail MESSAGE\n"

// waitKind is what the program waits for.
type waitKind int

const (
	busy           waitKind = iota // streaming; inputs are queued
	waitPrompt                     // the next message
	waitPermission                 // y/yes approves the tool call, anything else denies it
	waitAnswer                     // the answer to a question
)

// step is one thing the program does after a delay.
type step struct {
	delay time.Duration
	do    func()
}

// program is the scripted agent behind the PTY: a queue of steps and what
// it waits for. It runs only while the host is connected (paused between
// connections) and survives reconnects.
type program struct {
	steps   []step
	timer   *time.Timer
	armed   bool
	waiting waitKind
	script  agent.Script
	queue   []string
}

// ready is a channel that is always ready: a step without delay.
var ready = func() chan time.Time { c := make(chan time.Time); close(c); return c }()

// wake returns the channel that fires when the next step is due; nil (never)
// when no step is pending.
func (p *program) wake() <-chan time.Time {
	if len(p.steps) == 0 {
		return nil
	}
	if p.armed {
		return p.timer.C
	}
	d := p.steps[0].delay
	if d <= 0 {
		return ready
	}
	p.timer, p.armed = time.NewTimer(d), true
	return p.timer.C
}

// step runs the next step.
func (p *program) step() {
	p.disarm()
	if len(p.steps) == 0 {
		return
	}
	s := p.steps[0]
	p.steps = p.steps[1:]
	s.do()
}

// disarm stops the timer of the next step; wake re-arms it.
func (p *program) disarm() {
	if p.armed {
		p.timer.Stop()
		p.armed = false
	}
}

func (p *program) then(delay time.Duration, do func()) {
	p.steps = append(p.steps, step{delay: delay, do: do})
}

// reset drops everything the program was doing.
func (p *program) reset() {
	p.disarm()
	*p = program{}
}

// hostEvent is an event as the scripted host sends it.
type hostEvent struct {
	Type   string `json:"type"`
	TS     string `json:"ts"`
	HostID string `json:"host_id"`
	RunID  string `json:"run_id"`
	Seq    int64  `json:"seq"`
	Data   any    `json:"data"`
}

// emit sends an event of the current run with the next seq and keeps it in
// the spool until the server acknowledges it.
func (h *ScriptedHost) emit(typ string, data any) {
	h.seq++
	b, err := server.Marshal(hostEvent{Type: typ, TS: h.opts.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		HostID: h.opts.HostID, RunID: h.runID, Seq: h.seq, Data: data})
	if err != nil {
		h.log.Error("scripted host: encode event", "err", err)
		return
	}
	if len(h.spool) >= h.opts.SpoolLimit {
		h.log.Warn("scripted host: spool full, dropping the oldest event", "run_id", h.spool[0].runID, "seq", h.spool[0].seq)
		h.spool = h.spool[1:]
	}
	h.spool = append(h.spool, spooled{runID: h.runID, seq: h.seq, data: b})
	if h.link != nil {
		h.link.send(b)
	}
}

func (h *ScriptedHost) output(stream, text string) {
	h.emit(typeOutput, map[string]any{"stream": stream, "text": text})
}

// startRun starts a new run: run.started, the greeting, then a prompt.
func (h *ScriptedHost) startRun() {
	h.prog.reset()
	h.runID, h.seq = h.opts.IDs.New("run_"), 0
	h.emit(typeStarted, map[string]any{"tool": "scripted", "cwd": "/scripted", "command": "wsconform scripted-agent"})
	h.output("stdout", greeting)
	h.await(waitPrompt, "prompt", "> ")
}

// exit ends the run with code and starts the next one.
func (h *ScriptedHost) exit(code int) {
	h.prog.reset()
	h.emit(typeExited, map[string]any{"exit_code": code})
	h.startRun()
}

// await says the program waits (run.awaiting_input), then feeds it an
// input typed while it was busy, if any.
func (h *ScriptedHost) await(w waitKind, reason, prompt string) {
	h.emit(typeAwaiting, map[string]any{"reason": reason, "prompt": prompt})
	h.prog.waiting = w
	if len(h.prog.queue) > 0 {
		next := h.prog.queue[0]
		h.prog.queue = h.prog.queue[1:]
		h.feed(next)
	}
}

// handle acts on one message from the server.
func (h *ScriptedHost) handle(raw []byte) {
	var m struct {
		Type  string          `json:"type"`
		RunID string          `json:"run_id"`
		Data  json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		h.log.Warn("scripted host: undecodable message", "err", err)
		return
	}
	switch m.Type {
	case typeAck:
		var d struct {
			RunID   string `json:"run_id"`
			LastSeq *int64 `json:"last_seq"`
		}
		if json.Unmarshal(m.Data, &d) == nil && d.LastSeq != nil {
			h.acked(d.RunID, *d.LastSeq)
		}
	case typeSendInput:
		var d sendInputData
		if json.Unmarshal(m.Data, &d) == nil && d.InputID != "" && m.RunID == h.runID {
			h.typed(d.InputID, d.Text)
		}
	case typeStop:
		var d stopData
		_ = json.Unmarshal(m.Data, &d)
		if m.RunID == h.runID {
			h.exit(exitCode(d.Signal))
		}
	}
}

// acked deletes the spooled events of run up to last.
func (h *ScriptedHost) acked(runID string, last int64) {
	kept := h.spool[:0]
	for _, s := range h.spool {
		if s.runID != runID || s.seq > last {
			kept = append(kept, s)
		}
	}
	clear(h.spool[len(kept):])
	h.spool = kept
}

// typed writes an input to the PTY once per input_id: run.input, then the
// program reads it. A re-delivered input_id is ignored.
func (h *ScriptedHost) typed(inputID, text string) {
	key := h.runID + "\x00" + inputID
	if h.recorded.has(key) {
		h.log.Info("scripted host: input already written", "input_id", inputID)
		return
	}
	h.recorded.add(key)
	h.emit(typeInput, map[string]any{"actor": "web", "input_id": inputID, "text_redacted": redact(text), "text_sha256": textSum(text)})
	h.feed(strings.TrimRight(text, "\r\n"))
}

// feed gives the program one line of input.
func (h *ScriptedHost) feed(line string) {
	p := &h.prog
	w := p.waiting
	if w != busy {
		p.waiting = busy
	}
	switch w {
	case busy:
		if len(p.queue) < maxQueued {
			p.queue = append(p.queue, line)
		}
	case waitPrompt:
		h.plan(agent.Plan(line, h.opts.Pace))
	case waitPermission:
		h.afterTool(isYes(line))
	case waitAnswer:
		h.stream("stdout", agent.AnsweredReply(line), p.script.Pause)
		h.reply(p.script.Chunks, p.script.Pause, p.script.Fail)
	}
}

// plan turns a script into steps: reasoning, then a tool call or a
// question, then the reply.
func (h *ScriptedHost) plan(s agent.Script) {
	p := &h.prog
	p.script = s
	h.stream("stdout", s.Reasoning, s.Pause)
	switch {
	case s.Tool != nil && s.Tool.NeedsApproval:
		p.then(0, func() {
			h.await(waitPermission, "permission", fmt.Sprintf("Allow tool %s %s? [y/N]", s.Tool.Name, argsText(s.Tool.Args)))
		})
	case s.Tool != nil:
		h.afterTool(true)
	case s.Question != nil:
		p.then(0, func() { h.await(waitAnswer, questionReason(s.Question), questionPrompt(s.Question)) })
	default:
		h.reply(s.Chunks, s.Pause, s.Fail)
	}
}

// afterTool runs (or skips) the tool, then replies.
func (h *ScriptedHost) afterTool(approved bool) {
	s := h.prog.script
	if !approved {
		h.reply(strings.SplitAfter(agent.DeniedReply(s.Tool), " "), s.Pause, s.Fail)
		return
	}
	h.prog.then(0, func() { h.output("stdout", fmt.Sprintf("[%s] %s\n", s.Tool.Name, s.Tool.Output)) })
	h.reply(s.Chunks, s.Pause, s.Fail)
}

// reply streams the chunks (the last one ends the line), then either fails
// (stderr and run.exited 1, then a new run) or prompts again.
func (h *ScriptedHost) reply(chunks []string, pause time.Duration, fail string) {
	h.stream("stdout", chunks, pause)
	p := &h.prog
	if fail != "" {
		p.then(0, func() { h.output("stderr", "error: "+fail+"\n") })
		p.then(0, func() { h.exit(exitFailed) })
		return
	}
	p.then(0, func() { h.await(waitPrompt, "prompt", "> ") })
}

// stream schedules chunks as run.output, pause between them; a newline
// ends the last.
func (h *ScriptedHost) stream(stream string, chunks []string, pause time.Duration) {
	for i, c := range chunks {
		delay := pause
		if i == 0 {
			delay = 0
		}
		if i == len(chunks)-1 {
			c += "\n"
		}
		h.prog.then(delay, func() { h.output(stream, c) })
	}
}

// exitCode is the exit status of a run stopped with signal (default term).
func exitCode(signal string) int {
	if signal == "kill" {
		return exitKill
	}
	return exitTerm
}

func isYes(line string) bool {
	s := strings.ToLower(strings.TrimSpace(line))
	return s == "y" || s == "yes"
}

// questionReason maps a question kind to run.awaiting_input's reason: a
// free-text question is a prompt, the others offer choices.
func questionReason(q *agent.Question) string {
	if q.Kind == "text" {
		return "prompt"
	}
	return "choice"
}

func questionPrompt(q *agent.Question) string {
	if len(q.Options) == 0 {
		return q.Text
	}
	return fmt.Sprintf("%s [%s]", q.Text, strings.Join(q.Options, "/"))
}

func argsText(args map[string]any) string {
	b, err := json.Marshal(args)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// redact is text_redacted: the input without its line ending, cut to
// maxRedacted characters. The scripted host has no secrets to mask.
func redact(text string) string {
	s := strings.TrimRight(text, "\r\n")
	if utf8.RuneCountInString(s) <= maxRedacted {
		return s
	}
	r := []rune(s)
	return string(r[:maxRedacted]) + "…"
}
