@coworker
Feature: Session lifecycle requests
  coworker-v3.md §Public Capabilities, session lifecycle: reset →
  reset_done; §set_enable_mcp → session_settings ("whenever they change").

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.session.reset
  @req:coworker.reset-done.response @req:coworker.reset.definition
  Scenario: reset is confirmed with reset_done
    coworker-v3.md §reset: "Clear conversation history and todos";
    §reset_done: "Confirms the conversation was cleared (response to reset)".

    When the client sends:
      """
      {"type": "reset", "sessionId": "{sid}"}
      """
    Then the client receives "reset_done"
    And its "sessionId" is "{sid}"
    And the effect cannot be observed: coworker-v3.md defines no message that shows the conversation history, so that reset cleared it is not seen

  @id:coworker.session.reset-after-turn @scripted
  @req:coworker.reset-done.response @req:coworker.reset.definition @req:coworker.chunk.legacy-events
  Scenario: reset after a turn is confirmed and the session goes on
    coworker-v3.md §reset: clears history and todos; §reset_done. A turn
    after the reset runs normally.

    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "/exec read {\"path\": \"README.md\"}"}
      """
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """
    And the client sends:
      """
      {"type": "reset", "sessionId": "{sid}"}
      """
    Then the client receives "reset_done"
    And the effect cannot be observed: coworker-v3.md defines no message that shows the conversation history (and the scripted agent keeps none), so that reset cleared it is not seen
    When the client sends:
      """
      {"type": "user_message", "sessionId": "{sid}", "text": "fresh start"}
      """
    Then the client receives "assistant_message"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """

  @id:coworker.session.set-enable-mcp
  @req:coworker.session-settings.sent @req:coworker.set-enable-mcp.definition @req:coworker.session-settings.shape
  Scenario: set_enable_mcp is reflected in session_settings
    coworker-v3.md §set_enable_mcp: "Enable/disable MCP tool
    discovery/execution for this session"; §session_settings: sent "whenever
    they change".

    When the client sends:
      """
      {"type": "set_enable_mcp", "sessionId": "{sid}", "enableMcp": false}
      """
    Then the client receives "session_settings" with:
      """
      {"enableMcp": false}
      """
    And its "sessionId" is "{sid}"
    When the client sends:
      """
      {"type": "set_enable_mcp", "sessionId": "{sid}", "enableMcp": true}
      """
    Then the client receives "session_settings" with:
      """
      {"enableMcp": true}
      """

  @id:coworker.session.mcp-tools @reference-fixture
  @req:coworker.set-enable-mcp.tools @req:coworker.tools.response
  Scenario: Disabling MCP removes the MCP tools
    coworker-v3.md §set_enable_mcp: MCP tool discovery is per session.
    Interpretation: with MCP disabled, list_tools no longer lists MCP tools
    (the reference server has one MCP tool besides six built-ins: a fixture
    only it ships).

    When the client sends:
      """
      {"type": "list_tools", "sessionId": "{sid}"}
      """
    And the client receives "tools"
    And its "tools" has 7 items
    And the client sends:
      """
      {"type": "set_enable_mcp", "sessionId": "{sid}", "enableMcp": false}
      """
    And the client receives "session_settings" with:
      """
      {"enableMcp": false}
      """
    And the client sends:
      """
      {"type": "list_tools", "sessionId": "{sid}"}
      """
    Then the client receives "tools"
    And its "tools" has 6 items
