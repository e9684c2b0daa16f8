// Package hostd is the reference server of the hostd dialect
// (hostd-mvp.md): host daemons stream run events to the server over
// /ws/host, the server persists them, acknowledges them with run.ack and
// relays them to every app on /ws/app; apps send inputs (HTTP or
// WebSocket) and stops, which the server forwards to the run's host. It
// also has a ScriptedHost, a host daemon driven by the scripted agent.
//
// # Endpoints and credentials
//
//	POST /auth/login           {"username","password"} of Env.Auth → 200 {"access_token","token_type":"Bearer"}
//	POST /runs/{run_id}/input  Authorization: Bearer TOKEN; {"input_id","text"} → 202 forwarded / 200 duplicate
//	GET  /ws/app?token=TOKEN   (or Authorization: Bearer TOKEN)
//	GET  /ws/host?host_id=ID&host_token=Env.Auth.HostToken
//
// Access tokens come from env.IDs ("at_…"), never expire, and the server
// keeps the last 1024 issued. WebSocket credentials are checked after the
// upgrade: a missing or unknown token is closed with 4401 and a missing
// host_id with 4400 (private codes mirroring HTTP 401/400), each with a
// reason, because a browser cannot read the HTTP status of a refused
// handshake but does see a close code. Requests that cannot become a
// WebSocket get a JSON HTTP error instead: 405 for a method other than
// GET, 426 without an upgrade, 400 for a bad ?fault=.
//
// # HTTP errors
//
// Every HTTP error has the body {"error": CODE, "message": TEXT}:
//
//	400 bad_request          body is not a JSON object, or lacks / mistypes a member
//	                         (login: username and password strings; input: input_id UUID, text string)
//	401 invalid_credentials  login with another user or password
//	401 unauthorized         input without an Authorization header (with WWW-Authenticate: Bearer)
//	401 invalid_token        input with a token the server did not issue, or not a Bearer one
//	404 run_not_found        input for a run no host reported (or one forgotten, see Memory)
//	404 not_found            any other path
//	405 method_not_allowed   GET on a POST endpoint, POST on a WebSocket endpoint (with Allow)
//	409 host_offline         input for a run whose host has no live connection
//	409 run_exited           input for a run that reported run.exited
//	413 too_large            body over Env.MaxFrame
//	422 input_id_reused      an input_id the run already has, with another text
//	426 websocket_required   plain GET on /ws/app or /ws/host
//
// Host offline is 409, not 503: the server is fine, the run's state is
// what prevents the input (RFC 9110 §15.5.10), and a monitor must not read
// it as an outage. The input endpoint checks method, token, body, then
// the run. An input_id is de-duplicated per run before the run's state is
// judged, so a retry of an input that went through is answered 200
// {"status":"duplicate","duplicate":true} even when the host has gone
// offline since; the first answer is 202 {"status":"forwarded"}. A reused
// id with different text is 422, as the HTTP idempotency-key draft says.
// An input_id the host recorded itself (run.input, e.g. actor "cli") is a
// duplicate too.
//
// # Events and acknowledgements
//
// A host event must carry type, a non-empty run_id and a data object with
// the members §Events defines, typed as the schemas say; seq, if present,
// an integer in 0..2^53-1. The server rebuilds the envelope it relays
// {type, ts, host_id, run_id, seq, data}: host_id is the connection's
// (what the host wrote there is ignored), ts is the host's when it is an
// RFC 3339 date-time and otherwise the time the server received the event,
// members the spec does not define are dropped from the envelope and kept
// in data ("unknown fields must be ignored": the server does not act on
// them, but a newer app may want them).
//
//   - seq above the run's last persisted seq: logged, relayed to the apps,
//     acknowledged with run.ack{run_id, last_seq: seq}. Gaps are allowed
//     (the spec asks for increasing seqs, not consecutive ones).
//   - seq at or below it (spool replay after a reconnect, or a straggler
//     that fills a gap late): acknowledged with the run's last persisted
//     seq, never relayed, so no app gets a (run_id, seq) twice or out of
//     order.
//   - no seq: relayed live, not logged and not acknowledged (§Acknowledge-
//     ments acks "a host→server event with a seq").
//
// run.ack names the run both in data.run_id (the spec) and in the envelope.
// A run belongs to the host_id that first reported it; events for it from
// another host are dropped. A host may hold several connections (a
// reconnect racing the old connection's teardown); commands for a run go
// to the connection that last sent one of its events while it lives, else
// to the host's newest connection. An input forwarded to a connection that
// ended before the host recorded it (run.input) is forwarded again to the
// host's current connection, when either the old connection's end or the
// new connection is noticed (hostd.input-reforwarded allows re-delivery to
// a reconnected host; hosts de-duplicate by input_id).
//
// run.stop (data.signal term or kill, default term) and run.send_input are
// accepted from apps on /ws/app and forwarded like the HTTP input.
//
// # Apps that connect late, and filters
//
// On connect an app is sent, for every run the server remembers, the
// run's retained events in seq order, runs in the order they started
// (exited runs included, so a late app learns how they ended), then live
// events. The replay is bounded to half the send queue so that it can
// never get the app disconnected with 1013; when the runs hold more, the
// newest runs and, within a run, the newest events win. An extension the
// spec does not have: /ws/app accepts run_id= and host_id= (repeatable) to
// receive only those runs; without them an app gets every run.
//
// # Bad input
//
// hostd-mvp.md defines no error message, and the schemas allow the server
// no message type to say one with, so on a WebSocket whatever cannot be
// acted on is logged (Env.Log) and dropped: binary frames, frames over
// Env.MaxFrame, invalid JSON, a non-object, an unknown type, a message on
// the wrong endpoint (an event from an app, a command or run.ack from a
// host), missing or mistyped members, an unknown or exited run, a host
// offline. The connection stays open and no state changes; a dropped host
// event is not acknowledged, so it stays in the host's spool. A text frame
// that is not valid UTF-8 is not input but a broken frame: it fails the
// connection with 1007 (RFC 6455 §8.1), on either endpoint. The
// dialect has no heartbeat message and no prompt timeout, so
// Env.Heartbeat and Env.PromptTimeout are not used.
//
// # Memory
//
// Everything is bounded by the configuration, not by uptime: the server
// remembers Env.ReplayWindow runs (beyond that it forgets the oldest
// exited run, else the oldest run; a forgotten run is new again if its
// host reports it), each run retains its last min(ReplayWindow,
// QueueSize/2) events for late apps and its last ReplayWindow input_ids,
// and the last 1024 access tokens.
//
// # The scripted host
//
// ScriptedHost (RunScriptedHost) dials /ws/host and plays a PTY running
// the scripted agent (reference/agent), one run at a time:
//
//	connect (first time)      run.started {tool "scripted", cwd "/scripted", command "wsconform scripted-agent"},
//	                          run.output stdout greeting, run.awaiting_input {reason "prompt", prompt "> "}
//	run.send_input            run.input {actor "web", input_id, text_redacted, text_sha256 of the raw text},
//	                          once per input_id; the text, less its line ending, goes to the agent
//	Reasoning                 run.output stdout chunks (a newline ends the last)
//	Tool needing approval     run.awaiting_input {reason "permission", prompt "Allow tool NAME ARGS? [y/N]"};
//	                          the next input "y"/"yes" approves, anything else denies
//	Tool run (approved/exec)  run.output stdout "[NAME] OUTPUT\n", then the reply
//	Tool denied               agent.DeniedReply as the reply
//	Question                  run.awaiting_input {reason "choice" (confirm, select, multiselect) or
//	                          "prompt" (text), prompt "TEXT [opt/…]"}; the next input is the answer:
//	                          "You answered: …" then the reply
//	Chunks                    run.output stdout, Pause between them, a newline ends the last
//	success                   run.awaiting_input {reason "prompt", prompt "> "}
//	Fail                      run.output stderr "error: MESSAGE\n", run.exited {exit_code 1}, a new run
//	run.stop                  run.exited {exit_code 143 (term) or 137 (kill): 128 + signal}, a new run
//
// Input that arrives while the agent streams is recorded at once and read
// when the agent next waits (up to 64 lines). text_redacted is the text
// without its line ending, cut to 200 characters: the scripted agent has
// no secrets to mask. Every event is spooled until a run.ack covers it and
// replayed, bytes unchanged, after a reconnect (reconnect delay from
// HostOptions.Retry, doubling to 5s). The agent runs only while the host
// is connected: it pauses between connections and carries on after the
// replay. Credentials the server refuses (close 4400/4401, HTTP 401/403)
// end RunScriptedHost with an error.
//
// # Mutations
//
// See Mutations: each commits one violation at the one place the server
// would otherwise behave, and makes exactly its rule fire.
package hostd
