#!/usr/bin/env bash
# Field trials: wsconform run against the real implementations of the specs.
#
#   ci/field/run.sh [--coworker CHECKOUT] [--myagent CHECKOUT] [--out DIR] [--repeat N]
#
# For each checkout given, starts the real server (agent-coworker keyless and
# with the scripted model; myagent with its fake planner), runs the dialect's
# features against it with `wsconform run --json`, stops the server, and
# prints per target the verdict counts, the distinct root causes and every
# scenario that did not pass (ci/field/summary.py). Reports go to DIR
# (default: a new temporary folder). A measurement, not a CI test: CI cannot
# reach these repositories (ci/field/README.md says how to get them).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
coworker="" myagent="" out="" repeat=1
while [[ $# -gt 0 ]]; do
	case $1 in
	--coworker) coworker=$2; shift 2 ;;
	--myagent) myagent=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	*) echo "usage: $0 [--coworker CHECKOUT] [--myagent CHECKOUT] [--out DIR] [--repeat N]" >&2; exit 2 ;;
	esac
done
[[ -n $coworker || -n $myagent ]] || { echo "run.sh: give --coworker and/or --myagent CHECKOUT" >&2; exit 2; }
out=${out:-$(mktemp -d)}
mkdir -p "$out"
bin="$out/bin"
(cd "$root" && go build -o "$bin/" ./cmd/wsconform)

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# trial LABEL DIALECT URL [run flags...]: one run, its summary.
trial() {
	local label=$1 dialect=$2 url=$3
	shift 3
	"$bin/wsconform" run --dialect "$dialect" --target "$url" --repeat "$repeat" --color never \
		--json "$out/$label.json" --html "$out/$label.html" "$@" >"$out/$label.console.txt" 2>&1 || true
	python3 "$here/summary.py" "$label" "$out/$label.json"
}

if [[ -n $coworker ]]; then
	for mode in keyless scripted; do
		state="$out/coworker-$mode-state"
		url=$(COWORKER_STATE="$state" "$here/coworker/start.sh" "$coworker" "$mode")
		pids+=("$(cat "$state/server.pid")")
		flags=()
		[[ $mode == scripted ]] && flags=(--scripted)
		trial "coworker-$mode" coworker "$url" "${flags[@]}"
		kill "$(cat "$state/server.pid")" 2>/dev/null || true
	done
fi
if [[ -n $myagent ]]; then
	for mode in plain scripted; do
		scratch="$out/myagent-$mode-state"
		url=$("$here/myagent/start.sh" "$myagent" "$scratch")
		pids+=("$(cat "$scratch/server.pid")")
		# myagent's heartbeat loop ticks once a minute from server start: the
		# 58 s heartbeat windows need a little more than the 60 s scenario cap
		flags=(--timeout-scale 1.2)
		[[ $mode == scripted ]] && flags+=(--scripted)
		trial "myagent-$mode" myagent "$url" "${flags[@]}"
		kill "$(cat "$scratch/server.pid")" 2>/dev/null || true
	done
fi
echo "reports in $out"
