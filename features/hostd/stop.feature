@hostd
Feature: hostd run.stop: an app stops a run on its host
  hostd-mvp.md §Commands (web/cli → server → hostd) / run.stop: data
  {signal: term | kill}, default term; the server forwards it to the host of
  the run, which reports the end with run.exited. These scenarios play the
  host (host_id "host-{unique}", run "run-{unique}").

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

  @id:hostd.stop.forwarded @req:hostd.commands.route @req:hostd.stop.data @req:hostd.events.route
  Scenario: run.stop reaches the run's host, and the run's exit reaches the app
    hostd-mvp.md §Commands / run.stop: the app asks for a signal; the server
    forwards the command to the host that owns the run (and to no other
    host); the host ends the run and reports run.exited, which the app
    receives.

    Given client "other" connects to "/ws/host?host_id=host-other-{unique}&host_token={host_token}"
    And client "other" sends:
      """
      {"type": "run.started", "host_id": "host-other-{unique}", "run_id": "run-other-{unique}", "seq": 1,
       "data": {"tool": "claude", "cwd": "/other", "command": "claude"}}
      """
    And client "other" receives "run.ack"
    When client "app" sends:
      """
      {"type": "run.stop", "ts": "2025-01-01T00:00:01Z", "run_id": "run-{unique}", "data": {"signal": "kill"}}
      """
    Then client "host" receives "run.stop" with:
      """
      {"run_id": "run-{unique}", "data": {"signal": "kill"}}
      """
    And client "other" receives no "run.stop" within 300ms
    When client "host" sends:
      """
      {"type": "run.exited", "ts": "2025-01-01T00:00:02Z", "host_id": "host-{unique}", "run_id": "run-{unique}", "seq": 2,
       "data": {"exit_code": 137}}
      """
    Then client "app" receives "run.exited" with:
      """
      {"run_id": "run-{unique}", "seq": 2, "data": {"exit_code": 137}}
      """

  @id:hostd.stop.term @req:hostd.stop.signal @req:hostd.commands.route
  Scenario: run.stop with signal term is forwarded as term
    hostd-mvp.md §Commands / run.stop: signal term | kill.

    When client "app" sends:
      """
      {"type": "run.stop", "run_id": "run-{unique}", "data": {"signal": "term"}}
      """
    Then client "host" receives "run.stop" with:
      """
      {"run_id": "run-{unique}", "data": {"signal": "term"}}
      """

  @id:hostd.stop.default-signal @req:hostd.stop.signal @req:hostd.commands.route
  Scenario: run.stop without a signal is forwarded
    hostd-mvp.md §Commands / run.stop: signal is term | kill, "default term",
    so an app may leave it out. The host still receives the stop (with no
    signal, or with term: the check engine refuses any other value).

    When client "app" sends:
      """
      {"type": "run.stop", "run_id": "run-{unique}", "data": {}}
      """
    Then client "host" receives "run.stop" with:
      """
      {"run_id": "run-{unique}"}
      """
