package hostd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"time"

	"github.com/wsconform/wsconform/internal/jsonx"
)

// Message types of hostd-mvp.md. Events travel host → server → app;
// commands app → server → host; run.ack server → host.
const (
	typeStarted   = "run.started"
	typeOutput    = "run.output"
	typeAwaiting  = "run.awaiting_input"
	typeExited    = "run.exited"
	typeInput     = "run.input"
	typeSendInput = "run.send_input"
	typeStop      = "run.stop"
	typeAck       = "run.ack"
)

// maxSeq keeps seq within the integers every JSON peer reads exactly
// (±(2^53-1)); a larger seq is refused rather than relayed mangled.
const maxSeq = 1<<53 - 1

var (
	uuidRE   = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	sha256RE = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// envelope is a decoded client message: the members hostd-mvp.md §Event
// Envelope defines. Members it does not define are dropped here ("unknown
// fields must be ignored"); data keeps its unknown members, decoded with
// json.Number so numbers are relayed exactly.
type envelope struct {
	Type   string
	RunID  string
	TS     string // the sender's ts when it is an RFC 3339 date-time, else ""
	Seq    int64
	HasSeq bool
	Data   map[string]any
}

// decode parses and checks the envelope of one client message. The error
// says what is wrong, for the log.
func decode(raw []byte) (envelope, error) {
	var env envelope
	doc, err := decodeObject(raw)
	if err != nil {
		return env, err
	}
	typ, ok := doc["type"].(string)
	if !ok {
		return env, errors.New("type is missing or not a string")
	}
	env.Type = typ
	if env.RunID, err = runIDOf(doc); err != nil {
		return env, err
	}
	if env.Data, ok = doc["data"].(map[string]any); !ok {
		return env, errors.New("data is missing or not an object")
	}
	if v, present := doc["seq"]; present {
		n, err := integer(v)
		if err != nil || n < 0 || n > maxSeq {
			return env, fmt.Errorf("seq is not an integer between 0 and 2^53-1: %v", v)
		}
		env.Seq, env.HasSeq = n, true
	}
	if ts, ok := doc["ts"].(string); ok {
		if _, err := time.Parse(time.RFC3339, ts); err == nil {
			env.TS = ts
		}
	}
	return env, nil
}

// decodeObject parses exactly one JSON object, numbers as json.Number.
func decodeObject(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("invalid JSON: data after the first value")
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("message is a JSON %s, not an object", jsonx.Kind(v))
	}
	return doc, nil
}

func runIDOf(doc map[string]any) (string, error) {
	id, ok := doc["run_id"].(string)
	if !ok || id == "" {
		return "", errors.New("run_id is missing, empty or not a string")
	}
	return id, nil
}

// integer reads an integral JSON number (1 or 1.0, as JSON Schema's
// "integer" does).
func integer(v any) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%s is not a number", jsonx.Kind(v))
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSeq {
		return 0, fmt.Errorf("%s is not an integer", n)
	}
	return int64(f), nil
}

// field checks one member of data.
type field struct {
	name     string
	optional bool
	check    func(v any) error
}

func isString(v any) error {
	if _, ok := v.(string); !ok {
		return fmt.Errorf("is a %s, not a string", jsonx.Kind(v))
	}
	return nil
}

func isInteger(v any) error {
	_, err := integer(v)
	return err
}

func oneOf(allowed ...string) func(any) error {
	return func(v any) error {
		s, ok := v.(string)
		if ok {
			for _, a := range allowed {
				if s == a {
					return nil
				}
			}
		}
		return fmt.Errorf("is %v, not one of %v", v, allowed)
	}
}

func matches(re *regexp.Regexp, what string) func(any) error {
	return func(v any) error {
		s, ok := v.(string)
		if !ok || !re.MatchString(s) {
			return fmt.Errorf("is %v, not %s", v, what)
		}
		return nil
	}
}

// eventFields are the data members hostd-mvp.md §Events defines, per event
// type: what a host must send for the server to relay the event.
var eventFields = map[string][]field{
	typeStarted: {{name: "tool", check: isString}, {name: "cwd", check: isString}, {name: "command", check: isString}},
	typeOutput:  {{name: "stream", check: oneOf("stdout", "stderr")}, {name: "text", check: isString}},
	typeAwaiting: {{name: "reason", check: oneOf("permission", "choice", "prompt", "unknown")},
		{name: "prompt", optional: true, check: isString}},
	typeExited: {{name: "exit_code", check: isInteger}},
	typeInput: {{name: "actor", check: oneOf("web", "cli", "system")},
		{name: "input_id", check: matches(uuidRE, "a UUID")},
		{name: "text_redacted", check: isString},
		{name: "text_sha256", check: matches(sha256RE, "64 lowercase hex digits")}},
}

// commandFields are the data members of the app commands (§Commands).
var commandFields = map[string][]field{
	typeSendInput: {{name: "input_id", check: matches(uuidRE, "a UUID")}, {name: "text", check: isString}},
	typeStop:      {{name: "signal", optional: true, check: oneOf("term", "kill")}},
}

// checkData applies fields to data.
func checkData(data map[string]any, fields []field) error {
	for _, f := range fields {
		v, present := data[f.name]
		if !present {
			if f.optional {
				continue
			}
			return fmt.Errorf("data.%s is missing", f.name)
		}
		if err := f.check(v); err != nil {
			return fmt.Errorf("data.%s %w", f.name, err)
		}
	}
	return nil
}

// isEvent reports whether typ is one of the run events a host sends.
func isEvent(typ string) bool {
	_, ok := eventFields[typ]
	return ok
}

// event is a run event as the server relays it to apps: the envelope
// rebuilt by the server, host_id taken from the host's connection.
type event struct {
	Type   string         `json:"type"`
	TS     string         `json:"ts"`
	HostID string         `json:"host_id"`
	RunID  string         `json:"run_id"`
	Seq    *int64         `json:"seq,omitempty"`
	Data   map[string]any `json:"data"`
}

// command is run.send_input or run.stop as the server forwards it to the
// owning host.
type command struct {
	Type   string `json:"type"`
	TS     string `json:"ts"`
	HostID string `json:"host_id"`
	RunID  string `json:"run_id"`
	Data   any    `json:"data"`
}

type sendInputData struct {
	InputID string `json:"input_id"`
	Text    string `json:"text"`
}

type stopData struct {
	Signal string `json:"signal"`
}

// ack is run.ack (§Acknowledgements). The run is named both in data, as
// the spec says, and in the envelope, so a client that reads either finds
// it.
type ack struct {
	Type   string         `json:"type"`
	TS     string         `json:"ts"`
	HostID string         `json:"host_id"`
	RunID  string         `json:"run_id"`
	Data   map[string]any `json:"data"`
}
