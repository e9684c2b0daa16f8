#!/usr/bin/env bash
# Builds the field trial's clients from a checkout of aipper/relay, in a
# scratch folder (the checkout is only read):
#
#   build.sh CHECKOUT SCRATCH
#
#   SCRATCH/web          the relay web app (web/), npm-installed and built (web/dist)
#   SCRATCH/cli          the relay CLI (cli/src/index.ts; no dependencies, run with bun)
#   SCRATCH/cli-planted  the CLI with a planted bug: every input gets the same input_id
#   SCRATCH/clients      drive.mjs (playwright-core) that drives the web app in Chromium
#   SCRATCH/bin          wsconform, wsproxy and front, built from this repository
#
# At 63f9a1c the web app's main.ts mounts App with Svelte 4's `new App()`,
# which the Svelte 5 its package.json asks for refuses at load ("Cannot read
# properties of undefined (reading 'call')"); the copy gets the authors' own
# fix of the next commit (5cc4dab: mount(App, {target})). Its package.json
# pins vite ^6 and vite-plugin-pwa ^0.20, whose peer range ends at vite 5
# (the authors use bun, which does not enforce peers): npm installs with
# --legacy-peer-deps.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
checkout=$(cd "${1:?usage: build.sh CHECKOUT SCRATCH}" && pwd)
scratch=${2:?usage: build.sh CHECKOUT SCRATCH}
[[ -f $checkout/web/package.json && -f $checkout/cli/src/index.ts ]] ||
	{ echo "build.sh: $checkout has no web/package.json or cli/src/index.ts (an aipper/relay checkout?)" >&2; exit 2; }
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
case $scratch/ in "$checkout"/*) echo "build.sh: SCRATCH must be outside the checkout" >&2; exit 2 ;; esac

rm -rf "$scratch/web" "$scratch/cli" "$scratch/cli-planted"
tar -C "$checkout" --exclude=node_modules --exclude=dist -cf - web cli | tar -C "$scratch" -xf -
if grep -q 'new App(' "$scratch/web/src/main.ts"; then
	cat >"$scratch/web/src/main.ts" <<'TS'
import App from "./App.svelte";
import { mount } from "svelte";

const target = document.getElementById("app");
if (!target) {
  throw new Error('missing mount element "#app"');
}

mount(App, { target });
TS
fi
(cd "$scratch/web" && npm install --silent --no-audit --no-fund --legacy-peer-deps >/dev/null && npx --no-install vite build >build.log 2>&1) ||
	{ echo "build.sh: the web app did not build (see $scratch/web/build.log)" >&2; exit 3; }

# The planted bug: a client that keeps one input_id for every input.
cp -r "$scratch/cli" "$scratch/cli-planted"
sed -i 's/crypto\.randomUUID()/"00000000-0000-4000-8000-00000000feed"/g' "$scratch/cli-planted/src/index.ts"
grep -q 00000000feed "$scratch/cli-planted/src/index.ts" || { echo "build.sh: could not plant the bug in the CLI" >&2; exit 3; }

mkdir -p "$scratch/clients" "$scratch/bin"
cp "$here/clients/drive.mjs" "$here/clients/package.json" "$here/clients/session.sh" "$scratch/clients/"
(cd "$scratch/clients" && npm install --silent --no-audit --no-fund >/dev/null)
(cd "$root" && go build -o "$scratch/bin/" ./cmd/wsconform ./cmd/wsproxy ./ci/field/hostd/front)
