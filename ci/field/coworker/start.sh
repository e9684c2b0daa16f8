#!/usr/bin/env bash
# Start the real agent-coworker server for a wsconform field trial.
#
#   start.sh CHECKOUT keyless|scripted
#
# CHECKOUT is a work tree of github.com/mweinbach/agent-coworker (trialled at
# 182319f5). keyless runs src/server/index.ts with no provider key, so every
# turn ends in an error; scripted runs the same server with the scripted model
# of scripted-server.ts (copied into CHECKOUT/.wsconform/), which follows
# wsconform's test-mode hints (ci/testmode.md).
#
# Prints the ws:// URL on stdout and returns; the server keeps running in the
# background. Everything else goes to stderr. The state folder (scratch HOME,
# working directory, server.log, server.pid) is $COWORKER_STATE, or a new
# folder under ${TMPDIR:-/tmp}. Stop the server with:
#   kill "$(cat "$COWORKER_STATE/server.pid")"
set -euo pipefail

usage() {
	echo "usage: $0 CHECKOUT keyless|scripted" >&2
	exit 2
}

[[ $# -eq 2 ]] || usage
checkout=$(cd "$1" && pwd)
mode=$2
case $mode in
keyless | scripted) ;;
*) usage ;;
esac
[[ -f $checkout/src/server/index.ts ]] || {
	echo "start.sh: $checkout is not an agent-coworker checkout" >&2
	exit 2
}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if ! command -v bun >/dev/null 2>&1; then
	echo "start.sh: installing bun with npm" >&2
	npm install -g bun >&2
fi
if [[ ! -d $checkout/node_modules/ai ]]; then
	echo "start.sh: installing dependencies (bun install --ignore-scripts)" >&2
	(cd "$checkout" && bun install --ignore-scripts >&2)
fi

state=${COWORKER_STATE:-$(mktemp -d "${TMPDIR:-/tmp}/wsconform-coworker.XXXXXX")}
mkdir -p "$state/home" "$state/wd"
log=$state/server.log
: >"$log"

entry=src/server/index.ts
if [[ $mode == scripted ]]; then
	mkdir -p "$checkout/.wsconform"
	cp "$here/scripted-server.ts" "$checkout/.wsconform/scripted-server.ts"
	entry=.wsconform/scripted-server.ts
fi

# The grep tool downloads ripgrep from GitHub unless one is given.
rg_path=$(command -v rg || true)

# A scratch HOME (the server writes ~/.cowork) and no provider keys: keyless
# must stay keyless whatever the caller's environment holds.
(
	cd "$checkout"
	exec env -u OPENAI_API_KEY -u ANTHROPIC_API_KEY -u GOOGLE_GENERATIVE_AI_API_KEY \
		-u GEMINI_API_KEY -u GOOGLE_API_KEY -u EXA_API_KEY -u BRAVE_API_KEY \
		HOME="$state/home" AGENT_MODEL_MAX_RETRIES=0 COWORK_RIPGREP_PATH="$rg_path" \
		setsid bun "$entry" --dir "$state/wd" --port 0 --json
) >"$log" 2>&1 </dev/null &
pid=$!
echo "$pid" >"$state/server.pid"

url=
for _ in $(seq 1 300); do
	url=$(sed -n 's/.*"type":"server_listening","url":"\([^"]*\)".*/\1/p' "$log" | head -n 1)
	[[ -n $url ]] && break
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "start.sh: the server exited; its log:" >&2
		cat "$log" >&2
		exit 3
	fi
	sleep 0.1
done
if [[ -z $url ]]; then
	echo "start.sh: no server_listening line within 30s; see $log" >&2
	exit 3
fi
echo "start.sh: $mode server pid $pid, state $state" >&2
echo "$url"
