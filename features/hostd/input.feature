@hostd
Feature: hostd input: forwarded to the owning host, once per input_id
  hostd-mvp.md §HTTP Endpoints: POST /runs/:run_id/input (Bearer auth)
  forwards run.send_input to the owning host; §Commands: an app may send
  run.send_input itself; §Identifiers: input_id is a client-generated UUID
  that makes inputs idempotent. The host records an input it wrote to the
  PTY with run.input. These scenarios play the host (host_id
  "host-{unique}", run "run-{unique}"); input_ids end in {unique}.

  Two readings run through this feature, and the scenarios that rest on
  them cite an interpretation first (an observation, never a failure): the
  spec gives no request body for POST /runs/:run_id/input (Interpretation:
  run.send_input's data {input_id, text}), and it does not say which side
  de-duplicates a repeated input_id (Interpretation: the server does, so a
  host is sent an input_id once).

  Background:
    Given I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    And I remember its "access_token" as "token"
    And I use the header "Authorization" with "Bearer {token}"
    And client "app" connects to "/ws/app?token={token}"
    And client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    And client "host" sends:
      """
      {"type": "run.started", "ts": "2025-01-01T00:00:00Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "codex", "cwd": "/home/dev/{unique}", "command": "codex"}}
      """
    And client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 1}}
      """

  @id:hostd.input.http-forwarded @req:hostd.http.input-body @req:hostd.http.input-forwarded @req:hostd.run-input.after-pty-write @req:hostd.ack.after-persist
  Scenario: An HTTP input is forwarded to the host that owns the run, and only to it
    hostd-mvp.md §HTTP Endpoints: POST /runs/:run_id/input "forwards
    run.send_input to the owning host". Interpretation: the request body is
    run.send_input's data {input_id, text}, forwarded as is, and a forwarded
    input is answered 2xx. Another host connected at the same time gets
    nothing. The host then records the input (run.input), which reaches the
    app (§Events (hostd → server → web)).

    Given client "other" connects to "/ws/host?host_id=host-other-{unique}&host_token={host_token}"
    And client "other" sends:
      """
      {"type": "run.started", "host_id": "host-other-{unique}", "run_id": "run-other-{unique}", "seq": 1,
       "data": {"tool": "claude", "cwd": "/other", "command": "claude"}}
      """
    And client "other" receives "run.ack"
    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "hello\n"}
      """
    Then the HTTP status is 2xx
    And client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "hello\n"}}
      """
    And client "other" receives no "run.send_input" within 300ms
    When client "host" sends:
      """
      {"type": "run.input", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"actor": "web", "input_id": "00000000-0000-4000-8000-{unique}", "text_redacted": "hello",
                "text_sha256": "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"}}
      """
    Then client "app" receives "run.input" with:
      """
      {"run_id": "run-{unique}", "seq": 2,
       "data": {"actor": "web", "input_id": "00000000-0000-4000-8000-{unique}", "text_redacted": "hello",
                "text_sha256": "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"}}
      """
    And client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 2}}
      """

  @id:hostd.input.forwarded-after-host-reconnect @req:hostd.commands.route @req:hostd.http.input-forwarded @req:hostd.ids.host-id @req:hostd.ack.after-persist
  Scenario: An input reaches the owning host on its new connection after a reconnect
    hostd-mvp.md §Commands (web/cli → server → hostd) / run.send_input: the
    server forwards an app's input to the host of the run ("to the owning
    host", §HTTP Endpoints); §WebSocket Endpoints: the host connection is
    outbound from hostd and identified by host_id. After the host lost its
    connection, opened a new one with the same host_id and reported its
    run's next event there (acknowledged, so the new connection is in
    service), an input for the run goes to the new connection.

    Given client "host" drops the connection
    And client "host" reconnects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "back online\n"}}
      """
    And client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 2}}
      """
    When client "app" sends:
      """
      {"type": "run.send_input", "ts": "2025-01-01T00:00:02Z", "run_id": "run-{unique}",
       "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "hello\n"}}
      """
    Then client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "hello\n"}}
      """

  @id:hostd.input.http-idempotent @req:hostd.ids.input-id-server-dedupes @req:hostd.ids.input-id-idempotent
  Scenario: Repeating an HTTP input with the same input_id forwards it once
    hostd-mvp.md §Identifiers: input_id is a client-generated UUID "to make
    inputs idempotent". Interpretation: the server de-duplicates, so a
    client that retries (it lost the first answer) is answered with success
    and the host receives the input once.

    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "yes\n"}
      """
    And the HTTP status is 2xx
    And client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "00000000-0000-4000-8000-{unique}"}}
      """
    And I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "yes\n"}
      """
    Then the HTTP status is 2xx
    And client "host" receives no "run.send_input" within 300ms
    And client "host" has received 1 "run.send_input" where "data.input_id" is "00000000-0000-4000-8000-{unique}"

  @id:hostd.input.http-idempotent-after-recorded @req:hostd.ids.input-id-server-dedupes @req:hostd.ids.input-id-idempotent @req:hostd.run-input.after-pty-write
  Scenario: An input the host already recorded is not forwarded again
    hostd-mvp.md §Identifiers (idempotent input_id) and §Events / run.input
    (emitted after an input is accepted and written to the PTY).
    Interpretation: the server de-duplicates, so once the host recorded the
    input, a retry with the same input_id succeeds and is not sent to the
    host a second time.

    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "yes\n"}
      """
    And client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "00000000-0000-4000-8000-{unique}"}}
      """
    And client "host" sends:
      """
      {"type": "run.input", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"actor": "web", "input_id": "00000000-0000-4000-8000-{unique}", "text_redacted": "yes",
                "text_sha256": "5040625b1fb6fa4af07226683f6e6003b29e5e70b16f8cfb24be7a752393f0ee"}}
      """
    And client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 2}}
      """
    And I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "yes\n"}
      """
    Then the HTTP status is 2xx
    And client "host" receives no "run.send_input" within 300ms
    And client "host" has received 1 "run.send_input" where "data.input_id" is "00000000-0000-4000-8000-{unique}"

  @id:hostd.input.ws-forwarded @req:hostd.commands.route @req:hostd.send-input.data @req:hostd.run-input.after-pty-write @req:hostd.run-input.data @req:hostd.ack.after-persist
  Scenario: run.send_input from an app is forwarded to the owning host, and only to it
    hostd-mvp.md §Commands (web/cli → server → hostd) / run.send_input:
    data {input_id, text}; the server forwards it to the host of the run
    ("to the owning host", §HTTP Endpoints), so another host connected at
    the same time gets nothing. The host then records the input (run.input),
    which the server relays to the app (§Events (hostd → server → web)) and
    acknowledges with the run's last persisted seq (§Acknowledgements).

    Given client "other" connects to "/ws/host?host_id=host-other-{unique}&host_token={host_token}"
    And client "other" sends:
      """
      {"type": "run.started", "host_id": "host-other-{unique}", "run_id": "run-other-{unique}", "seq": 1,
       "data": {"tool": "claude", "cwd": "/other", "command": "claude"}}
      """
    And client "other" receives "run.ack"
    When client "app" sends:
      """
      {"type": "run.send_input", "ts": "2025-01-01T00:00:01Z", "run_id": "run-{unique}",
       "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "ls\n"}}
      """
    Then client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "ls\n"}}
      """
    And client "other" receives no "run.send_input" within 300ms
    When client "host" sends:
      """
      {"type": "run.input", "ts": "2025-01-01T00:00:02Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"actor": "web", "input_id": "00000000-0000-4000-8000-{unique}", "text_redacted": "ls",
                "text_sha256": "e9fe7e88e89d532379960402db8f9458194dae772aa5fda5a12806c22215f0ff"}}
      """
    Then client "app" receives "run.input" with:
      """
      {"run_id": "run-{unique}", "seq": 2,
       "data": {"actor": "web", "input_id": "00000000-0000-4000-8000-{unique}", "text_redacted": "ls"}}
      """
    And client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 2}}
      """

  @id:hostd.input.ws-idempotent @req:hostd.ids.input-id-server-dedupes @req:hostd.ids.input-id-idempotent
  Scenario: An app sending the same input_id twice reaches the host once
    hostd-mvp.md §Identifiers: input_id makes inputs idempotent; §Commands /
    run.send_input. Interpretation: the server de-duplicates, so an app that
    re-sends a command (after a reconnect, say) does not make the server
    send the input to the host twice.

    When client "app" sends:
      """
      {"type": "run.send_input", "run_id": "run-{unique}",
       "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "ls\n"}}
      """
    And client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "00000000-0000-4000-8000-{unique}"}}
      """
    And client "app" sends:
      """
      {"type": "run.send_input", "run_id": "run-{unique}",
       "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "ls\n"}}
      """
    Then client "host" receives no "run.send_input" within 300ms
    And client "host" has received 1 "run.send_input" where "data.input_id" is "00000000-0000-4000-8000-{unique}"

  @id:hostd.input.idempotent-across-channels @req:hostd.ids.input-id-server-dedupes @req:hostd.ids.input-id-idempotent
  Scenario: One input_id sent over HTTP and then over the app socket is forwarded once
    hostd-mvp.md §Identifiers: input_id makes inputs idempotent, whichever
    way the input arrives (§HTTP Endpoints input or §Commands run.send_input).
    Interpretation: the server de-duplicates across both ways.

    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "y\n"}
      """
    And the HTTP status is 2xx
    And client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "00000000-0000-4000-8000-{unique}"}}
      """
    And client "app" sends:
      """
      {"type": "run.send_input", "run_id": "run-{unique}",
       "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "y\n"}}
      """
    Then client "host" receives no "run.send_input" within 300ms
    And client "host" has received 1 "run.send_input" where "data.input_id" is "00000000-0000-4000-8000-{unique}"

  @id:hostd.input.distinct-ids-each-forwarded @req:hostd.http.input-order @req:hostd.http.input-forwarded
  Scenario: Inputs with different input_ids are each forwarded, in order
    hostd-mvp.md §Identifiers: input_id identifies one input; idempotency
    only merges repeats of the same id. Two inputs with the same text and
    different ids both reach the host. Interpretation: in the order they
    were sent (the spec says nothing of the order of inputs).

    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "11111111-0000-4000-8000-{unique}", "text": "y\n"}
      """
    And the HTTP status is 2xx
    And I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "22222222-0000-4000-8000-{unique}", "text": "y\n"}
      """
    And the HTTP status is 2xx
    Then client "host" receives, in order:
      | run.send_input | {"run_id": "run-{unique}", "data": {"input_id": "11111111-0000-4000-8000-{unique}"}} |
      | run.send_input | {"run_id": "run-{unique}", "data": {"input_id": "22222222-0000-4000-8000-{unique}"}} |

  @id:hostd.input.reused-id-other-text @req:hostd.ids.input-id-reused-other-text @req:hostd.ids.input-id-idempotent
  Scenario: An input_id reused with another text is refused, not forwarded
    hostd-mvp.md §Identifiers: input_id makes inputs idempotent.
    Interpretation: an id already used with another text is a client error
    (4xx; the reference server answers 422, as the HTTP idempotency-key
    draft does), and nothing more reaches the host.

    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "yes\n"}
      """
    And the HTTP status is 2xx
    And client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "00000000-0000-4000-8000-{unique}", "text": "yes\n"}}
      """
    And I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "no\n"}
      """
    Then the HTTP status is 4xx
    And the refusal names one of "input_id", "input id", "idempot", "reuse", "duplicate", "already used", "other text", "different text", "mismatch", "conflict"
    And client "host" receives no "run.send_input" within 300ms

  @id:hostd.input.recorded-by-host-is-duplicate @req:hostd.ids.input-id-server-dedupes @req:hostd.run-input.actor
  Scenario: An input_id the host recorded on its own is not forwarded to it
    hostd-mvp.md §Events / run.input: the host records inputs of any actor
    (web, cli, system) with their input_id; §Identifiers: input_id makes
    inputs idempotent. Interpretation: a web input with an input_id the host
    already recorded (typed at the terminal, actor "cli") is a duplicate.
    Control: an input with a fresh input_id is forwarded first, so a server
    that forwards no HTTP input proves nothing here.

    Given I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "11111111-0000-4000-8000-{unique}", "text": "ok\n"}
      """
    And the HTTP status is 2xx
    And client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "11111111-0000-4000-8000-{unique}"}}
      """
    And client "host" sends:
      """
      {"type": "run.input", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"actor": "cli", "input_id": "00000000-0000-4000-8000-{unique}", "text_redacted": "yes",
                "text_sha256": "5040625b1fb6fa4af07226683f6e6003b29e5e70b16f8cfb24be7a752393f0ee"}}
      """
    And client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 2}}
      """
    When I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "yes\n"}
      """
    Then the HTTP status is 2xx
    And client "host" receives no "run.send_input" within 300ms

  @id:hostd.input.unknown-run-refused @req:hostd.http.input-unknown-run
  Scenario: An input for a run no host reported is refused
    hostd-mvp.md §HTTP Endpoints: the input is forwarded "to the owning host".
    Interpretation: a run no host reported has no owner, so the request is
    refused with a 4xx status (the reference server: 404 run_not_found).
    Control: the same input for the run the host reported is forwarded, so
    the endpoint, the token and the body are fine and the refusal is about
    the run.

    Given I POST "/runs/run-{unique}/input" with:
      """
      {"input_id": "11111111-0000-4000-8000-{unique}", "text": "hello\n"}
      """
    And the HTTP status is 2xx
    And client "host" receives "run.send_input" with:
      """
      {"run_id": "run-{unique}", "data": {"input_id": "11111111-0000-4000-8000-{unique}"}}
      """
    When I POST "/runs/run-nobody-{unique}/input" with:
      """
      {"input_id": "00000000-0000-4000-8000-{unique}", "text": "hello\n"}
      """
    Then the HTTP status is 4xx
    And the refusal names one of "run_id", "run id", "run not found", "unknown run", "no such run", "not found", "404", "owner", "no host", "offline"
    And client "host" receives no "run.send_input" within 200ms
