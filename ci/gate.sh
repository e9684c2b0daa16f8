#!/bin/sh
# gate.sh: run `wsconform gate` around a client's test command, in any CI.
#
#   ci/gate.sh --dialect minicodex --fault drop-after=8 -- npm test
#
# Every argument goes to `wsconform gate` as is (see `wsconform gate --help`).
# It installs wsconform with `go install` when no `wsconform` is on PATH,
# writes the reports into $WSCONFORM_REPORTS (report.html, junit.xml,
# report.json) and exits with the gate's code: 0 the client passed, 1 the
# client's command failed or it broke the protocol, 2 usage, 3 harness error.
#
# Environment:
#   WSCONFORM_VERSION  module version to install (default: latest)
#   WSCONFORM_REPORTS  report directory (default: wsconform-reports)
#   WSCONFORM          the wsconform binary to use (default: wsconform on PATH,
#                      else the one go install puts in $(go env GOPATH)/bin)
set -eu

if [ "$#" -eq 0 ]; then
	echo "usage: $0 --dialect NAME [--fault SPEC]... -- CMD [ARGS...]" >&2
	exit 2
fi

version=${WSCONFORM_VERSION:-latest}
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
		echo "gate.sh: installing github.com/wsconform/wsconform/cmd/wsconform@$version" >&2
		go install "github.com/wsconform/wsconform/cmd/wsconform@$version"
		gobin=$(go env GOBIN)
		if [ -z "$gobin" ]; then
			gobin="$(go env GOPATH | cut -d: -f1)/bin"
		fi
		wsconform="$gobin/wsconform"
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
