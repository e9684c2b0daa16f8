#!/usr/bin/env bash
# One user session with the relay clients against a hostd server, run as
# `wsconform gate`'s command (or with the same variables set by hand):
# the web app in Chromium (drive.mjs, served by front on the server's
# origin), then the CLI: `relay login` and two `relay ws-send-input`.
#
#   session.sh SCRATCH        (SCRATCH made by ../build.sh)
#
# Environment: WSCONFORM_HTTP_URL, WSCONFORM_USER, WSCONFORM_PASSWORD (the
# gate sets them); HOSTD_WEB=0 skips the browser; HOSTD_CLI=cli-planted
# runs the CLI with the planted bug; HOSTD_FIRST_WS_QUERY is front's
# -first-ws-query (fault=drop-after=15 drops the web app's first connection).
set -euo pipefail

scratch=${1:?usage: session.sh SCRATCH}
base=${WSCONFORM_HTTP_URL:?}
work=$(mktemp -d /tmp/hostd-session.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

if [[ ${HOSTD_WEB:-1} != 0 ]]; then
	"$scratch/bin/front" -dist "$scratch/web/dist" -upstream "$base" -first-ws-query "${HOSTD_FIRST_WS_QUERY:-}" \
		>"$work/front.url" 2>"$work/front.log" &
	pids+=($!)
	for _ in $(seq 100); do [[ -s $work/front.url ]] && break; sleep 0.1; done
	[[ -s $work/front.url ]] || { echo "session.sh: front did not start: $(cat "$work/front.log")" >&2; exit 3; }
	echo "== web app (relay web/) at $(cat "$work/front.url")"
	node "$scratch/clients/drive.mjs" "$(cat "$work/front.url")" "$WSCONFORM_USER" "$WSCONFORM_PASSWORD"
fi

cli="$scratch/${HOSTD_CLI:-cli}/src/index.ts"
echo "== CLI ($cli)"
relay() { bun run "$cli" "$@"; }
token=$(relay login --server "$base" --username "$WSCONFORM_USER" --password "$WSCONFORM_PASSWORD" |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')
# The CLI has no command that lists runs: the newest live one, as the web app lists them.
run=$(curl -fsS -H "Authorization: Bearer $token" "$base/runs" |
	python3 -c 'import json, sys; print(next(r["id"] for r in json.load(sys.stdin) if r["status"] != "exited"))')
echo "run $run"
relay ws-send-input --server "$base" --token "$token" --run "$run" --text $'from the relay cli\n'
relay ws-send-input --server "$base" --token "$token" --run "$run" --text $'y\n'
