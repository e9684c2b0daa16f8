#!/bin/sh
# install.sh: build wsconform and wsproxy from a checkout of their repository.
#
#   ci/install.sh [--dest DIR]                        build the checkout this script is in
#   ci/install.sh --repo URL --ref REF [--dest DIR]   fetch REF (a tag, branch or commit) of the
#                                                     repository at URL, then build it
#
# The module is not published on a Go module proxy, so `go install …@latest`
# cannot work: CI installs from a pinned checkout instead. Needs only go, git
# and a POSIX shell. The binaries go to DIR (default: ./wsconform-bin) and
# carry the version (git describe) and commit; the last line printed on
# stdout is DIR, for `echo "$(sh install.sh …)" >> "$GITHUB_PATH"`-style use.
set -eu

repo="" ref="" dest="wsconform-bin"
while [ "$#" -gt 0 ]; do
	case $1 in
	--repo) repo=$2; shift 2 ;;
	--ref) ref=$2; shift 2 ;;
	--dest) dest=$2; shift 2 ;;
	*) echo "usage: $0 [--repo URL --ref REF] [--dest DIR]" >&2; exit 2 ;;
	esac
done
command -v go >/dev/null 2>&1 || { echo "install.sh: go is not installed (https://go.dev/dl/)" >&2; exit 3; }

if [ -n "$repo" ]; then
	[ -n "$ref" ] || { echo "install.sh: --repo needs --ref (a tag, branch or commit: pin what CI runs)" >&2; exit 2; }
	command -v git >/dev/null 2>&1 || { echo "install.sh: git is not installed" >&2; exit 3; }
	src=$(mktemp -d "${TMPDIR:-/tmp}/wsconform-src.XXXXXX")
	trap 'rm -rf "$src"' EXIT
	git -C "$src" init -q
	git -C "$src" remote add origin "$repo"
	# A commit, a branch or a tag: fetch exactly that, one commit deep.
	git -C "$src" fetch -q --depth 1 origin "$ref" 2>/dev/null || git -C "$src" fetch -q origin "$ref"
	git -C "$src" -c advice.detachedHead=false checkout -q FETCH_HEAD
else
	src=$(cd "$(dirname "$0")/.." && pwd)
fi
if ! grep -q '^module github.com/wsconform/wsconform$' "$src/go.mod" 2>/dev/null; then
	echo "install.sh: $src is not a checkout of wsconform" >&2
	exit 3
fi

version=$(git -C "$src" describe --tags --always --dirty 2>/dev/null || echo unknown)
commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
pkg=github.com/wsconform/wsconform/internal/version
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
(cd "$src" && go build -trimpath -ldflags "-s -w -X $pkg.stampVersion=$version -X $pkg.stampCommit=$commit" \
	-o "$dest/" ./cmd/wsconform ./cmd/wsproxy)
echo "install.sh: built wsconform $version ($commit) into $dest" >&2
echo "$dest"
