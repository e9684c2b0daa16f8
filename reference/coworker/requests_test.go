package coworker_test

import (
	"testing"

	"github.com/wsconform/wsconform/reference/reftest"
)

// step is one request and what it must be answered with: the message
// types in order, or an error code and source.
type step struct {
	typ    string
	kv     []any
	answer []string
	code   string // error code, when the answer is an error
	source string
	check  func(t *testing.T, msgs []reftest.Msg)
}

// run plays steps on a fresh session, in order.
func run(t *testing.T, steps []step) {
	t.Helper()
	s := connect(t, start(t))
	for i, st := range steps {
		s.send(st.typ, st.kv...)
		var msgs []reftest.Msg
		if st.code != "" {
			msgs = []reftest.Msg{s.expectError(t, st.code, st.source)}
		} else {
			msgs = s.ExpectSeq(st.answer...)
		}
		if st.check != nil {
			st.check(t, msgs)
		}
		if t.Failed() {
			t.Fatalf("step %d (%s) failed", i+1, st.typ)
		}
	}
	s.alive(t)
}

func want(t *testing.T, cond bool, m reftest.Msg, what string) {
	t.Helper()
	if !cond {
		t.Errorf("%s: %s", what, m)
	}
}

func TestProviders(t *testing.T) {
	t.Parallel()
	run(t, []step{
		{typ: "provider_catalog_get", answer: []string{"provider_catalog"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/all/1/id") == "openai" && m[0].Str("/default/openai") == "gpt-5.2" &&
				m[0].Str("/connected/0") == "openai" && !m[0].Has("/connected/1"), m[0], "catalog")
		}},
		{typ: "provider_auth_methods_get", answer: []string{"provider_auth_methods"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/methods/openai/0/id") == "api_key" && m[0].Str("/methods/codex-cli/0/oauthMode") == "auto", m[0], "methods")
		}},
		{typ: "refresh_provider_status", answer: []string{"provider_status"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/providers/1/provider") == "openai" && isTrue(m[0], "/providers/1/authorized") &&
				isFalse(m[0], "/providers/3/authorized"), m[0], "status")
		}},
		// OAuth (auto): callback before authorize fails, then the flow.
		{typ: "provider_auth_callback", kv: []any{"provider", "codex-cli", "methodId", "oauth_cli"}, answer: []string{"provider_auth_result"},
			check: func(t *testing.T, m []reftest.Msg) { want(t, isFalse(m[0], "/ok"), m[0], "callback without authorize") }},
		{typ: "provider_auth_authorize", kv: []any{"provider", "codex-cli", "methodId", "oauth_cli"}, answer: []string{"provider_auth_challenge"},
			check: func(t *testing.T, m []reftest.Msg) {
				want(t, m[0].Str("/challenge/method") == "auto" && m[0].Str("/challenge/command") == "codex login", m[0], "challenge")
			}},
		{typ: "provider_auth_callback", kv: []any{"provider", "codex-cli", "methodId", "oauth_cli"},
			answer: []string{"provider_auth_result", "provider_status", "provider_catalog"},
			check: func(t *testing.T, m []reftest.Msg) {
				want(t, isTrue(m[0], "/ok") && m[0].Str("/mode") == "oauth", m[0], "result")
				want(t, m[1].Str("/providers/3/mode") == "oauth" && m[1].Str("/providers/3/account/email") != "", m[1], "status")
				want(t, m[2].Str("/connected/1") == "codex-cli", m[2], "catalog")
			}},
		// OAuth (code): the code is required.
		{typ: "provider_auth_authorize", kv: []any{"provider", "claude-code", "methodId", "oauth_code"}, answer: []string{"provider_auth_challenge"}},
		{typ: "provider_auth_callback", kv: []any{"provider", "claude-code", "methodId", "oauth_code"}, answer: []string{"provider_auth_result"},
			check: func(t *testing.T, m []reftest.Msg) { want(t, isFalse(m[0], "/ok"), m[0], "callback without code") }},
		{typ: "provider_auth_callback", kv: []any{"provider", "claude-code", "methodId", "oauth_code", "code", "abc123"},
			answer: []string{"provider_auth_result", "provider_status", "provider_catalog"}},
		// API keys.
		{typ: "provider_auth_set_api_key", kv: []any{"provider", "anthropic", "methodId", "api_key", "apiKey", "short"}, answer: []string{"provider_auth_result"},
			check: func(t *testing.T, m []reftest.Msg) {
				want(t, isFalse(m[0], "/ok") && !m[0].Has("/mode"), m[0], "short key")
			}},
		{typ: "provider_auth_set_api_key", kv: []any{"provider", "anthropic", "methodId", "api_key", "apiKey", "sk-ant-0123456789"},
			answer: []string{"provider_auth_result", "provider_status", "provider_catalog"},
			check: func(t *testing.T, m []reftest.Msg) {
				want(t, isTrue(m[0], "/ok") && m[0].Str("/mode") == "api_key" && m[0].Str("/message") == "Provider key saved.", m[0], "key")
			}},
		// Method of the wrong kind, unknown method or provider, empty key.
		{typ: "provider_auth_authorize", kv: []any{"provider", "openai", "methodId", "api_key"}, code: "provider_error", source: "provider"},
		{typ: "provider_auth_callback", kv: []any{"provider", "openai", "methodId", "api_key"}, code: "provider_error", source: "provider"},
		{typ: "provider_auth_set_api_key", kv: []any{"provider", "codex-cli", "methodId", "oauth_cli", "apiKey", "sk-0123456789"}, code: "provider_error", source: "provider"},
		{typ: "provider_auth_authorize", kv: []any{"provider", "openai", "methodId", "oauth_web"}, code: "validation_failed", source: "protocol"},
		{typ: "provider_auth_authorize", kv: []any{"provider", "mistral", "methodId", "api_key"}, code: "validation_failed", source: "protocol"},
		{typ: "provider_auth_set_api_key", kv: []any{"provider", "openai", "methodId", "api_key", "apiKey", ""}, code: "validation_failed", source: "protocol"},
		// set_model.
		{typ: "set_model", kv: []any{"model", "claude-opus-4-5", "provider", "anthropic"}, answer: []string{"config_updated"},
			check: func(t *testing.T, m []reftest.Msg) {
				want(t, m[0].Str("/config/provider") == "anthropic" && m[0].Str("/config/model") == "claude-opus-4-5" &&
					m[0].Str("/config/outputDirectory") != "", m[0], "config")
			}},
		{typ: "set_model", kv: []any{"model", "claude-3-opus"}, answer: []string{"config_updated"},
			check: func(t *testing.T, m []reftest.Msg) {
				want(t, m[0].Str("/config/provider") == "anthropic", m[0], "provider kept")
			}},
		{typ: "set_model", kv: []any{"model", "gpt-5.2"}, code: "provider_error", source: "provider"},
		{typ: "set_model", kv: []any{"model", "x", "provider", "mistral"}, code: "validation_failed", source: "protocol"},
	})
}

func TestModelReachesTheStream(t *testing.T) {
	t.Parallel()
	s := connect(t, start(t))
	s.send("set_model", "model", "gpt-5.2-codex", "provider", "codex-cli")
	s.Expect("config_updated")
	s.send("user_message", "text", "hi")
	cs, _ := chunks(s.idle(t))
	if cs[0].Str("/provider") != "codex-cli" || cs[0].Str("/model") != "gpt-5.2-codex" {
		t.Fatalf("chunk: %s", cs[0])
	}
}

func TestToolsCommandsMcp(t *testing.T) {
	t.Parallel()
	run(t, []step{
		{typ: "list_tools", answer: []string{"tools"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/tools/0") == "bash" && m[0].Str("/tools/6") == "mcp__docs__search", m[0], "tools with MCP")
		}},
		{typ: "list_commands", answer: []string{"commands"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/commands/0/name") == "review" && m[0].Str("/commands/0/hints/0") == "$ARGUMENTS" &&
				m[0].Str("/commands/3/source") == "mcp" && m[0].Str("/commands/4/source") == "skill", m[0], "commands")
		}},
		{typ: "set_enable_mcp", kv: []any{"enableMcp", false}, answer: []string{"session_settings"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, isFalse(m[0], "/enableMcp"), m[0], "settings")
		}},
		{typ: "list_tools", answer: []string{"tools"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, !m[0].Has("/tools/6"), m[0], "tools without MCP")
		}},
		{typ: "list_commands", answer: []string{"commands"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/commands/3/source") == "skill", m[0], "commands without MCP")
		}},
		{typ: "execute_command", kv: []any{"name", "docs-summarize", "arguments", "intro"}, code: "validation_failed", source: "session"},
		{typ: "set_enable_mcp", kv: []any{"enableMcp", true}, answer: []string{"session_settings"}},
		{typ: "execute_command", kv: []any{"name", "nope"}, code: "validation_failed", source: "session"},
		{typ: "set_enable_mcp", kv: []any{"enableMcp", "yes"}, code: "validation_failed", source: "protocol"},
	})
}

func TestExecuteCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, args, echo, reply string
	}{
		{"review", "HEAD~2..HEAD", "/review HEAD~2..HEAD", "Echo: Review the changes in HEAD~2..HEAD"},
		{"init", "", "/init", "Echo: Create an AGENTS.md file describing this project."},
		{"docs-summarize", "intro extra", "/docs-summarize intro extra", "Echo: Summarize the docs page intro"},
		{"pdf", "fill the form", "/pdf fill the form", "Echo: Use the pdf skill: fill the form"},
		{"script", "/stream 2", "/script /stream 2", "chunk 1 of 2. chunk 2 of 2. "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := connect(t, start(t))
			kv := []any{"name", tt.name, "clientMessageId", "cm-7"}
			if tt.args != "" {
				kv = append(kv, "arguments", tt.args)
			}
			s.send("execute_command", kv...)
			first := s.ExpectSeq("user_message", "session_busy")
			if first[0].Str("/text") != tt.echo || first[0].Str("/clientMessageId") != "cm-7" {
				t.Fatalf("echo %s, want %q", first[0], tt.echo)
			}
			msgs := s.idle(t)
			requireIndexes(t, msgs)
			if am, _ := find(msgs, "assistant_message"); am.Str("/text") != tt.reply {
				t.Fatalf("reply %s, want %q", am, tt.reply)
			}
		})
	}
}

func TestSkills(t *testing.T) {
	t.Parallel()
	run(t, []step{
		{typ: "list_skills", answer: []string{"skills_list"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/skills/0/name") == "pdf" && m[0].Str("/skills/0/interface/displayName") == "PDF Skill" &&
				isFalse(m[0], "/skills/2/enabled") && m[0].Str("/skills/3/source") == "built-in", m[0], "skills")
		}},
		{typ: "read_skill", kv: []any{"skillName", "pdf"}, answer: []string{"skill_content"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/skill/name") == "pdf" && m[0].Str("/content") != "", m[0], "content")
		}},
		{typ: "enable_skill", kv: []any{"skillName", "docx"}, answer: []string{"skills_list"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, isTrue(m[0], "/skills/2/enabled") && m[0].Str("/skills/2/path") == "/home/coworker/.cowork/skills/docx/SKILL.md", m[0], "enabled")
		}},
		{typ: "list_commands", answer: []string{"commands"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/commands/6/name") == "docx", m[0], "enabled skill is a command")
		}},
		{typ: "disable_skill", kv: []any{"skillName", "xlsx"}, answer: []string{"skills_list"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, isFalse(m[0], "/skills/1/enabled") && m[0].Str("/skills/1/path") == "/home/coworker/.cowork/disabled-skills/xlsx/SKILL.md", m[0], "disabled")
		}},
		{typ: "delete_skill", kv: []any{"skillName", "xlsx"}, answer: []string{"skills_list"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/skills/1/name") == "docx", m[0], "deleted")
		}},
		{typ: "read_skill", kv: []any{"skillName", "xlsx"}, code: "validation_failed", source: "session"},
		{typ: "disable_skill", kv: []any{"skillName", "pdf"}, code: "permission_denied", source: "permissions"},
		{typ: "delete_skill", kv: []any{"skillName", "skill-creator"}, code: "permission_denied", source: "permissions"},
		{typ: "read_skill", kv: []any{"skillName", "../../etc/passwd"}, code: "permission_denied", source: "permissions"},
		{typ: "enable_skill", kv: []any{"skillName", ""}, code: "validation_failed", source: "protocol"},
		{typ: "read_skill", kv: []any{"skillName", 7}, code: "validation_failed", source: "protocol"},
	})
}

func TestBackup(t *testing.T) {
	t.Parallel()
	run(t, []step{
		{typ: "session_backup_get", answer: []string{"session_backup_state"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/reason") == "requested" && m[0].Str("/backup/status") == "ready" &&
				m[0].Str("/backup/sessionId") == m[0].Str("/sessionId") && !m[0].Has("/backup/checkpoints/0"), m[0], "state")
		}},
		{typ: "session_backup_checkpoint", answer: []string{"session_backup_state"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/reason") == "manual_checkpoint" && m[0].Str("/backup/checkpoints/0/id") == "cp-0001" &&
				m[0].Int("/backup/checkpoints/0/index") == 1 && m[0].Str("/backup/checkpoints/0/trigger") == "manual" &&
				isFalse(m[0], "/backup/checkpoints/0/changed"), m[0], "manual checkpoint")
		}},
		{typ: "session_backup_checkpoint", answer: []string{"session_backup_state"}},
		{typ: "session_backup_restore", kv: []any{"checkpointId", "cp-0001"}, answer: []string{"session_backup_state"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/reason") == "restore", m[0], "restore")
		}},
		{typ: "session_backup_restore", answer: []string{"session_backup_state"}},
		{typ: "session_backup_delete_checkpoint", kv: []any{"checkpointId", "cp-0001"}, answer: []string{"session_backup_state"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/reason") == "delete" && m[0].Str("/backup/checkpoints/0/id") == "cp-0002", m[0], "delete")
		}},
		{typ: "session_backup_restore", kv: []any{"checkpointId", "cp-0001"}, code: "backup_error", source: "backup"},
		{typ: "session_backup_delete_checkpoint", kv: []any{"checkpointId", "cp-0009"}, code: "validation_failed", source: "backup"},
		{typ: "session_backup_delete_checkpoint", code: "validation_failed", source: "protocol"},
		{typ: "session_backup_restore", kv: []any{"checkpointId", ""}, code: "validation_failed", source: "protocol"},
	})
}

// Checkpoints stay bounded however long the session runs.
func TestBackupIsBounded(t *testing.T) {
	t.Parallel()
	s := connect(t, start(t))
	for i := 0; i < 70; i++ {
		s.send("session_backup_checkpoint")
	}
	var last reftest.Msg
	for i := 0; i < 70; i++ {
		last = s.Expect("session_backup_state")
	}
	if last.Has("/backup/checkpoints/64") || last.Str("/backup/checkpoints/63/id") != "cp-0070" || last.Str("/backup/checkpoints/0/id") != "cp-0007" {
		t.Fatalf("checkpoints not bounded to the newest 64: %.300s", last)
	}
}

func TestObservabilityHarness(t *testing.T) {
	t.Parallel()
	check := map[string]any{"id": "vector_errors", "type": "custom", "queryType": "promql",
		"query": "sum(rate(vector_component_errors_total[5m]))", "op": "<=", "threshold": 0, "windowSec": 300}
	latency := map[string]any{"id": "p99", "type": "latency", "queryType": "promql", "query": "p99", "op": "<", "threshold": 100, "windowSec": 60}
	ctx := map[string]any{"runId": "run-01", "taskId": "task-123", "objective": "Improve startup reliability",
		"acceptanceCriteria": []string{"startup < 800ms"}, "constraints": []string{"no product behavior changes"},
		"metadata": map[string]any{"owner": "platform"}}
	run(t, []step{
		{typ: "observability_query", kv: []any{"query", map[string]any{"queryType": "promql", "query": "up", "fromMs": 1738736400000, "toMs": 1738736700000, "limit": 200}},
			answer: []string{"observability_query_result"}, check: func(t *testing.T, m []reftest.Msg) {
				want(t, m[0].Str("/result/status") == "ok" && m[0].Int("/result/fromMs") == 1738736400000 &&
					m[0].Str("/result/data/data/resultType") == "vector", m[0], "promql")
			}},
		{typ: "observability_query", kv: []any{"query", map[string]any{"queryType": "logql", "query": `{app="x"}`}},
			answer: []string{"observability_query_result"}, check: func(t *testing.T, m []reftest.Msg) {
				want(t, m[0].Int("/result/toMs")-m[0].Int("/result/fromMs") == 300000, m[0], "default window")
			}},
		{typ: "observability_query", kv: []any{"query", map[string]any{"queryType": "traceql", "query": " "}}, code: "observability_error", source: "observability"},
		{typ: "observability_query", kv: []any{"query", map[string]any{"queryType": "promql", "query": "up", "fromMs": 2, "toMs": 1}}, code: "observability_error", source: "observability"},
		{typ: "observability_query", kv: []any{"query", map[string]any{"queryType": "sql", "query": "up"}}, code: "validation_failed", source: "protocol"},
		{typ: "observability_query", kv: []any{"query", map[string]any{"queryType": "promql", "query": "up", "limit": 1.5}}, code: "validation_failed", source: "protocol"},
		{typ: "harness_context_get", answer: []string{"harness_context"}, check: func(t *testing.T, m []reftest.Msg) {
			v, ok := m[0].Get("/context")
			want(t, ok && v == nil, m[0], "unset context is null")
		}},
		{typ: "harness_context_set", kv: []any{"context", ctx}, answer: []string{"harness_context"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/context/runId") == "run-01" && m[0].Str("/context/metadata/owner") == "platform" && m[0].Str("/context/updatedAt") != "", m[0], "set")
		}},
		{typ: "harness_context_get", answer: []string{"harness_context"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, m[0].Str("/context/taskId") == "task-123", m[0], "get after set")
		}},
		{typ: "harness_context_set", kv: []any{"context", map[string]any{"runId": "r", "objective": "o", "acceptanceCriteria": []any{1}, "constraints": []string{}}},
			code: "validation_failed", source: "protocol"},
		{typ: "harness_context_set", kv: []any{"context", map[string]any{"runId": "r", "objective": "o", "acceptanceCriteria": []string{}, "constraints": []string{}, "metadata": map[string]any{"n": 1}}},
			code: "validation_failed", source: "protocol"},
		{typ: "harness_slo_evaluate", kv: []any{"checks", []any{check, latency}}, answer: []string{"harness_slo_result"}, check: func(t *testing.T, m []reftest.Msg) {
			want(t, isTrue(m[0], "/result/reportOnly") && isFalse(m[0], "/result/passed") &&
				isTrue(m[0], "/result/checks/0/pass") && isFalse(m[0], "/result/checks/1/pass") &&
				m[0].Int("/result/toMs")-m[0].Int("/result/fromMs") == 300000, m[0], "slo")
		}},
		{typ: "harness_slo_evaluate", kv: []any{"checks", []any{}}, code: "validation_failed", source: "protocol"},
		{typ: "harness_slo_evaluate", kv: []any{"checks", []any{map[string]any{"id": "x"}}}, code: "validation_failed", source: "protocol"},
		{typ: "harness_slo_evaluate", kv: []any{"checks", []any{map[string]any{"id": "x", "type": "custom", "queryType": "promql", "query": "", "op": "<", "threshold": 1, "windowSec": 5}}},
			code: "observability_error", source: "observability"},
	})
}

func TestReset(t *testing.T) {
	t.Parallel()
	s := connect(t, start(t))
	s.send("user_message", "text", `/exec bash {"command":"ls"}`)
	s.idle(t)
	s.send("reset")
	s.ExpectSeq("reset_done")
	s.send("user_message", "text", "fresh start")
	s.Expect("user_message")
	s.idle(t)
}
