#!/usr/bin/env bash
# The hostd field trial (run by ../run.sh --hostd): the relay project's own
# clients against wsconform's reference server, and wsconform against the
# relay authors' mock server.
#
#   trial.sh OUT CLIENTS_TREE MOCK_TREE
#
# CLIENTS_TREE is aipper/relay at 63f9a1c (web/ and cli/), MOCK_TREE a
# later commit with web/tests/mocks/relay-mock-server.ts (ffe4b33); both
# are only read. Writes OUT/hostd-*.{json,jsonl,txt} and prints a summary
# per run (../summary.py):
#
#   hostd-gate-{none,drop-after,duplicate,delay}  gate --dialect hostd [--fault …] -- clients/session.sh
#   hostd-gate-drop-once                           the web app's first connection dropped after 15 messages (?fault=)
#   hostd-wsproxy                                  serve --dialect hostd, wsproxy in front, clients/session.sh
#   hostd-planted-input                            the CLI with a fixed input_id (must FAIL: hostd.input-id-reused)
#   hostd-host, hostd-planted-resume               clients/host.ts under drop-after=5, correct and planted
#                                                  (the second must FAIL: hostd.resume-unacked)
#   hostd-mock-run                                 wsconform run --dialect hostd against the mock server
#   hostd-mock-later                               the later web app's messages (clients/later-app.ts) to the mock through wsproxy
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:?usage: trial.sh OUT CLIENTS_TREE MOCK_TREE}
clients=${2:?usage: trial.sh OUT CLIENTS_TREE MOCK_TREE}
mock=${3:?usage: trial.sh OUT CLIENTS_TREE MOCK_TREE}
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch="$out/hostd-scratch"
"$here/build.sh" "$clients" "$scratch"
bin="$scratch/bin"
summary() { python3 "$here/../summary.py" "$1" "$out/$1.json"; }

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

freeport() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# gate LABEL [gate flags...] -- CMD...: one gated run and its summary.
gate() {
	local label=$1
	shift
	"$bin/wsconform" gate --dialect hostd --timeout 4m --color never --json "$out/$label.json" \
		--record "$out/$label.jsonl" "$@" >"$out/$label.txt" 2>&1 || true
	summary "$label"
	grep -a -E '^(PASS|FAIL)|client command|NEVER|crashed|Connect again' "$out/$label.txt" | sed 's/^/   | /' | sort -u || true
}

# 1. The relay web app and CLI through the gate, without and with faults.
gate hostd-gate-none -- "$scratch/clients/session.sh" "$scratch"
gate hostd-gate-drop-after --fault drop-after=40 -- "$scratch/clients/session.sh" "$scratch"
HOSTD_FIRST_WS_QUERY=fault=drop-after=15 gate hostd-gate-drop-once -- "$scratch/clients/session.sh" "$scratch"
gate hostd-gate-duplicate --fault duplicate=run.output -- "$scratch/clients/session.sh" "$scratch"
gate hostd-gate-delay --fault delay=50ms -- "$scratch/clients/session.sh" "$scratch"

# 2. The same session through wsproxy in front of `wsconform serve`.
"$bin/wsconform" serve --dialect hostd --listen 127.0.0.1:0 >"$out/hostd-serve.out" 2>"$out/hostd-serve.err" &
pids+=($!)
for _ in $(seq 100); do [[ -s $out/hostd-serve.out ]] && break; sleep 0.1; done
served=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["url"])' "$out/hostd-serve.out")
port=$(freeport)
"$bin/wsproxy" --upstream "$served" --listen "127.0.0.1:$port" --dialect hostd --color never \
	--record "$out/hostd-wsproxy.jsonl" --json "$out/hostd-wsproxy.json" >"$out/hostd-wsproxy.txt" 2>&1 &
proxy=$!
pids+=("$proxy")
sleep 1
WSCONFORM_HTTP_URL="http://127.0.0.1:$port" WSCONFORM_USER=demo WSCONFORM_PASSWORD=demo \
	"$scratch/clients/session.sh" "$scratch" >"$out/hostd-wsproxy.session.txt" 2>&1 || echo "   | the session failed: $out/hostd-wsproxy.session.txt"
kill -INT "$proxy"
wait "$proxy" || true
summary hostd-wsproxy

# 3. Planted bugs: the gate must fail and name them.
HOSTD_WEB=0 HOSTD_CLI=cli-planted gate hostd-planted-input -- "$scratch/clients/session.sh" "$scratch"
gate hostd-host --fault drop-after=5 -- bun run "$here/clients/host.ts"
HOSTD_PLANT=resume-unseen gate hostd-planted-resume --fault drop-after=5 -- bun run "$here/clients/host.ts"

# 4. The relay authors' mock server (its port made configurable in a copy).
mkdir -p "$out/hostd-mock"
sed 's/port: 8787,/port: Number(process.env.PORT ?? 8787),/' "$mock/web/tests/mocks/relay-mock-server.ts" >"$out/hostd-mock/relay-mock-server.ts"
mport=$(freeport)
PORT=$mport bun run "$out/hostd-mock/relay-mock-server.ts" >"$out/hostd-mock/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q listening "$out/hostd-mock/server.log" 2>/dev/null && break; sleep 0.1; done
"$bin/wsconform" run --dialect hostd --target "ws://127.0.0.1:$mport" --var user=admin --var password=123456 \
	--var host_token=dev-token --color never --json "$out/hostd-mock-run.json" --html "$out/hostd-mock-run.html" \
	>"$out/hostd-mock-run.txt" 2>&1 || true
summary hostd-mock-run
port=$(freeport)
"$bin/wsproxy" --upstream "ws://127.0.0.1:$mport" --listen "127.0.0.1:$port" --dialect hostd --color never \
	--record "$out/hostd-mock-later.jsonl" --json "$out/hostd-mock-later.json" >"$out/hostd-mock-later.txt" 2>&1 &
proxy=$!
pids+=("$proxy")
sleep 1
bun run "$here/clients/later-app.ts" "http://127.0.0.1:$port" admin 123456 >"$out/hostd-mock-later.client.txt" 2>&1 ||
	echo "   | the later app's client failed: $out/hostd-mock-later.client.txt"
kill -INT "$proxy"
wait "$proxy" || true
summary hostd-mock-later
