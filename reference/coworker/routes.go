package coworker

// route is how one client message type is handled.
type route struct {
	// run reads and validates the message's members (problems are left in
	// the payload) and returns the action to take once the message passed
	// every check; nil for nothing to do.
	run func(s *session, p *payload) func()
	// idle requests are refused with busy while an agent turn runs: they
	// would start a second turn or change what the running one works on.
	idle bool
	// anySession marks client_hello, the one message without sessionId.
	anySession bool
}

// routes is the dispatch table: every client→server type of the spec
// (coworker-v3.md §Client -> Server Messages). Read-only.
var routes = map[string]route{
	"client_hello":      {run: (*session).clientHello, anySession: true},
	"ping":              {run: (*session).ping},
	"user_message":      {run: (*session).userMessage, idle: true},
	"ask_response":      {run: (*session).askResponse},
	"approval_response": {run: (*session).approvalResponse},
	"cancel":            {run: (*session).cancel},
	"reset":             {run: (*session).reset, idle: true},

	"set_model":                 {run: (*session).setModel, idle: true},
	"refresh_provider_status":   {run: (*session).refreshProviderStatus},
	"provider_catalog_get":      {run: (*session).providerCatalogGet},
	"provider_auth_methods_get": {run: (*session).providerAuthMethodsGet},
	"provider_auth_authorize":   {run: (*session).providerAuthAuthorize},
	"provider_auth_callback":    {run: (*session).providerAuthCallback},
	"provider_auth_set_api_key": {run: (*session).providerAuthSetAPIKey},

	"list_tools":      {run: (*session).listTools},
	"list_commands":   {run: (*session).listCommands},
	"execute_command": {run: (*session).executeCommand, idle: true},

	"list_skills":   {run: (*session).listSkills},
	"read_skill":    {run: (*session).readSkill},
	"disable_skill": {run: (*session).disableSkill},
	"enable_skill":  {run: (*session).enableSkill},
	"delete_skill":  {run: (*session).deleteSkill},

	"set_enable_mcp": {run: (*session).setEnableMcp},

	"session_backup_get":               {run: (*session).backupGet},
	"session_backup_checkpoint":        {run: (*session).backupCheckpoint, idle: true},
	"session_backup_restore":           {run: (*session).backupRestore, idle: true},
	"session_backup_delete_checkpoint": {run: (*session).backupDeleteCheckpoint, idle: true},

	"observability_query":  {run: (*session).observabilityQuery},
	"harness_context_get":  {run: (*session).harnessContextGet},
	"harness_context_set":  {run: (*session).harnessContextSet},
	"harness_slo_evaluate": {run: (*session).harnessSloEvaluate},
}
