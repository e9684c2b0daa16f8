#!/usr/bin/env bash
# ci/stress.sh: run the test suite several times under CPU load and list
# every test that failed at least once. A test that fails once in N runs
# blocks every landing, so run this before you call a change done.
#
#   ci/stress.sh                 # 5 runs of go test -race ./..., 1 busy core of load
#   ci/stress.sh -n 10 -l 2      # 10 runs, 2 busy loops
#   ci/stress.sh -n 20 ./internal/replay ./internal/proxy
#
# Each run's full output is kept in the printed folder (run-N.txt). The exit
# status is 0 when every run passed, 1 when any test failed, 2 on bad usage.
set -uo pipefail

runs=5
load=1
usage() {
  cat <<'EOF'
usage: ci/stress.sh [-n RUNS] [-l BUSY_LOOPS] [packages...]
  -n RUNS         how many times to run the suite (default 5)
  -l BUSY_LOOPS   processes that spin on a core while the suite runs (default 1)
  packages        go test packages (default ./...)
EOF
}
while getopts ":n:l:h" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    l) load=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
case $runs$load in *[!0-9]*) usage >&2; exit 2 ;; esac
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)

cd "$(dirname "$0")/.." || exit 2
out=$(mktemp -d "${TMPDIR:-/tmp}/wsconform-stress.XXXXXX")

# The load: busy loops that compete with the tests for the processors, as
# other jobs on a CI runner do. They end with this script.
hogs=()
stop_hogs() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null; }
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM
for ((i = 0; i < load; i++)); do
  (while :; do :; done) &
  hogs+=($!)
done

failed_runs=0
for ((r = 1; r <= runs; r++)); do
  log=$out/run-$r.txt
  start=$SECONDS
  if go test -race -count=1 "${pkgs[@]}" >"$log" 2>&1; then
    echo "run $r/$runs: ok ($((SECONDS - start)) s)"
  else
    failed_runs=$((failed_runs + 1))
    echo "run $r/$runs: FAILED ($((SECONDS - start)) s): $log"
  fi
done
stop_hogs

# A failed test shows as "--- FAIL: Name" (subtests indented); a package
# that failed without a named test (a panic, a build error, a timeout) as
# "FAIL<tab>package".
summary=$out/failures.txt
grep -hoE -- '--- FAIL: [^ ]+' "$out"/run-*.txt | sed 's/--- FAIL: //' >"$summary" || true
grep -hE $'^FAIL\t' "$out"/run-*.txt | sed 's/^FAIL\t/package /; s/\t.*//' >>"$summary" || true
echo
if [ "$failed_runs" -eq 0 ]; then
  echo "$runs passed, 0 failed (load: $load busy loops; logs in $out)"
  exit 0
fi
echo "tests that failed at least once (count of runs):"
sort "$summary" | uniq -c | sort -rn
echo "$((runs - failed_runs)) passed, $failed_runs failed (load: $load busy loops; logs in $out)"
exit 1
