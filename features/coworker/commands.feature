@coworker
Feature: Tools and slash commands
  coworker-v3.md §list_tools → tools, §list_commands → commands,
  §execute_command and §Command Execution: a command runs "a normal agent
  turn with the expanded text", echoed as "/NAME ARGUMENTS".

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.commands.list-tools
  @req:coworker.tools.response @req:coworker.list-tools.definition @req:coworker.tools.shape
  Scenario: list_tools is answered with tools
    coworker-v3.md §list_tools: "Request the list of available tools";
    §tools: a list of tool names.

    When the client sends:
      """
      {"type": "list_tools", "sessionId": "{sid}"}
      """
    Then the client receives "tools"
    And its "sessionId" is "{sid}"
    And its "tools" is an array
    And its "tools.0" is a string

  @id:coworker.commands.list-commands
  @req:coworker.commands.response @req:coworker.list-commands.definition @req:coworker.type.command-info @req:coworker.type.command-source
  Scenario: list_commands is answered with commands
    coworker-v3.md §list_commands: slash command metadata for this session;
    §commands: each CommandInfo has name, source and hints.

    When the client sends:
      """
      {"type": "list_commands", "sessionId": "{sid}"}
      """
    Then the client receives "commands"
    And its "sessionId" is "{sid}"
    And its "commands" is an array
    And its "commands.0.name" is a string
    And its "commands.0.source" is one of ["command", "mcp", "skill"]
    And its "commands.0.hints" is an array

  @id:coworker.commands.execute
  @req:coworker.flow.command-execution @req:coworker.execute-command.definition @req:coworker.commands.response
  Scenario: execute_command runs a normal turn echoed as the command line
    coworker-v3.md §execute_command: "Execute a server-side slash command by
    name"; §Command Execution: user_message echo "/NAME ARGUMENTS",
    session_busy true, assistant_message, session_busy false. The command is
    the first one list_commands names.

    When the client sends:
      """
      {"type": "list_commands", "sessionId": "{sid}"}
      """
    And the client receives "commands"
    And I remember its "commands.0.name" as "cmd"
    And the client sends:
      """
      {"type": "execute_command", "sessionId": "{sid}", "name": "{cmd}", "arguments": "HEAD~2..HEAD"}
      """
    Then the client receives, in order:
      | user_message      |                 |
      | session_busy      | {"busy": true}  |
      | assistant_message |                 |
      | session_busy      | {"busy": false} |
    And the client has received 1 "user_message" where "text" is "/{cmd} HEAD~2..HEAD"

  @id:coworker.commands.execute-client-message-id
  @req:coworker.execute-command.client-message-id @req:coworker.user-message.client-message-id
  Scenario: execute_command echoes its clientMessageId
    coworker-v3.md §execute_command: clientMessageId is optional;
    §user_message: clientMessageId is "echoed back for dedup".
    Interpretation: the command's echo carries it like a user_message's.

    When the client sends:
      """
      {"type": "list_commands", "sessionId": "{sid}"}
      """
    And the client receives "commands"
    And I remember its "commands.0.name" as "cmd"
    And the client sends:
      """
      {"type": "execute_command", "sessionId": "{sid}", "name": "{cmd}", "arguments": "HEAD", "clientMessageId": "cm-{unique}"}
      """
    Then the client receives "user_message"
    And its "clientMessageId" is "cm-{unique}"
    And the client receives "session_busy" with:
      """
      {"busy": false}
      """

  @id:coworker.commands.execute-script @reference-fixture
  @req:coworker.execute-command.definition @req:coworker.flow.command-execution
  Scenario: A command's template expands its arguments into the turn
    coworker-v3.md §execute_command: "The server resolves the command
    template and runs a normal agent turn with the expanded text". The
    reference server's "script" command (a fixture only it ships) has the
    template $ARGUMENTS, so its arguments reach the scripted agent: here an
    ask.

    When the client sends:
      """
      {"type": "execute_command", "sessionId": "{sid}", "name": "script", "arguments": "/ask confirm Proceed?"}
      """
    Then the client receives "user_message"
    And its "text" is "/script /ask confirm Proceed?"
    And the client receives "ask"
    And its "question" is "Proceed?"

  @id:coworker.commands.execute-unknown
  @req:coworker.execute-command.unknown @req:coworker.error-reference.validation-failed
  Scenario: execute_command of an unknown command is refused
    coworker-v3.md §execute_command: executes a command "by name".
    Interpretation: a name list_commands does not offer is validation_failed
    and starts no turn; the refusal names the command (validation_failed is
    the code of every invalid field).

    When the client sends:
      """
      {"type": "execute_command", "sessionId": "{sid}", "name": "no-such-command-{unique}"}
      """
    Then the client receives "error"
    And its "code" is "validation_failed"
    And the refusal names one of "no-such-command", "unknown command", "command not found", "no such command"
    And the client receives no "session_busy" within 300ms
