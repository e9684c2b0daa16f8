#!/usr/bin/env bash
# newcomer.sh: the first ten minutes of a new user, checked. On a fresh
# clone of this repository (the committed HEAD, in a temporary directory)
# it runs the README's two commands, --help of every command, and the
# mistakes everyone makes once: a wrong flag, a dead target, a target that
# is not a WebSocket endpoint, an empty file, a gate whose client never
# connects. Each outcome's exit code and key text are checked.
#
# It needs only Go (and git): everything runs on loopback. The README's
# test command is `go test -race ./...`, which takes minutes; this script
# runs the same command on a quick subset (the packages of the commands'
# shared code, exit codes and version, and the strict JSON decoder), with
# -race when cgo can build it. `.ci/run` runs the whole suite.
#
# Usage: ci/newcomer.sh            (from anywhere; exit 0 when every check passed)
set -uo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
serve_pid=""
cleanup() {
  if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

failures=0
checks=0

# expect CODE TEXT CMD...: run CMD, check its exit code and that its
# output (stdout and stderr) contains TEXT.
expect() {
  local want="$1" text="$2" out code
  shift 2
  checks=$((checks + 1))
  out="$work/out.$checks"
  "$@" >"$out" 2>&1
  code=$?
  if [ "$code" -ne "$want" ]; then
    echo "FAIL  $*: exit $code, want $want"
    tail -n 20 "$out" | sed 's/^/      /'
    failures=$((failures + 1))
    return
  fi
  if [ -n "$text" ] && ! grep -qF -- "$text" "$out"; then
    echo "FAIL  $*: exit $code as expected, but the output lacks: $text"
    tail -n 20 "$out" | sed 's/^/      /'
    failures=$((failures + 1))
    return
  fi
  echo "ok    $* (exit $code)"
}

echo "== a fresh clone of $repo"
git clone -q "$repo" "$work/wsconform" || { echo "FAIL  git clone"; exit 1; }
cd "$work/wsconform" || exit 1

echo "== the README's main job"
expect 0 "wrote the HTML report to report.html" go run ./cmd/wsconform run --html report.html
checks=$((checks + 1))
if [ -s report.html ] && grep -q "<html" report.html; then
  echo "ok    report.html written"
else
  echo "FAIL  report.html is missing or empty"
  failures=$((failures + 1))
fi

echo "== the README is short, and its pages are there"
checks=$((checks + 1))
lines=$(wc -l < README.md)
if [ "$lines" -le 260 ]; then
  echo "ok    README.md has $lines lines"
else
  echo "FAIL  README.md has $lines lines: a newcomer's page, at most about 250"
  failures=$((failures + 1))
fi
for page in $(grep -o '(docs/[a-z-]*\.md)' README.md | tr -d '()' | sort -u); do
  checks=$((checks + 1))
  if [ -s "$page" ]; then echo "ok    $page"; else echo "FAIL  README links $page, which is missing"; failures=$((failures + 1)); fi
done

echo "== the README's test command, on a quick subset"
race=()
if [ "$(go env CGO_ENABLED)" = 1 ] && command -v "$(go env CC)" >/dev/null 2>&1; then
  race=(-race)
else
  echo "      (no C compiler for -race: testing without it; .ci/run installs gcc)"
fi
expect 0 "ok" go test "${race[@]}" ./cmd/internal/... ./internal/exit ./internal/version ./internal/jsonx

echo "== the binaries"
bin="$work/bin"
expect 0 "" go build -o "$bin/" ./cmd/wsconform ./cmd/wsproxy
wsconform="$bin/wsconform"
wsproxy="$bin/wsproxy"
expect 0 "wsconform " "$wsconform" --version
expect 0 "wsproxy " "$wsproxy" --version

echo "== --help of each command"
expect 0 "Usage:" "$wsconform" --help
for c in run gate validate replay serve export rules requirements mcp version completion; do
  expect 0 "Usage: wsconform $c" "$wsconform" "$c" --help
done
expect 0 "Usage: wsproxy" "$wsproxy" --help

echo "== one wrong flag"
expect 2 "unknown flag: --dialekt" "$wsconform" run --dialekt minicodex
expect 2 "Run 'wsconform run --help' for usage." "$wsconform" run --dialekt minicodex
expect 2 "targets are ws:// or wss:// URLs" "$wsconform" run --dialect minicodex --target 127.0.0.1:9000
expect 2 "wsproxy --upstream ws://127.0.0.1:7337" "$wsproxy" ws://127.0.0.1:7337

echo "== one dead target (nothing listens on port 1)"
expect 3 "unreachable" "$wsconform" run --dialect minicodex --target ws://127.0.0.1:1/ws --color never
checks=$((checks + 1))
if grep -v '^$' "$work/out.$((checks - 1))" | head -n 1 | grep -q "unreachable: dial tcp"; then
  echo "ok    the cause is the first line"
else
  echo "FAIL  a dead target's cause is not the first line"
  failures=$((failures + 1))
fi

echo "== one target that is not a WebSocket endpoint (an HTTP server's wrong path)"
"$wsconform" serve --dialect minicodex --listen 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
url=""
for _ in $(seq 1 100); do
  url="$(sed -n 's/.*"url":"\([^"]*\)".*/\1/p' "$work/serve.out" | head -n 1)"
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "FAIL  wsconform serve printed no listening line"
  cat "$work/serve.err"
  failures=$((failures + 1))
else
  expect 3 "HTTP 404 Not Found: it is not a WebSocket endpoint" "$wsconform" run --dialect minicodex --target "$url/not-here" --color never
  echo "== a recording replayed against that server (docs/replay.md)"
  expect 0 "PASS  4 of 4 connections match the recording" "$wsconform" replay --against "$url" "internal/replay/testdata/minicodex.jsonl" --color never
fi
expect 3 "target unreachable: cannot connect" "$wsconform" replay --against ws://127.0.0.1:1/ws "internal/replay/testdata/minicodex.jsonl" --color never

echo "== a recording exported as HAR validates to the same verdict"
expect 0 "wrote" "$wsconform" export --har minicodex.har "cmd/wsconform/testdata/minicodex-clean.jsonl"
expect 0 "" "$wsconform" validate minicodex.har

echo "== one empty file"
: >empty.jsonl
expect 3 "no frame to judge" "$wsconform" validate empty.jsonl

echo "== a gate whose client never connects"
expect 1 "opened no WebSocket connection" "$wsconform" gate --dialect minicodex --color never -- true

echo
if [ "$failures" -gt 0 ]; then
  echo "newcomer.sh: $failures of $checks checks failed"
  exit 1
fi
echo "newcomer.sh: all $checks checks passed"
