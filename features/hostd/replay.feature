@hostd
Feature: hostd offline spool replay after a host reconnects
  hostd-mvp.md §Acknowledgements: a host keeps the events it sent in a spool
  until a run.ack covers them, and replays the rest after it reconnects; the
  server acknowledges with the run's last persisted seq and relays each
  (run_id, seq) to the apps once, so a replay never shows an app an event
  twice. These scenarios play the host (host_id "host-{unique}") and watch
  their own run ("run-{unique}") from an app.

  Background:
    Given I POST "/auth/login" with:
      """
      {"username": "{user}", "password": "{password}"}
      """
    And the HTTP status is 2xx
    And I remember its "access_token" as "token"
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
    And client "app" receives "run.started" with:
      """
      {"run_id": "run-{unique}", "seq": 1}
      """

  @id:hostd.replay.spooled-while-offline @req:hostd.events.route @req:hostd.ack.spool-replay @req:hostd.ack.after-persist @req:hostd.ids.seq-monotonic
  Scenario: Events a host spooled while offline reach the apps after it reconnects
    hostd-mvp.md §Acknowledgements: run.ack is "used for offline spool
    replay": the host resumes replay after reconnect. Events the run produced
    while the host had no connection are sent on the new connection,
    acknowledged, and relayed to the apps in seq order.

    When client "host" drops the connection
    And client "host" reconnects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "written while offline {unique}\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.exited", "ts": "2025-01-01T00:00:02Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 3,
       "data": {"exit_code": 0}}
      """
    Then client "app" receives, in order:
      | run.output | {"run_id": "run-{unique}", "seq": 2, "host_id": "host-{unique}"} |
      | run.exited | {"run_id": "run-{unique}", "seq": 3, "data": {"exit_code": 0}}   |
    And client "app" has received 1 "run.output" where "data.text" is "written while offline {unique}\n"
    And client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 3}}
      """

  @id:hostd.replay.no-duplicate-at-app @req:hostd.ids.seq-monotonic @req:hostd.ack.spool-replay
  Scenario: Events a host replays after a reconnect do not reach an app twice
    hostd-mvp.md §Identifiers (seq per run_id) and §Acknowledgements (offline
    spool replay): the host lost its connection before it read the run.ack
    of seq 2 and 3, so it replays them, bytes unchanged, on the new
    connection, then goes on with seq 4. The app, connected throughout, gets
    every seq of the run exactly once and in order.

    Given client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "two {unique}\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:02Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 3,
       "data": {"stream": "stdout", "text": "three {unique}\n"}}
      """
    And client "app" receives "run.output" with:
      """
      {"run_id": "run-{unique}", "seq": 3}
      """
    When client "host" drops the connection
    And client "host" reconnects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "two {unique}\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:02Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 3,
       "data": {"stream": "stdout", "text": "three {unique}\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.exited", "ts": "2025-01-01T00:00:03Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 4,
       "data": {"exit_code": 0}}
      """
    Then client "app" receives "run.exited" with:
      """
      {"run_id": "run-{unique}", "seq": 4}
      """
    And client "app" has received 1 "run.started" where "run_id" is "run-{unique}"
    And client "app" has received 1 "run.output" where "data.text" is "two {unique}\n"
    And client "app" has received 1 "run.output" where "data.text" is "three {unique}\n"
    And client "app" has received 1 "run.exited" where "run_id" is "run-{unique}"

  @id:hostd.replay.ack-never-regresses @req:hostd.ack.last-seq @req:hostd.ack.after-persist
  Scenario: run.ack after a replay still names the last persisted seq
    hostd-mvp.md §Acknowledgements / run.ack: last_seq is the "last persisted
    seq for this run_id". The server persisted seq 3 before the host lost the
    connection; when the host replays seq 2 and 3 and then sends seq 4, no
    run.ack on the new connection goes back below 3, and seq 4 is
    acknowledged as 4.

    Given client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "two\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:02Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 3,
       "data": {"stream": "stdout", "text": "three\n"}}
      """
    And client "app" receives "run.output" with:
      """
      {"run_id": "run-{unique}", "seq": 3}
      """
    When client "host" drops the connection
    And client "host" reconnects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"stream": "stdout", "text": "two\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:02Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 3,
       "data": {"stream": "stdout", "text": "three\n"}}
      """
    And client "host" sends:
      """
      {"type": "run.output", "ts": "2025-01-01T00:00:03Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 4,
       "data": {"stream": "stdout", "text": "four\n"}}
      """
    Then client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 4}}
      """
    And client "host" has received no "run.ack" where "data.last_seq" is less than 3

  @id:hostd.replay.replayed-events-acked @req:hostd.ack.replayed-acked
  Scenario: Events a host replays are acknowledged even when nothing new follows
    hostd-mvp.md §Acknowledgements: the host deletes spooled events up to
    last_seq. Interpretation: an event the server already persisted is
    acknowledged again when the host replays it (with the run's last
    persisted seq), or the host could never empty its spool of a run that
    has ended.

    Given client "host" sends:
      """
      {"type": "run.exited", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"exit_code": 0}}
      """
    And client "app" receives "run.exited" with:
      """
      {"run_id": "run-{unique}", "seq": 2}
      """
    When client "host" drops the connection
    And client "host" reconnects to "/ws/host?host_id=host-{unique}&host_token={host_token}"
    And client "host" sends:
      """
      {"type": "run.exited", "ts": "2025-01-01T00:00:01Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"exit_code": 0}}
      """
    Then client "host" receives "run.ack" with:
      """
      {"data": {"run_id": "run-{unique}", "last_seq": 2}}
      """
    And client "app" has received 1 "run.exited" where "run_id" is "run-{unique}"
