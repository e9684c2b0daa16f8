#!/usr/bin/env bash
# Field trial of `wsconform gate --replay` with myagent's own client library:
# serves RECORDING's server side and runs, against it, myagent's AgentWSClient
# (taken verbatim from CHECKOUT's web/ws-console/dist/index.mjs) in headless
# Chromium through index.html (a page load, then a reload that restores the
# session from localStorage), then pyclient.py (acks, a drop, a reconnect with
# the signed state). The recording is one these clients made against the real
# server, through wsproxy (see ../README.md). A measurement, not a CI test: it
# needs the myagent checkout, Chromium, npm and python3-websockets.
#
#   gate-replay.sh CHECKOUT RECORDING [gate flags...]
#
# Environment: WSCONFORM (the wsconform binary; default: built from this
# repository), PYTHON (an interpreter with the websockets package).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
checkout=${1:?usage: gate-replay.sh CHECKOUT RECORDING [gate flags...]}
recording=$(cd "$(dirname "${2:?usage: gate-replay.sh CHECKOUT RECORDING}")" && pwd)/$(basename "$2")
shift 2
dist="$checkout/web/ws-console/dist/index.mjs"
[[ -f $dist ]] || { echo "gate-replay.sh: no $dist (a built myagent checkout?)" >&2; exit 2; }

work=$(mktemp -d /tmp/myagent-clients.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

# The page: index.html and the AgentWSClient class cut out of the bundle.
cp "$here/index.html" "$here/drive.mjs" "$here/package.json" "$here/pyclient.py" "$work/"
awk '/^\/\/ src\/ws-client.ts/{p=1} p{print} p&&/^};$/{exit}' "$dist" >"$work/wsclient.js"
[[ -s $work/wsclient.js ]] || { echo "gate-replay.sh: AgentWSClient not found in $dist" >&2; exit 2; }
(cd "$work" && npm install --silent --no-audit --no-fund >/dev/null)

python3 -m http.server 0 --bind 127.0.0.1 --directory "$work" >"$work/http.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
	port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$work/http.log")
	[[ -n $port ]] && break
	sleep 0.1
done
[[ -n ${port:-} ]] || { echo "gate-replay.sh: the page server did not start" >&2; exit 3; }

wsconform=${WSCONFORM:-}
if [[ -z $wsconform ]]; then
	(cd "$here/../../../.." && go build -o "$work/wsconform" ./cmd/wsconform)
	wsconform="$work/wsconform"
fi
export PAGE="http://127.0.0.1:$port/index.html" WORK="$work" PY="${PYTHON:-python3}"
# shellcheck disable=SC2016 # expanded by the gate's sh, with WSCONFORM_URL set
"$wsconform" gate --replay "$recording" --timeout 200s "$@" -- sh -c \
	'cd "$WORK" && node drive.mjs "$PAGE" "$WSCONFORM_URL" >drive.log 2>&1 && "$PY" pyclient.py "$WSCONFORM_URL" >py.log 2>&1'
