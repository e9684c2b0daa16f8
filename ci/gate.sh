#!/bin/sh
# gate.sh: run `wsconform gate` around a client's test command, in any CI.
#
#   ci/gate.sh --dialect minicodex --fault drop-after=8 -- npm test
#
# Every argument goes to `wsconform gate` as is (see `wsconform gate --help`).
# When no `wsconform` is on PATH it builds one (ci/install.sh): from the
# wsconform checkout this script lives in, or else from $WSCONFORM_REPO at
# $WSCONFORM_REF (the module is not on a Go module proxy). It
# writes the reports into $WSCONFORM_REPORTS (report.html, junit.xml,
# report.json) and exits with the gate's code: 0 the client passed, 1 the
# client's command failed or it broke the protocol, 2 usage, 3 harness error.
#
# Environment:
#   WSCONFORM_REPO     repository to build wsconform from when this script is
#                      not inside a wsconform checkout
#   WSCONFORM_REF      the tag, branch or commit of WSCONFORM_REPO (default: main)
#   WSCONFORM_REPORTS  report directory (default: wsconform-reports)
#   WSCONFORM          the wsconform binary to use (default: wsconform on PATH,
#                      else one built into ${TMPDIR:-/tmp}/wsconform-bin)
set -eu

if [ "$#" -eq 0 ]; then
	echo "usage: $0 --dialect NAME [--fault SPEC]... -- CMD [ARGS...]" >&2
	exit 2
fi

reports=${WSCONFORM_REPORTS:-wsconform-reports}
wsconform=${WSCONFORM:-}

if [ -z "$wsconform" ]; then
	if command -v wsconform >/dev/null 2>&1; then
		wsconform=wsconform
	else
		if ! command -v go >/dev/null 2>&1; then
			echo "gate.sh: wsconform is not on PATH and go is not installed to build it" >&2
			exit 3
		fi
		here=$(cd "$(dirname "$0")" && pwd)
		dest="${TMPDIR:-/tmp}/wsconform-bin"
		if [ -f "$here/install.sh" ] && [ -f "$here/../go.mod" ]; then
			echo "gate.sh: building wsconform from the checkout at $here/.." >&2
			bin=$(sh "$here/install.sh" --dest "$dest")
		elif [ -n "${WSCONFORM_REPO:-}" ]; then
			echo "gate.sh: building wsconform from $WSCONFORM_REPO at ${WSCONFORM_REF:-main}" >&2
			src="${TMPDIR:-/tmp}/wsconform-src"
			rm -rf "$src"
			git init -q "$src"
			git -C "$src" fetch -q --depth 1 "$WSCONFORM_REPO" "${WSCONFORM_REF:-main}"
			git -C "$src" -c advice.detachedHead=false checkout -q FETCH_HEAD
			bin=$(sh "$src/ci/install.sh" --dest "$dest")
		else
			echo "gate.sh: no wsconform on PATH: set WSCONFORM to a binary, or WSCONFORM_REPO (and WSCONFORM_REF) to build one" >&2
			exit 3
		fi
		wsconform="$bin/wsconform"
	fi
fi

mkdir -p "$reports"

# The gate's exit code is the script's; `set -e` must not stop us first.
code=0
"$wsconform" gate \
	--html "$reports/report.html" \
	--junit "$reports/junit.xml" \
	--json "$reports/report.json" \
	"$@" || code=$?

echo "gate.sh: wsconform gate exited $code; reports in $reports/ (report.html, junit.xml, report.json)" >&2
exit "$code"
