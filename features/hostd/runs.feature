@hostd
Feature: hostd run events: fan-out to apps, seq per run, run.ack
  hostd-mvp.md §Events (hostd → server → web): a host daemon reports a run's
  life (run.started, run.output, run.awaiting_input, run.exited) on /ws/host;
  the server relays each event to the apps on /ws/app and, once it has
  persisted an event with a seq, acknowledges it to the host with run.ack.
  These scenarios play the host themselves (host_id "host-{unique}") and
  follow only their own runs ("run-…-{unique}"): an app also gets the events
  of every other run the server knows.

  Background:
    Given I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    And I remember its "access_token" as "token"

  @id:hostd.run.lifecycle-fanout @req:hostd.events.route @req:hostd.envelope.json @req:hostd.run-started.data @req:hostd.run-output.data @req:hostd.run-awaiting-input.data @req:hostd.run-exited.data
  Scenario: Every app receives a run's lifecycle, in order, as the host sent it
    hostd-mvp.md §Events (hostd → server → web): run.started, run.output,
    run.awaiting_input and run.exited flow from the host through the server
    to the web apps, in the §Event Envelope {type, ts, host_id, run_id, seq,
    data}. Two apps connected at once both receive every event, with the
    seq and data the host gave it and the host_id of the host that ran it.

    Given client "app" connects to "/ws/app?token={token}"
    And client "app2" connects to "/ws/app?token={token}"
    And client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    When client "host" sends:
      """
      {"type": "run.started", "ts": "2025-01-01T00:00:00Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "codex", "cwd": "/home/dev/{unique}", "command": "codex --model o4-mini"}}
      """
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "Reading the repository {unique}\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:02Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 3,
       "data": {"stream": "stderr", "text": "warning: no tests found {unique}\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.awaiting_input", "ts": "2025-01-01T00:00:03Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 4,
       "data": {"reason": "permission", "prompt": "Allow edit of main.go? [y/N]"}}
      """
    And client "host" sends:
      """
      {"type": "run.exited", "ts": "2025-01-01T00:00:04Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 5,
       "data": {"exit_code": 0}}
      """
    Then client "app" receives, in order:
      | run.started        | {"run_id": "run-{unique}", "seq": 1, "host_id": "host-{unique}", "data": {"tool": "codex", "cwd": "/home/dev/{unique}", "command": "codex --model o4-mini"}} |
      | run.output         | {"run_id": "run-{unique}", "seq": 2, "host_id": "host-{unique}", "data": {"stream": "stdout"}}                                                        |
      | run.output         | {"run_id": "run-{unique}", "seq": 3, "host_id": "host-{unique}", "data": {"stream": "stderr"}}                                                        |
      | run.awaiting_input | {"run_id": "run-{unique}", "seq": 4, "host_id": "host-{unique}", "data": {"reason": "permission", "prompt": "Allow edit of main.go? [y/N]"}}         |
      | run.exited         | {"run_id": "run-{unique}", "seq": 5, "host_id": "host-{unique}", "data": {"exit_code": 0}}                                                            |
    And client "app2" receives, in order:
      | run.started        | {"run_id": "run-{unique}", "seq": 1, "host_id": "host-{unique}"} |
      | run.output         | {"run_id": "run-{unique}", "seq": 2}                             |
      | run.output         | {"run_id": "run-{unique}", "seq": 3}                             |
      | run.awaiting_input | {"run_id": "run-{unique}", "seq": 4}                             |
      | run.exited         | {"run_id": "run-{unique}", "seq": 5, "data": {"exit_code": 0}}   |
    And client "app" has received 1 "run.output" where "data.text" is "Reading the repository {unique}\n"
    And client "app2" has received 1 "run.output" where "data.text" is "warning: no tests found {unique}\n"

  @id:hostd.run.output-text-unchanged @req:hostd.run-output.data @req:hostd.run-output.stream @req:hostd.events.route
  Scenario: An app receives run.output text exactly as the host sent it
    hostd-mvp.md §Events / run.output: data {stream, text}, the output chunk
    (utf-8) the host read from the PTY; the server relays it to the web.

    Given client "app" connects to "/ws/app?token={token}"
    And client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    When client "host" sends:
      """
      {"type": "run.started", "ts": "2025-01-01T00:00:00Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "claude", "cwd": "/srv/app", "command": "claude"}}
      """
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "héllo wörld ✓ \u001b[32mok\u001b[0m\n\ttabbed \"quoted\"\n"}}
      """
    Then client "app" receives "run.output" with:
      """
      {"run_id": "run-{unique}", "seq": 2}
      """
    And its "data.stream" is "stdout"
    And its "data.text" is "héllo wörld ✓ \u001b[32mok\u001b[0m\n\ttabbed \"quoted\"\n"

  @id:hostd.run.seq-per-run @req:hostd.ids.seq-monotonic @req:hostd.ack.data
  Scenario: Each run has its own seq, and apps get each run in seq order
    hostd-mvp.md §Identifiers: seq is a monotonically increasing per run_id
    event sequence. Two runs of one host, interleaved, each counting from 1:
    an app receives each run's events in its own seq order (one app follows
    each run: the order across runs is not stated), and run.ack names the
    run whose seq it acknowledges (§Acknowledgements).

    Given client "app" connects to "/ws/app?token={token}"
    And client "app2" connects to "/ws/app?token={token}"
    And client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    When client "host" sends:
      """
      {"type": "run.started", "host_id": "host-{unique}", "run_id": "run-a-{unique}", "seq": 1,
       "data": {"tool": "codex", "cwd": "/a", "command": "codex"}}
      """
    And client "host" sends:
      """
      {"type": "run.started", "host_id": "host-{unique}", "run_id": "run-b-{unique}", "seq": 1,
       "data": {"tool": "iflow", "cwd": "/b", "command": "iflow"}}
      """
    And client "host" sends:
      """
      {"type": "run.output", "host_id": "host-{unique}", "run_id": "run-b-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "b two {unique}\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.output", "host_id": "host-{unique}", "run_id": "run-a-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "a two {unique}\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.exited", "host_id": "host-{unique}", "run_id": "run-a-{unique}", "seq": 3,
       "data": {"exit_code": 0}}
      """
    And client "host" sends:
      """
      {"type": "run.exited", "host_id": "host-{unique}", "run_id": "run-b-{unique}", "seq": 3,
       "data": {"exit_code": 2}}
      """
    Then client "app" receives, in order:
      | run.started | {"run_id": "run-a-{unique}", "seq": 1}                           |
      | run.output  | {"run_id": "run-a-{unique}", "seq": 2}                           |
      | run.exited  | {"run_id": "run-a-{unique}", "seq": 3, "data": {"exit_code": 0}} |
    And client "app" has received 1 "run.output" where "data.text" is "a two {unique}\n"
    And client "app2" receives, in order:
      | run.started | {"run_id": "run-b-{unique}", "seq": 1}                           |
      | run.output  | {"run_id": "run-b-{unique}", "seq": 2}                           |
      | run.exited  | {"run_id": "run-b-{unique}", "seq": 3, "data": {"exit_code": 2}} |
    And client "app2" has received 1 "run.output" where "data.text" is "b two {unique}\n"
    And client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-b-{unique}", "last_seq": 3}}
      """

  @id:hostd.run.awaiting-input-without-prompt @req:hostd.run-awaiting-input.data @req:hostd.run-awaiting-input.prompt-optional @req:hostd.run-awaiting-input.reason
  Scenario: run.awaiting_input without its optional prompt is relayed
    hostd-mvp.md §Events / run.awaiting_input: data {reason, prompt}, where
    reason is permission | choice | prompt | unknown and prompt is
    "optional". An event without a prompt is acknowledged and relayed like
    any other.

    Given client "app" connects to "/ws/app?token={token}"
    And client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    When client "host" sends:
      """
      {"type": "run.started", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "iflow", "cwd": "/w", "command": "iflow run"}}
      """
    And client "host" sends:
      """
      {"type": "run.awaiting_input", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"reason": "unknown"}}
      """
    And client "host" sends:
      """
      {"type": "run.awaiting_input", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 3,
       "data": {"reason": "choice", "prompt": "Pick one [a/b/c]"}}
      """
    Then client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 3}}
      """
    And client "app" receives, in order:
      | run.awaiting_input | {"run_id": "run-{unique}", "seq": 2, "data": {"reason": "unknown"}}                               |
      | run.awaiting_input | {"run_id": "run-{unique}", "seq": 3, "data": {"reason": "choice", "prompt": "Pick one [a/b/c]"}} |

  @id:hostd.ack.after-each-event @req:hostd.ack.after-persist @req:hostd.ack.data @req:hostd.ack.last-seq
  Scenario: The host gets run.ack with the run and its last persisted seq after each event
    hostd-mvp.md §Acknowledgements / run.ack: the server sends run.ack
    {run_id, last_seq} back to the connected host after persisting a
    host→server event with a seq; last_seq is the last persisted seq of the
    run, so after each event it is that event's seq.

    Given client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    When client "host" sends:
      """
      {"type": "run.started", "ts": "2025-01-01T00:00:00Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "codex", "cwd": "/w", "command": "codex"}}
      """
    Then client "host" receives "run.ack"
    And its "data.run_id" is "run-{unique}"
    And its "data.last_seq" is 1
    When client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "one\n"}}
      """
    Then client "host" receives "run.ack"
    And its "data.run_id" is "run-{unique}"
    And its "data.last_seq" is 2
    When client "host" sends:
      """
      {"type": "run.awaiting_input", "ts": "2025-01-01T00:00:02Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 3,
       "data": {"reason": "prompt", "prompt": "> "}}
      """
    Then client "host" receives "run.ack"
    And its "data.run_id" is "run-{unique}"
    And its "data.last_seq" is 3
    When client "host" sends:
      """
      {"type": "run.exited", "ts": "2025-01-01T00:00:03Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 4,
       "data": {"exit_code": 1}}
      """
    Then client "host" receives "run.ack"
    And its "data.run_id" is "run-{unique}"
    And its "data.last_seq" is 4

  @id:hostd.ack.host-only @req:hostd.ack.host-only
  Scenario: run.ack goes to the host, never to the apps
    hostd-mvp.md §Acknowledgements (server ↔ hostd): the server sends run.ack
    "back to the connected host"; §Events (hostd → server → web). The spec
    only shows the flows by its section headings and does not say an app
    may not get a run.ack. Interpretation: an app never gets one.

    Given client "app" connects to "/ws/app?token={token}"
    And client "host" connects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    When client "host" sends:
      """
      {"type": "run.started", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 1,
       "data": {"tool": "codex", "cwd": "/w", "command": "codex"}}
      """
    # The app has the run's first event live, so it is in service before
    # the next event and its run.ack.
    And client "app" receives "run.started" with:
      """
      {"run_id": "run-{unique}", "seq": 1}
      """
    And client "host" sends:
      """
      {"type": "run.exited", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"exit_code": 0}}
      """
    Then client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 2}}
      """
    And client "app" receives "run.exited" with:
      """
      {"run_id": "run-{unique}", "seq": 2}
      """
    And client "app" receives no "run.ack" within 300ms
    And client "app" has received no "run.ack"
