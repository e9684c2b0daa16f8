package coworker

// The deterministic in-memory data the server answers from: what a real
// coworker server reads from its config, its provider SDKs, ~/.cowork and
// the project. Read-only tables; per-session changes live in the session.

const (
	homeDir    = "/home/coworker"
	projectDir = homeDir + "/project"
)

func defaultConfig() configSubset {
	return configSubset{
		Provider:         "openai",
		Model:            "gpt-5.2",
		WorkingDirectory: projectDir,
		OutputDirectory:  projectDir + "/output",
	}
}

// authMethod is one way to connect a provider (§provider_auth_methods).
type authMethod struct {
	ID        string `json:"id"`
	Type      string `json:"type"` // "api" or "oauth"
	Label     string `json:"label"`
	OAuthMode string `json:"oauthMode,omitempty"` // "auto" or "code"
}

// providerInfo is one provider of the catalog (§provider_catalog).
type providerInfo struct {
	ID           string
	Name         string
	Models       []string
	DefaultModel string
	Methods      []authMethod
	// Challenge is what provider_auth_authorize answers for its OAuth
	// method, if it has one.
	Challenge *challenge
}

type challenge struct {
	Method       string `json:"method"`
	Instructions string `json:"instructions"`
	Command      string `json:"command,omitempty"`
	URL          string `json:"url,omitempty"`
}

var apiKeyMethod = authMethod{ID: "api_key", Type: "api", Label: "API key"}

// providerCatalog lists the ProviderName values of §Type Definitions, in
// that order.
var providerCatalog = []providerInfo{
	{ID: "google", Name: "Google", Models: []string{"gemini-3-pro-preview", "gemini-3-flash-preview"},
		DefaultModel: "gemini-3-pro-preview", Methods: []authMethod{apiKeyMethod}},
	{ID: "openai", Name: "OpenAI", Models: []string{"gpt-5.2", "gpt-5.2-codex", "gpt-5-mini"},
		DefaultModel: "gpt-5.2", Methods: []authMethod{apiKeyMethod}},
	{ID: "anthropic", Name: "Anthropic", Models: []string{"claude-opus-4-5", "claude-sonnet-4-5", "claude-3-opus"},
		DefaultModel: "claude-sonnet-4-5", Methods: []authMethod{apiKeyMethod}},
	{ID: "codex-cli", Name: "Codex CLI", Models: []string{"gpt-5.2-codex", "gpt-5.2"},
		DefaultModel: "gpt-5.2-codex",
		Methods:      []authMethod{{ID: "oauth_cli", Type: "oauth", Label: "Sign in with Codex CLI", OAuthMode: "auto"}},
		Challenge:    &challenge{Method: "auto", Instructions: "Run Codex CLI sign-in, then continue.", Command: "codex login"}},
	{ID: "claude-code", Name: "Claude Code", Models: []string{"claude-sonnet-4-5", "claude-opus-4-5"},
		DefaultModel: "claude-sonnet-4-5",
		Methods: []authMethod{
			{ID: "oauth_code", Type: "oauth", Label: "Sign in with Claude (paste a code)", OAuthMode: "code"},
			apiKeyMethod,
		},
		Challenge: &challenge{Method: "code", Instructions: "Open the URL, sign in, then send the code you are shown with provider_auth_callback.",
			URL: "https://claude.example/oauth/authorize?client_id=wsconform-reference"}},
}

// providerNames are the catalog's ids, for validation messages.
func providerNames() []string {
	out := make([]string, len(providerCatalog))
	for i, p := range providerCatalog {
		out[i] = p.ID
	}
	return out
}

func findProvider(id string) *providerInfo {
	for i := range providerCatalog {
		if providerCatalog[i].ID == id {
			return &providerCatalog[i]
		}
	}
	return nil
}

func (p *providerInfo) method(id string) *authMethod {
	for i := range p.Methods {
		if p.Methods[i].ID == id {
			return &p.Methods[i]
		}
	}
	return nil
}

func (p *providerInfo) hasModel(m string) bool {
	for _, x := range p.Models {
		if x == m {
			return true
		}
	}
	return false
}

// baseTools are the built-in tools (§tools' own example); mcpTools join
// them while MCP is enabled.
var (
	baseTools = []string{"bash", "edit", "glob", "grep", "read", "write"}
	mcpTools  = []string{"mcp__docs__search"}
)

// command is a slash command with the template execute_command expands.
type command struct {
	Name, Description, Source string
	Hints                     []string
	Template                  string
}

var builtinCommands = []command{
	{Name: "review", Description: "review changes [commit|branch|pr], defaults to uncommitted", Source: "command",
		Hints: []string{"$ARGUMENTS"}, Template: "Review the changes in $ARGUMENTS"},
	{Name: "init", Description: "create an AGENTS.md file describing this project", Source: "command",
		Hints: []string{}, Template: "Create an AGENTS.md file describing this project."},
	{Name: "script", Description: "run the scripted agent on the arguments, e.g. /script /ask Continue?", Source: "command",
		Hints: []string{"$ARGUMENTS"}, Template: "$ARGUMENTS"},
}

// mcpCommands are prompts an MCP server exposes, listed while MCP is on.
var mcpCommands = []command{
	{Name: "docs-summarize", Description: "Prompt exposed by MCP: summarize a docs page", Source: "mcp",
		Hints: []string{"$1"}, Template: "Summarize the docs page $1"},
}

// skillInfo is a discovered skill as shipped; skill (skills.go) adds the
// session's enabled/deleted state.
type skillInfo struct {
	Name        string
	Source      string // project, global, user, built-in
	Enabled     bool   // initial state (global skills may start disabled)
	Triggers    []string
	Description string
	Interface   *skillInterface
	Content     string
}

type skillInterface struct {
	DisplayName      string   `json:"displayName,omitempty"`
	ShortDescription string   `json:"shortDescription,omitempty"`
	DefaultPrompt    string   `json:"defaultPrompt,omitempty"`
	Agents           []string `json:"agents,omitempty"`
}

var skillCatalog = []skillInfo{
	{Name: "pdf", Source: "project", Enabled: true, Triggers: []string{"pdf", ".pdf", "form"},
		Description: "Use when tasks involve reading, creating, or reviewing PDF files.",
		Interface: &skillInterface{DisplayName: "PDF Skill", ShortDescription: "Create, edit, and review PDFs",
			DefaultPrompt: "Create, edit, or review this PDF and summarize the key output or changes.", Agents: []string{"openai"}},
		Content: "# PDF Skill\n\nRead PDFs with `pdftotext`; fill forms field by field.\n"},
	{Name: "xlsx", Source: "global", Enabled: true, Triggers: []string{"xlsx", "spreadsheet"},
		Description: "Use when tasks involve spreadsheets.",
		Content:     "# Spreadsheet Skill\n\nKeep formulas; never paste values over them.\n"},
	{Name: "docx", Source: "global", Enabled: false, Triggers: []string{"docx", "word"},
		Description: "Use when tasks involve Word documents.",
		Content:     "# Word Skill\n\nTrack changes when editing someone else's document.\n"},
	{Name: "skill-creator", Source: "built-in", Enabled: true, Triggers: []string{"skill"},
		Description: "Use when the user wants to write a new skill.",
		Content:     "# Skill Creator\n\nA skill is a folder with a SKILL.md.\n"},
}

// observability is the session's observability configuration.
type observability struct {
	Mode             string   `json:"mode"`
	OtlpHTTPEndpoint string   `json:"otlpHttpEndpoint"`
	QueryAPI         queryAPI `json:"queryApi"`
	DefaultWindowSec int64    `json:"defaultWindowSec"`
}

type queryAPI struct {
	LogsBaseURL    string `json:"logsBaseUrl"`
	MetricsBaseURL string `json:"metricsBaseUrl"`
	TracesBaseURL  string `json:"tracesBaseUrl"`
}

var observabilityConfig = observability{
	Mode:             "local_docker",
	OtlpHTTPEndpoint: "http://127.0.0.1:14318",
	QueryAPI: queryAPI{
		LogsBaseURL:    "http://127.0.0.1:19428",
		MetricsBaseURL: "http://127.0.0.1:18428",
		TracesBaseURL:  "http://127.0.0.1:10428",
	},
	DefaultWindowSec: 300,
}

// sloActuals are the measured values SLO checks are evaluated against, by
// check type: a healthy system.
var sloActuals = map[string]float64{"latency": 120, "error_rate": 0, "custom": 0}
