package schemas_test

import (
	"encoding/json"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/wsconform/wsconform/internal/check"
	"github.com/wsconform/wsconform/internal/dialect"
	"github.com/wsconform/wsconform/internal/wire"
	"github.com/wsconform/wsconform/schemas"
)

// specTypes is every message type each spec names, by direction, counted by
// hand from ../shared/specs. The manifests must list exactly these, so a type
// missing from the schemas (or one invented) fails here.
var specTypes = map[string]map[wire.Direction][]string{
	"minicodex": { // minicodex-v1.md: 8 client commands, 15 server messages
		wire.ClientToServer: {"hello", "resume", "send", "approve", "deny", "abort", "get_snapshot", "ping"},
		wire.ServerToClient: {"welcome", "snapshot", "accepted", "run_status", "approval_pending",
			"approval_decision", "turn_done", "error", "heartbeat", "backpressure",
			"user_text", "assistant_text", "tool_call", "function_call_output", "reasoning"},
	},
	"hostd": { // hostd-mvp.md: 5 events and 2 commands travel both ways through the server; run.ack server→host
		wire.ClientToServer: {"run.started", "run.output", "run.awaiting_input", "run.exited", "run.input",
			"run.send_input", "run.stop"},
		wire.ServerToClient: {"run.started", "run.output", "run.awaiting_input", "run.exited", "run.input",
			"run.send_input", "run.stop", "run.ack"},
	},
	"myagent": { // myagent-events.md: the user.* table, and every other event of its tables
		wire.ClientToServer: {"user.message", "user.solve_tasks", "user.response", "user.cancel",
			"user.cancel_task", "user.restart_task", "user.ack", "user.create_session", "user.reconnect",
			"user.reconnect_with_state", "user.request_state"},
		wire.ServerToClient: {
			"plan.start", "plan.completed", "plan.cancelled", "plan.coercion_error",
			"solver.start", "solver.completed", "solver.cancelled", "solver.restarted",
			"aggregate.start", "aggregate.completed",
			"agent.thinking", "agent.tool_call", "agent.tool_result", "agent.partial_answer",
			"agent.final_answer", "agent.user_confirm", "agent.error", "agent.timeout",
			"agent.interrupted", "agent.session_created", "agent.session_end",
			"agent.state_exported", "agent.state_restored",
			"system.connected", "system.notice", "system.heartbeat", "system.error",
			"error.validation", "error.timeout", "error.execution", "error.retry",
			"error.recovery_started", "error.recovery_success", "error.recovery_failed",
			"pipeline.completed"},
	},
	"mitto": { // mitto.md: 7 frontend→backend, 14 backend→frontend
		wire.ClientToServer: {"prompt", "cancel", "ui_prompt_answer", "permission_answer", "load_events",
			"keepalive", "rename_session"},
		wire.ServerToClient: {"connected", "prompt_received", "user_prompt", "agent_message", "agent_thought",
			"tool_call", "tool_update", "ui_prompt", "ui_prompt_dismiss", "permission", "prompt_complete",
			"events_loaded", "keepalive_ack", "error"},
	},
	"coworker": { // coworker-v3.md: 31 client messages, 29 server events
		wire.ClientToServer: {"client_hello", "user_message", "ask_response", "approval_response", "set_model",
			"refresh_provider_status", "provider_catalog_get", "provider_auth_methods_get",
			"provider_auth_authorize", "provider_auth_callback", "provider_auth_set_api_key",
			"list_tools", "list_commands", "execute_command", "list_skills", "read_skill",
			"disable_skill", "enable_skill", "delete_skill", "set_enable_mcp",
			"harness_context_get", "harness_context_set", "observability_query", "harness_slo_evaluate",
			"reset", "cancel", "ping", "session_backup_get", "session_backup_checkpoint",
			"session_backup_restore", "session_backup_delete_checkpoint"},
		wire.ServerToClient: {"server_hello", "session_settings", "provider_catalog", "provider_auth_methods",
			"provider_auth_challenge", "provider_auth_result", "provider_status", "session_busy",
			"user_message", "model_stream_chunk", "assistant_message", "reasoning", "log", "todos",
			"ask", "approval", "config_updated", "tools", "commands", "skills_list", "skill_content",
			"session_backup_state", "observability_status", "harness_context",
			"observability_query_result", "harness_slo_result", "reset_done", "error", "pong"},
	},
}

// specCounts restates the counts so that an edit of specTypes that
// drops a type also fails.
var specCounts = map[string][2]int{
	"minicodex": {8, 15},
	"hostd":     {7, 8},
	"myagent":   {11, 35},
	"mitto":     {7, 14},
	"coworker":  {31, 29},
}

// httpBodies are hostd's HTTP bodies: the login request (interpretation) and
// response, and the input request.
var httpBodies = map[string][]string{
	"hostd": {"login_request", "login_response", "input_request"},
}

func TestSpecCoverage(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := specTypes[name]
			if got := [2]int{len(want[wire.ClientToServer]), len(want[wire.ServerToClient])}; got != specCounts[name] {
				t.Fatalf("specTypes counts %v, the spec has %v", got, specCounts[name])
			}
			d, err := dialect.Get(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
				missing, extra := diff(want[dir], d.Types(dir))
				if len(missing) > 0 {
					t.Errorf("%s: no schema for %s types %v", name, dir, missing)
				}
				if len(extra) > 0 {
					t.Errorf("%s: schemas for %s types the spec does not name: %v", name, dir, extra)
				}
			}
			for _, h := range httpBodies[name] {
				if _, ok := d.HTTPSchema(h); !ok {
					t.Errorf("%s: no HTTP body schema %q", name, h)
				}
			}
		})
	}
}

type example struct {
	Why     string          `json:"why"`
	Message json.RawMessage `json:"message"`
	Rule    string          `json:"rule"`
	Pointer *string         `json:"pointer"`
}

type exampleFile struct {
	Valid   []json.RawMessage `json:"valid"`
	Invalid []example         `json:"invalid"`
}

func TestExamples(t *testing.T) {
	t.Parallel()
	for _, name := range dialect.Names() {
		d, err := dialect.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range []wire.Direction{wire.ClientToServer, wire.ServerToClient} {
			for _, typ := range d.Types(dir) {
				file := path.Join(name, "examples", string(dir), typ+".json")
				t.Run(file, func(t *testing.T) {
					t.Parallel()
					ex := readExamples(t, file)
					for i, v := range ex.Valid {
						fs := check.Validate(d, frame(dir, v), check.Limits{})
						for _, f := range fs {
							t.Errorf("valid[%d] %s: unexpected finding %s at %q", i, v, f, f.Pointer)
						}
						if typeOf(t, d, v) != typ {
							t.Errorf("valid[%d] is not a %q message", i, typ)
						}
					}
					for i, inv := range ex.Invalid {
						fs := check.Validate(d, frame(dir, inv.Message), check.Limits{})
						expectRule(t, i, inv, fs)
					}
				})
			}
		}
		for _, h := range httpBodies[name] {
			file := path.Join(name, "examples", "http", h+".json")
			t.Run(file, func(t *testing.T) {
				t.Parallel()
				ex := readExamples(t, file)
				for i, v := range ex.Valid {
					for _, f := range check.ValidateHTTP(d, h, v, check.Limits{}) {
						t.Errorf("valid[%d]: unexpected finding %s", i, f)
					}
				}
				for i, inv := range ex.Invalid {
					expectRule(t, i, inv, check.ValidateHTTP(d, h, inv.Message, check.Limits{}))
				}
			})
		}
	}
}

func readExamples(t *testing.T, file string) exampleFile {
	t.Helper()
	raw, err := fs.ReadFile(schemas.FS, file)
	if err != nil {
		t.Fatalf("every message type needs examples: %v", err)
	}
	var ex exampleFile
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ex); err != nil {
		t.Fatalf("parse %s: %v", file, err)
	}
	if len(ex.Valid) == 0 || len(ex.Invalid) == 0 {
		t.Fatalf("%s needs at least one valid and one invalid example (has %d and %d)", file, len(ex.Valid), len(ex.Invalid))
	}
	return ex
}

func expectRule(t *testing.T, i int, inv example, fs []check.Finding) {
	t.Helper()
	if inv.Rule == "" || inv.Why == "" {
		t.Errorf("invalid[%d] needs a rule and a why", i)
		return
	}
	for _, f := range fs {
		if f.Rule == inv.Rule && (inv.Pointer == nil || f.Pointer == *inv.Pointer) {
			return
		}
	}
	want := inv.Rule
	if inv.Pointer != nil {
		want += " at " + *inv.Pointer
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.Rule+" at "+f.Pointer+" ("+f.Message+")")
	}
	t.Errorf("invalid[%d] (%s): want %s, got %v", i, inv.Why, want, got)
}

func frame(dir wire.Direction, payload []byte) wire.Frame {
	return wire.Frame{Conn: "c1", Dir: dir, Op: wire.OpText, Payload: payload}
}

func typeOf(t *testing.T, d *dialect.Dialect, raw []byte) string {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	s, _ := m[d.TypeField].(string)
	return s
}

var remoteRef = regexp.MustCompile(`"\$(ref|id)"\s*:\s*"(https?:|//)`)

// TestSchemasAreSelfContained keeps schemas offline: gojsonschema would
// fetch an http $ref at compile time.
func TestSchemasAreSelfContained(t *testing.T) {
	t.Parallel()
	err := fs.WalkDir(schemas.FS, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || strings.Contains(p, "/examples/") {
			return err
		}
		raw, err := fs.ReadFile(schemas.FS, p)
		if err != nil {
			return err
		}
		if remoteRef.Match(raw) {
			t.Errorf("%s has a remote $ref or an $id", p)
		}
		if strings.HasSuffix(p, "manifest.json") || strings.HasSuffix(p, "defs.json") {
			return nil
		}
		var head struct {
			Schema      string `json:"$schema"`
			Title       string `json:"title"`
			Description string `json:"description"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		if head.Schema != "http://json-schema.org/draft-07/schema#" {
			t.Errorf("%s: $schema is %q, want draft-07", p, head.Schema)
		}
		if !strings.Contains(head.Description, ".md §") {
			t.Errorf("%s: description must cite the spec section (\"<spec>.md §...\"), got %q", p, head.Description)
		}
		if want := strings.TrimSuffix(path.Base(p), ".json"); head.Title != want {
			t.Errorf("%s: title %q, want %q", p, head.Title, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func diff(want, got []string) (missing, extra []string) {
	w, g := set(want), set(got)
	for s := range w {
		if !g[s] {
			missing = append(missing, s)
		}
	}
	for s := range g {
		if !w[s] {
			extra = append(extra, s)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra
}

func set(list []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range list {
		m[s] = true
	}
	return m
}
