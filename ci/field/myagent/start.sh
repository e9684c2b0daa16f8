#!/usr/bin/env bash
# Start the real JasonDZS/myagent WebSocket server with a fake planner/solver
# (field trial; see README.md). Prints the ws:// URL on stdout and leaves the
# server running in the background; its pid, log and scratch dir go to stderr.
#
#   start.sh CHECKOUT [SCRATCH]
#
# CHECKOUT: a checkout of JasonDZS/myagent (tried at 2e0c6da).
# SCRATCH:  where stubs, the fake pipeline, server.log and server.pid go
#           (default: a new mktemp -d).
# Environment: MYAGENT_REQUIRE_CONFIRM (1), MYAGENT_CONFIRM_TIMEOUT (300 s),
# MYAGENT_SLOW_MS (100), PYTHON (an interpreter with pydantic 2).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
checkout=${1:?usage: start.sh CHECKOUT [SCRATCH]}
checkout=$(cd "$checkout" && pwd)
scratch=${2:-$(mktemp -d /tmp/myagent-field.XXXXXX)}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)

if [[ ! -f "$checkout/myagent/ws/server.py" ]]; then
	echo "start.sh: $checkout is not a myagent checkout (no myagent/ws/server.py)" >&2
	exit 2
fi

# Debian packages for the server's runtime imports (openai and tiktoken are stubbed).
debs=(python3-websockets python3-loguru python3-tenacity python3-dotenv)
missing=()
for p in "${debs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
	echo "start.sh: installing ${missing[*]}" >&2
	if ! compgen -G '/var/lib/apt/lists/*_Packages' >/dev/null; then
		apt-get update -qq >&2
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi

# An interpreter with pydantic 2 (Debian 12's python3-pydantic is 1.x).
dist=/usr/lib/python3/dist-packages
pick_python() {
	local c
	for c in "${PYTHON:-}" /root/.pyenv/versions/3.11.7/bin/python3 python3.11 python3 /usr/bin/python3; do
		[[ -n "$c" ]] || continue
		command -v "$c" >/dev/null 2>&1 || continue
		if PYTHONPATH="$dist" "$c" -c 'import sys, pydantic; sys.exit(0 if sys.version_info >= (3, 10) and pydantic.VERSION.startswith("2") else 1)' 2>/dev/null; then
			echo "$c"
			return 0
		fi
	done
	return 1
}
if ! py=$(pick_python); then
	echo "start.sh: no Python >= 3.10 with pydantic 2 found; set PYTHON" >&2
	exit 2
fi

# Scratch dir on PYTHONPATH: the import stubs and the fake pipeline.
cp -r "$here/stubs/." "$scratch/"
cp "$here/fake_pipeline.py" "$scratch/"
export PYTHONPATH="$scratch:$checkout:$dist${PYTHONPATH:+:$PYTHONPATH}"

port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')

# cwd = scratch: myagent's config runs load_dotenv(".env") and its logger writes there.
(cd "$scratch" && exec "$py" -u fake_pipeline.py --host 127.0.0.1 --port "$port" >"$scratch/server.log" 2>&1) &
pid=$!
echo "$pid" >"$scratch/server.pid"

for _ in $(seq 1 100); do
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "start.sh: server exited; log follows" >&2
		cat "$scratch/server.log" >&2
		exit 3
	fi
	if "$py" -c 'import socket, sys; s = socket.socket(); s.settimeout(0.2); sys.exit(s.connect_ex(("127.0.0.1", int(sys.argv[1]))))' "$port"; then
		echo "start.sh: myagent pid $pid, python $py, scratch $scratch, log $scratch/server.log" >&2
		echo "ws://127.0.0.1:$port"
		exit 0
	fi
	sleep 0.1
done
echo "start.sh: server did not listen on 127.0.0.1:$port within 10 s" >&2
kill "$pid" 2>/dev/null || true
exit 3
