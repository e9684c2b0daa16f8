package myagent

import (
	"encoding/json"
	"fmt"
)

// event is one message of the EventProtocol base model
// (myagent-events.md §Core Protocol Structure). Members are written in this
// order; metadata maps marshal with sorted keys, so the same event is the
// same bytes every time.
type event struct {
	Event        string `json:"event"`
	Timestamp    string `json:"timestamp,omitempty"`
	SessionID    string `json:"session_id,omitempty"`
	ConnectionID string `json:"connection_id,omitempty"`
	StepID       string `json:"step_id,omitempty"`
	// Content is a string, an object or jsonNull (plan.cancelled).
	Content     any            `json:"content,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	ShowContent string         `json:"show_content,omitempty"`
	// Seq numbers the events of a session's stream; zero (omitted) on
	// replies addressed to one connection.
	Seq int64 `json:"seq,omitempty"`
}

// jsonNull is an explicit null content: plan.cancelled's payload is `null`
// (§All Event Types / Plan Events).
var jsonNull = json.RawMessage("null")

// Server event types, as the spec's tables name them.
const (
	evPlanStart       = "plan.start"
	evPlanCompleted   = "plan.completed"
	evPlanCancelled   = "plan.cancelled"
	evPlanCoercion    = "plan.coercion_error"
	evSolverStart     = "solver.start"
	evSolverCompleted = "solver.completed"
	evSolverCancelled = "solver.cancelled"
	evSolverRestarted = "solver.restarted"
	evAggStart        = "aggregate.start"
	evAggCompleted    = "aggregate.completed"
	evPipeline        = "pipeline.completed"
	evThinking        = "agent.thinking"
	evToolCall        = "agent.tool_call"
	evToolResult      = "agent.tool_result"
	evPartial         = "agent.partial_answer"
	evFinal           = "agent.final_answer"
	evConfirm         = "agent.user_confirm"
	evInterrupted     = "agent.interrupted"
	evSessionCreated  = "agent.session_created"
	evStateExported   = "agent.state_exported"
	evStateRestored   = "agent.state_restored"
	evConnected       = "system.connected"
	evNotice          = "system.notice"
	evHeartbeat       = "system.heartbeat"
	evValidation      = "error.validation"
	evTimeout         = "error.timeout"
	evExecution       = "error.execution"
	evRecoveryFailed  = "error.recovery_failed"
)

// showContent is the display text the spec's show_content carries
// (§Content vs Metadata Pattern: "auto-generated", Chinese in the
// examples); events not listed carry none.
func showContent(typ string, args ...any) string {
	switch typ {
	case evPlanStart:
		return "开始规划"
	case evPlanCompleted:
		return fmt.Sprintf("规划完成（%d 个任务）", args...)
	case evSolverStart:
		return fmt.Sprintf("开始求解：%s", args...)
	case evSolverCompleted:
		return fmt.Sprintf("求解完成：%s", args...)
	case evSolverCancelled:
		return fmt.Sprintf("已取消：%s", args...)
	case evSolverRestarted:
		return fmt.Sprintf("重新求解：%s", args...)
	case evAggStart:
		return "开始汇总"
	case evAggCompleted:
		return "汇总完成"
	case evPipeline:
		return "流程完成"
	case evInterrupted:
		return "执行已中断"
	case evTimeout:
		return "执行超时"
	case evExecution:
		return "执行失败"
	case evValidation:
		return "输入校验失败"
	case evRecoveryFailed:
		return "恢复失败"
	}
	return ""
}
