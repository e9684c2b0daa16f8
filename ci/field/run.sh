#!/usr/bin/env bash
# Field trials: wsconform run against the real implementations of the specs.
#
#   ci/field/run.sh [--coworker CHECKOUT] [--myagent CHECKOUT] [--hostd CHECKOUT [--hostd-mock CHECKOUT]] [--out DIR] [--repeat N]
#
# For each checkout given, starts the real server (agent-coworker keyless and
# with the scripted model; myagent with its fake planner), runs the dialect's
# features against it with `wsconform run --json`, stops the server, and
# prints per target the verdict counts, the distinct root causes and every
# scenario that did not pass (ci/field/summary.py). --hostd runs the relay
# project's web app and CLI (aipper/relay at 63f9a1c) through `wsconform
# gate --dialect hostd` and wsproxy, the planted client bugs, and `wsconform
# run` against the relay authors' mock server (ffe4b33): a git clone of
# aipper/relay is read with `git archive` (those two commits; HOSTD_AT and
# HOSTD_MOCK_AT override them); a plain tree is used as is, with the mock's
# tree from --hostd-mock (ci/field/hostd/trial.sh). Reports go to DIR
# (default: a new temporary folder). A measurement, not a CI test: CI cannot
# reach these repositories (ci/field/README.md says how to get them).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
coworker="" myagent="" hostd="" hostd_mock="" out="" repeat=1
while [[ $# -gt 0 ]]; do
	case $1 in
	--coworker) coworker=$2; shift 2 ;;
	--myagent) myagent=$2; shift 2 ;;
	--hostd) hostd=$2; shift 2 ;;
	--hostd-mock) hostd_mock=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	*) echo "usage: $0 [--coworker CHECKOUT] [--myagent CHECKOUT] [--hostd CHECKOUT [--hostd-mock CHECKOUT]] [--out DIR] [--repeat N]" >&2; exit 2 ;;
	esac
done
[[ -n $coworker || -n $myagent || -n $hostd ]] || { echo "run.sh: give --coworker, --myagent and/or --hostd CHECKOUT" >&2; exit 2; }
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
if [[ -n $hostd ]]; then
	if git -C "$hostd" rev-parse --git-dir >/dev/null 2>&1; then
		for t in "relay-clients:${HOSTD_AT:-63f9a1c}" "relay-mock:${HOSTD_MOCK_AT:-ffe4b33}"; do
			rm -rf "${out:?}/${t%%:*}" && mkdir -p "$out/${t%%:*}"
			git -C "$hostd" archive "${t#*:}" | tar -x -C "$out/${t%%:*}"
		done
		"$here/hostd/trial.sh" "$out" "$out/relay-clients" "$out/relay-mock"
	else
		"$here/hostd/trial.sh" "$out" "$hostd" "${hostd_mock:-$hostd}"
	fi
fi
echo "reports in $out"
