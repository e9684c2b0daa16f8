@hostd
Feature: hostd forward compatibility: unknown fields are ignored
  hostd-mvp.md §Event Envelope: "Fields may be added over time; unknown
  fields must be ignored." A message that carries members the spec does not
  define is handled as if they were absent. These scenarios play the host
  (host_id "host-{unique}", run "run-{unique}").

  Background:
    Given I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    And I remember its "access_token" as "token"
    And client "app" connects to "/ws/app?token={token}"
    And client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"

  @id:hostd.compat.host-event-unknown-fields @req:hostd.envelope.unknown-fields-ignored @req:hostd.ack.after-persist @req:hostd.events.route
  Scenario: A host event with unknown members is persisted, acknowledged and relayed
    hostd-mvp.md §Event Envelope: unknown fields must be ignored. A
    run.started and a run.output from a newer host, with extra members in the
    envelope and in data, are handled like any other event.

    When client "host" sends:
      """
      {"type": "run.started", "ts": "2025-01-01T00:00:00Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "schema_version": 7, "trace": {"span": "abc", "sampled": true}, "labels": ["ci", "nightly"],
       "data": {"tool": "codex", "cwd": "/home/dev/{unique}", "command": "codex", "pid": 4242, "env": {"TERM": "xterm"}}}
      """
    Then client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 1}}
      """
    When client "host" sends:
      """
      {"type": "run.output", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2, "chunk_no": 1,
       "data": {"stream": "stdout", "text": "ok {unique}\n", "encoding": "utf-8", "bytes": 6}}
      """
    Then client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 2}}
      """
    And client "app" receives, in order:
      | run.started | {"run_id": "run-{unique}", "seq": 1, "data": {"tool": "codex", "command": "codex"}} |
      | run.output  | {"run_id": "run-{unique}", "seq": 2, "data": {"stream": "stdout"}}                 |
    And its "data.text" is "ok {unique}\n"

  @id:hostd.compat.app-command-unknown-fields @req:hostd.envelope.unknown-fields-ignored @req:hostd.commands.route
  Scenario: App commands with unknown members are forwarded
    hostd-mvp.md §Event Envelope: unknown fields must be ignored; §Commands.
    run.send_input and run.stop from a newer app, with extra members in the
    envelope and in data, still reach the host.

    Given client "host" sends:
      """
      {"type": "run.started", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "codex", "cwd": "/w", "command": "codex"}}
      """
    And client "host" receives "run.ack"
    When client "app" sends:
      """
      {"type": "run.send_input", "run_id": "run-{unique}", "client": {"name": "pwa", "version": "2.1"}, "req_id": 17,
       "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "go\n", "paste": false, "source": "keyboard"}}
      """
    Then client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "go\n"}}
      """
    When client "app" sends:
      """
      {"type": "run.stop", "run_id": "run-{unique}", "reason": "user pressed stop", "data": {"signal": "term", "grace_ms": 500}}
      """
    Then client "host" receives "run.stop" with:
      """
      {"run_id": "run-{unique}", "data": {"signal": "term"}}
      """

  @id:hostd.compat.http-input-unknown-fields @req:hostd.http.input-body @req:hostd.envelope.unknown-fields-ignored @req:hostd.http.input-forwarded
  Scenario: An HTTP input with unknown members is forwarded
    hostd-mvp.md §HTTP Endpoints: POST /runs/:run_id/input forwards
    run.send_input. Interpretation: the request body is run.send_input's
    data, and the envelope rule (unknown fields must be ignored) applies to
    it too.

    Given I use the header "Authorization" with "Bearer {token}"
    And client "host" sends:
      """
      {"type": "run.started", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "codex", "cwd": "/w", "command": "codex"}}
      """
    And client "host" receives "run.ack"
    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "go\n", "client_ts": "2025-01-01T00:00:00Z", "meta": {"a": 1}}
      """
    Then the HTTP status is 2xx
    And client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "go\n"}}
      """

  @id:hostd.compat.host-unknown-type @req:hostd.envelope.unknown-type-tolerated @req:hostd.envelope.unknown-fields-ignored
  Scenario: A host event of a type the server does not know does not break the connection
    hostd-mvp.md §Event Envelope: fields may be added over time, and `type`
    is a stable string. Interpretation: a newer host may send an event type
    this server does not know; the server does not close the connection for
    it and goes on persisting, acknowledging and relaying the host's known
    events.

    When client "host" sends:
      """
      {"type": "run.telemetry", "host_id": "host-{unique}", "run_id": "run-{unique}",
       "data": {"cpu": 0.4}}
      """
    And client "host" sends:
      """
      {"type": "run.started", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "codex", "cwd": "/w", "command": "codex"}}
      """
    Then client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 1}}
      """
    And client "app" receives "run.started" with:
      """
      {"run_id": "run-{unique}", "seq": 1}
      """
    And client "host" stays connected for 100ms
