package coworker

// MCP runtime toggling (§set_enable_mcp, §session_settings).

// setEnableMcp switches MCP tool discovery for the session and answers
// with session_settings, sent "whenever they change". Setting the current
// value is answered too, so every request gets a confirmation.
func (s *session) setEnableMcp(p *payload) func() {
	on := p.boolean("enableMcp")
	return func() {
		s.enableMcp = on
		s.emitSettings()
	}
}
