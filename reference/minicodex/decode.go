package minicodex

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wsconform/wsconform/reference/server"
)

// command is one decoded and validated client message. Fields a type does
// not have stay zero.
type command struct {
	Type  string
	ReqID string // "" when absent
	// SessionID is the envelope's session_id, "" when absent or null.
	SessionID string
	// RunID is the envelope's run_id; HasRunID tells absent (or null) from "".
	RunID    string
	HasRunID bool

	V            string   // hello
	LastSeen     int64    // resume; 0 when absent or null: replay everything
	Text         string   // send
	ClientMsgID  string   // send
	CallID       string   // approve, deny
	WithWindow   bool     // get_snapshot include_transcript_window
	Nonce        string   // ping
	Capabilities []string // hello client_capabilities
}

// envelopeFields are the members every message may carry (Pydantic
// Envelope); each is optional and nullable.
var envelopeFields = []string{"type", "v", "session_id", "run_id", "event_id", "ts", "req_id"}

// typeFields are the members each command adds to the envelope. The
// Pydantic models forbid any other member (extra="forbid").
var typeFields = map[string][]string{
	"hello":        {"client_capabilities"},
	"resume":       {"last_seen_event_id"},
	"send":         {"text", "client_msg_id"},
	"approve":      {"call_id"},
	"deny":         {"call_id"},
	"abort":        {},
	"get_snapshot": {"include_transcript_window"},
	"ping":         {"nonce"},
}

// fields is a JSON object whose member values are still raw.
type fields map[string]json.RawMessage

// decode turns an inbound message into a command, or says why it is not
// one. reqID is the message's req_id when it could be read, so that even
// a refused command's error names it.
func decode(in server.Inbound, maxFrame int64) (cmd command, reqID string, err *cmdError) {
	f, err := object(in, maxFrame)
	if err != nil {
		return command{}, "", err
	}
	reqID, _, _ = f.optString("req_id")
	cmd.ReqID = reqID
	if cmd.Type, err = f.typ(); err != nil {
		return cmd, reqID, err
	}
	if err := f.onlyKnown(cmd.Type); err != nil {
		return cmd, reqID, err
	}
	if err := f.envelope(&cmd); err != nil {
		return cmd, reqID, err
	}
	return cmd, reqID, f.body(&cmd)
}

// object reads the frame as a JSON object.
func object(in server.Inbound, maxFrame int64) (fields, *cmdError) {
	switch {
	case in.Binary:
		return nil, invalid("binary frames carry no command: send a JSON object in a text frame")
	case in.Oversize:
		e := invalid("message of %d bytes is larger than the %d-byte limit", in.Size, maxFrame)
		e.Details = map[string]any{"size": in.Size, "max": maxFrame}
		return nil, e
	case !json.Valid(in.Data):
		return nil, invalid("message is not valid JSON")
	}
	var f fields
	if err := json.Unmarshal(in.Data, &f); err != nil || f == nil {
		return nil, invalid("message is not a JSON object")
	}
	return f, nil
}

// typ reads the discriminator.
func (f fields) typ() (string, *cmdError) {
	raw, ok := f["type"]
	if !ok {
		return "", invalid("message has no type")
	}
	var t string
	if kind(raw) != '"' || json.Unmarshal(raw, &t) != nil {
		return "", invalid("type is not a string")
	}
	if _, known := typeFields[t]; !known {
		e := invalid("unknown command type %q", t)
		e.Details = map[string]any{"type": t}
		return "", e
	}
	return t, nil
}

// onlyKnown refuses members the command's model does not define, in name
// order so the answer is deterministic.
func (f fields) onlyKnown(typ string) *cmdError {
	names := make([]string, 0, len(f))
	for k := range f {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if !slices.Contains(envelopeFields, k) && !slices.Contains(typeFields[typ], k) {
			return badArg(k, "%s has no member %q", typ, k)
		}
	}
	return nil
}

// envelope checks the envelope members' types and keeps the ones the
// server uses.
func (f fields) envelope(cmd *command) *cmdError {
	for _, k := range []string{"v", "session_id", "run_id", "req_id"} {
		if _, _, err := f.optString(k); err != nil {
			return err
		}
	}
	if _, _, err := f.optInt("event_id"); err != nil {
		return err
	}
	if ts, ok, err := f.optString("ts"); err != nil {
		return err
	} else if ok {
		if _, perr := time.Parse(time.RFC3339Nano, ts); perr != nil {
			return badArg("ts", "ts %q is not an RFC 3339 timestamp", ts)
		}
	}
	cmd.SessionID, _, _ = f.optString("session_id")
	cmd.RunID, cmd.HasRunID, _ = f.optString("run_id")
	return nil
}

// body checks the members of the command's own model.
func (f fields) body(cmd *command) *cmdError {
	var err *cmdError
	switch cmd.Type {
	case "hello":
		if cmd.V, err = f.reqString("v", "hello"); err == nil {
			cmd.Capabilities, err = f.strings("client_capabilities")
		}
	case "resume":
		cmd.LastSeen, _, err = f.optInt("last_seen_event_id")
	case "send":
		if cmd.Text, err = f.reqString("text", "send"); err == nil {
			cmd.ClientMsgID, _, err = f.optString("client_msg_id")
		}
	case "approve", "deny":
		cmd.CallID, err = f.reqString("call_id", cmd.Type)
	case "get_snapshot":
		cmd.WithWindow, err = f.optBool("include_transcript_window")
	case "ping":
		cmd.Nonce, _, err = f.optString("nonce")
	}
	return err
}

// kind is the first byte of a raw JSON value: '"', '{', '[', 't', 'f',
// 'n', or a digit or '-' for a number.
func kind(raw json.RawMessage) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// optString reads a `str | None = None` member: absent and null are "not
// there"; anything but a string is refused.
func (f fields) optString(name string) (string, bool, *cmdError) {
	raw, ok := f[name]
	if !ok || kind(raw) == 'n' {
		return "", false, nil
	}
	var s string
	if kind(raw) != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false, badArg(name, "%s is not a string", name)
	}
	return s, true, nil
}

// reqString reads a required `str` member (null is not a string).
func (f fields) reqString(name, cmd string) (string, *cmdError) {
	raw, ok := f[name]
	if !ok {
		return "", missing(name, cmd)
	}
	var s string
	if kind(raw) != '"' || json.Unmarshal(raw, &s) != nil {
		return "", badArg(name, "%s is not a string", name)
	}
	return s, nil
}

// optInt reads an `int | None = None` member. A number with a zero
// fraction (41.0) is an integer, as in JSON Schema; others are refused.
func (f fields) optInt(name string) (int64, bool, *cmdError) {
	raw, ok := f[name]
	if !ok || kind(raw) == 'n' {
		return 0, false, nil
	}
	k := kind(raw)
	if k != '-' && (k < '0' || k > '9') {
		return 0, false, badArg(name, "%s is not an integer", name)
	}
	lit := strings.TrimSpace(string(raw))
	if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return n, true, nil
	}
	x, err := strconv.ParseFloat(lit, 64)
	if err != nil || x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		return 0, false, badArg(name, "%s is not an integer", name)
	}
	return int64(x), true, nil
}

// optBool reads a `bool = False` member: absent is false, null is refused.
func (f fields) optBool(name string) (bool, *cmdError) {
	raw, ok := f[name]
	if !ok {
		return false, nil
	}
	var b bool
	if k := kind(raw); (k != 't' && k != 'f') || json.Unmarshal(raw, &b) != nil {
		return false, badArg(name, "%s is not a boolean", name)
	}
	return b, nil
}

// strings reads a `list[str] = []` member: absent is empty, null and
// anything but a list of strings are refused.
func (f fields) strings(name string) ([]string, *cmdError) {
	raw, ok := f[name]
	if !ok {
		return nil, nil
	}
	var list []string
	if kind(raw) != '[' || json.Unmarshal(raw, &list) != nil {
		return nil, badArg(name, "%s is not a list of strings", name)
	}
	return list, nil
}
