package mitto

import (
	"math"
	"strings"
	"time"

	"github.com/wsconform/wsconform/reference/agent"
)

// option is one choice of a ui_prompt (mitto.md §Option Properties).
type option struct {
	id, label, kind, style string
}

func (o option) wire() obj {
	w := obj{{"id", o.id}, {"label", o.label}}
	if o.kind != "" {
		w = append(w, member{"kind", o.kind})
	}
	if o.style != "" {
		w = append(w, member{"style", o.style})
	}
	return w
}

// The options of each prompt type.
var (
	permissionOptions = []option{
		{id: "allow_once", label: "Allow", kind: "allow_once", style: "success"},
		{id: "reject_once", label: "Deny", kind: "reject_once", style: "danger"},
	}
	yesNoOptions = []option{
		{id: "yes", label: "Yes", style: "primary"},
		{id: "no", label: "No", style: "secondary"},
	}
	// textOptions stand in for a free-text question, which the spec's
	// prompt types lack: the answer may carry free_text.
	textOptions = []option{
		{id: "submit", label: "Submit", style: "primary"},
		{id: "skip", label: "Skip", style: "secondary"},
	}
	hintOptions = []option{
		{id: "continue", label: "Continue"},
		{id: "explain", label: "Explain the result"},
		{id: "tests", label: "Write tests"},
	}
)

// promptTypes are the spec's prompt types (mitto.md §Prompt Types); "/ask
// TYPE QUESTION" names one directly.
var promptTypes = map[string]bool{
	"yes_no": true, "options_buttons": true, "select": true, "permission": true, "action_buttons": true,
}

// answer is what a client chose, or that nobody did in time.
type answer struct {
	optionID, label string
	text            string // free_text, when the client typed an answer
	timedOut        bool
}

// uiPrompt is an open ui_prompt (mitto.md §Unified UI Prompt System).
type uiPrompt struct {
	id         string
	typ        string
	question   string
	title      string
	options    []option
	blocking   bool
	timeout    int64 // timeout_seconds of blocking prompts
	toolCallID string
	freeText   bool
	// yes and no are the options approved:true/false of a legacy
	// permission_answer choose; empty for prompt types without them.
	yes, no string
	// answers carries the one answer to the waiting turn (capacity 1);
	// nil for non-blocking prompts, which nobody waits for.
	answers chan answer
	turn    *turn
}

func (p *uiPrompt) data() obj {
	d := obj{{"request_id", p.id}, {"prompt_type", p.typ}, {"question", p.question}}
	if p.title != "" {
		d = append(d, member{"title", p.title})
	}
	d = append(d, member{"options", wireOptions(p.options)})
	if p.blocking {
		d = append(d, member{"timeout_seconds", p.timeout})
	}
	d = append(d, member{"blocking", p.blocking})
	if p.toolCallID != "" {
		d = append(d, member{"tool_call_id", p.toolCallID})
	}
	if p.freeText {
		d = append(d, member{"free_text", true})
	}
	return d
}

// legacyData is the legacy permission message's data.
func (p *uiPrompt) legacyData() obj {
	return obj{{"request_id", p.id}, {"title", p.title}, {"description", p.question}, {"options", wireOptions(p.options)}}
}

func wireOptions(opts []option) []obj {
	out := make([]obj, len(opts))
	for i, o := range opts {
		out[i] = o.wire()
	}
	return out
}

// choose answers with option id; the option's own label is used, since the
// server's options are authoritative.
func (p *uiPrompt) choose(id, _, text string) (answer, error) {
	for _, o := range p.options {
		if o.id == id {
			return answer{optionID: o.id, label: o.label, text: text}, nil
		}
	}
	ids := make([]string, len(p.options))
	for i, o := range p.options {
		ids[i] = o.id
	}
	return answer{}, errf(codeInvalidOption, "option_id %q is not an option of request_id %q (options: %s)", id, p.id, strings.Join(ids, ", "))
}

// approve answers a legacy permission_answer{approved}.
func (p *uiPrompt) approve(ok bool) (answer, error) {
	if p.yes == "" {
		return answer{}, errf(codeInvalidMessage, "permission_answer.approved answers permission and yes_no prompts; request_id %q is %s: send ui_prompt_answer", p.id, p.typ)
	}
	if ok {
		return p.choose(p.yes, "", "")
	}
	return p.choose(p.no, "", "")
}

// timeoutSeconds is timeout_seconds for env.PromptTimeout, rounded up so
// a client never gives up before the server.
func timeoutSeconds(d time.Duration) int64 {
	return max(1, int64(math.Ceil(d.Seconds())))
}

// permissionPrompt asks to run a tool call.
func (t *turn) permissionPrompt(tool *agent.Tool, toolID string) *uiPrompt {
	return t.newPrompt(&uiPrompt{
		typ: "permission", question: "Allow tool " + tool.Name + " to run?", title: "Run: " + toolTitle(tool),
		options: permissionOptions, blocking: true, toolCallID: toolID, yes: "allow_once", no: "reject_once",
	})
}

// questionPrompt maps an /ask question onto a prompt type: confirm →
// yes_no, select → select, multiselect → options_buttons, text →
// options_buttons with free_text; "/ask TYPE QUESTION" with one of the
// spec's types uses that type.
func (t *turn) questionPrompt(q *agent.Question) *uiPrompt {
	typ, text := q.Kind, q.Text
	if first, rest, ok := strings.Cut(text, " "); ok && q.Kind == "confirm" && promptTypes[first] && strings.TrimSpace(rest) != "" {
		typ, text = first, strings.TrimSpace(rest)
	}
	p := &uiPrompt{question: text, blocking: true}
	switch typ {
	case "confirm", "yes_no":
		p.typ, p.options, p.yes, p.no = "yes_no", yesNoOptions, "yes", "no"
	case "select", "multiselect", "options_buttons":
		p.typ, p.options = "select", choiceOptions(q)
		if typ != "select" {
			p.typ = "options_buttons"
		}
	case "text":
		p.typ, p.options, p.freeText = "options_buttons", textOptions, true
	case "permission":
		p.typ, p.options, p.title, p.yes, p.no = "permission", permissionOptions, "Permission requested", "allow_once", "reject_once"
	case "action_buttons":
		p.typ, p.options, p.blocking = "action_buttons", hintOptions, false
	}
	return t.newPrompt(p)
}

// choiceOptions are the choices of a select-like question: the scripted
// agent's, or red, green and blue when it named a prompt type instead.
func choiceOptions(q *agent.Question) []option {
	choices := q.Options
	if q.Kind != "select" && q.Kind != "multiselect" {
		choices = []string{"red", "green", "blue"}
	}
	opts := make([]option, 0, len(choices))
	for _, c := range choices {
		opts = append(opts, option{id: c, label: strings.ToUpper(c[:1]) + c[1:]})
	}
	return opts
}

func (t *turn) newPrompt(p *uiPrompt) *uiPrompt {
	p.id = t.s.env.IDs.New("req-")
	p.timeout = timeoutSeconds(t.s.env.PromptTimeout)
	p.turn = t
	if p.blocking {
		p.answers = make(chan answer, 1)
	}
	return p
}

// openLocked registers a prompt and announces it to every client; legacy
// clients get a permission request as the legacy permission message.
func (s *session) openLocked(p *uiPrompt) {
	s.prompts[p.id] = p
	modern := s.encode(envelope("ui_prompt", p.data()))
	var legacy []byte
	if p.typ == "permission" {
		legacy = s.encode(envelope("permission", p.legacyData()))
	}
	for c := range s.clients {
		if c.legacy && legacy != nil {
			c.liveLocked(legacy)
		} else {
			c.liveLocked(modern)
		}
	}
}

// closeLocked forgets a prompt and dismisses it on every client except
// skip (the client that answered it already closed it).
func (s *session) closeLocked(p *uiPrompt, skip *client) {
	delete(s.prompts, p.id)
	id := p.id
	if s.mutate(mutDismissWrongID) {
		id += "-unknown"
	}
	data := s.encode(envelope("ui_prompt_dismiss", obj{{"request_id", id}}))
	for c := range s.clients {
		if c != skip {
			c.liveLocked(data)
		}
	}
}

// dismissHintsLocked closes the non-blocking prompts (follow-up hints) of
// earlier turns when a new turn starts.
func (s *session) dismissHintsLocked() {
	for _, p := range s.prompts {
		if !p.blocking {
			s.closeLocked(p, nil)
		}
	}
}

// answer closes the open prompt req with what pick makes of it and hands
// the answer to the turn waiting for it.
func (s *session) answer(c *client, req string, pick func(*uiPrompt) (answer, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.prompts[req]
	if p == nil {
		return errf(codeUnknownRequest, "request_id %q names no open prompt (never asked, answered, timed out or dismissed)", req)
	}
	a, err := pick(p)
	if err != nil {
		return err
	}
	s.closeLocked(p, c)
	if p.answers != nil {
		p.answers <- a // capacity 1 and the prompt is closed now: never blocks
	}
	return nil
}
