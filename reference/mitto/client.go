package mitto

import (
	"strings"
	"unicode/utf8"

	"github.com/wsconform/wsconform/reference/server"
)

// maxNameRunes bounds a session name from rename_session.
const maxNameRunes = 256

// client is one connection of a session: the server.Handler of its
// WebSocket.
type client struct {
	conn *server.Conn
	id   string // connected.client_id, user_prompt.sender_id
	s    *session
	hub  *hub
	// legacy clients get permission requests as the legacy permission
	// message instead of ui_prompt (?legacy=1).
	legacy bool
	// loaded: the client has sent a load_events (guarded by s.mu).
	loaded bool
}

// sendRaw queues bytes already marshalled; a nil frame (an encode
// failure, logged) is skipped. A full queue closes the connection (1013),
// which the plumbing handles.
func (c *client) sendRaw(data []byte) {
	if data != nil {
		_ = c.conn.SendRaw(data)
	}
}

// sendErr answers this client alone with error{message, code}.
func (c *client) sendErr(e *wireError) {
	c.sendRaw(c.s.encode(errorFrame(e)))
}

// Message handles one client message (mitto.md §Frontend → Backend
// Messages). Mistakes are answered with an error; state is only changed by
// a message that was valid.
func (c *client) Message(in server.Inbound) {
	typ, data, werr := decode(in, c.hub.env.MaxFrame)
	if werr != nil {
		c.sendErr(werr)
		return
	}
	f := &fields{typ: typ, data: data}
	var err error
	switch typ {
	case "prompt":
		err = c.prompt(f)
	case "cancel":
		err = c.s.cancel()
	case "ui_prompt_answer":
		err = c.uiPromptAnswer(f)
	case "permission_answer":
		err = c.permissionAnswer(f)
	case "load_events":
		err = c.loadEvents(f)
	case "keepalive":
		err = c.keepalive(f)
	case "rename_session":
		err = c.rename(f)
	default:
		err = errf(codeUnknownType, "unknown message type %q", typ)
	}
	if err != nil {
		c.sendErr(asWire(err))
	}
}

// Closed detaches the client from its session.
func (c *client) Closed() { c.hub.detach(c) }

func (c *client) prompt(f *fields) error {
	if c.s.mutate(mutPromptBusy) {
		return errf(codeAgentError, "Failed to send prompt: prompt already in progress")
	}
	message, _ := f.str("message", true)
	id, _ := f.str("prompt_id", true)
	f.strings("image_ids")
	if err := f.check(); err != nil {
		return err
	}
	if id == "" {
		return errf(codeInvalidMessage, "prompt: data.prompt_id must not be empty")
	}
	return c.s.prompt(c, pending{id: id, message: message, sender: c.id})
}

func (c *client) uiPromptAnswer(f *fields) error {
	req, _ := f.str("request_id", true)
	opt, _ := f.str("option_id", true)
	label, _ := f.str("label", false)
	text, _ := f.str("free_text", false)
	if err := f.check(); err != nil {
		return err
	}
	return c.s.answer(c, req, func(p *uiPrompt) (answer, error) {
		return p.choose(opt, label, text)
	})
}

// permissionAnswer takes the legacy answer: the spec's {request_id,
// approved} and the shape the real Mitto sends, {request_id, option_id,
// cancel}.
func (c *client) permissionAnswer(f *fields) error {
	req, _ := f.str("request_id", true)
	approved, hasApproved := f.boolean("approved")
	opt, hasOpt := f.str("option_id", false)
	cancel, _ := f.boolean("cancel")
	if err := f.check(); err != nil {
		return err
	}
	if !hasApproved && !hasOpt && !cancel {
		return errf(codeInvalidMessage, "permission_answer: data.approved must be present (a boolean)")
	}
	return c.s.answer(c, req, func(p *uiPrompt) (answer, error) {
		switch {
		case hasApproved:
			return p.approve(approved)
		case cancel:
			return p.approve(false)
		}
		return p.choose(opt, "", "")
	})
}

func (c *client) loadEvents(f *fields) error {
	var q loadQuery
	var hasLimit bool
	q.limit, hasLimit = f.int("limit", 1)
	q.before, q.hasBefore = f.int("before_seq", 0)
	q.after, q.hasAfter = f.int("after_seq", 0)
	if err := f.check(); err != nil {
		return err
	}
	if q.hasBefore && q.hasAfter {
		return errf(codeConflicting, "load_events: before_seq and after_seq are mutually exclusive")
	}
	if !hasLimit {
		q.limit = defaultLimit
	}
	q.limit = min(q.limit, maxLimit)
	c.s.load(c, q)
	return nil
}

func (c *client) keepalive(f *fields) error {
	t := f.number("client_time")
	if err := f.check(); err != nil {
		return err
	}
	c.s.keepalive(c, t)
	return nil
}

func (c *client) rename(f *fields) error {
	if c.s.mutate(mutRenameIgnored) {
		return nil
	}
	name, _ := f.str("name", true)
	if err := f.check(); err != nil {
		return err
	}
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > maxNameRunes {
		return errf(codeInvalidMessage, "rename_session: data.name must be 1 to %d characters", maxNameRunes)
	}
	c.s.rename(name)
	return nil
}
