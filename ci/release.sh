#!/bin/sh
# release.sh: build the release binaries of wsconform and wsproxy.
#
#   ci/release.sh [--snapshot] [--out DIR] [--target OS/ARCH]...
#
# Builds both commands for linux, darwin and windows on amd64 and arm64 (or
# the --target list), each archive named wsconform_VERSION_OS_ARCH.tar.gz
# with the version and commit stamped in (wsconform --version prints them),
# plus SHA256SUMS. VERSION is the tag at HEAD; without one, --snapshot builds
# VERSION-dev+COMMIT (what CI runs on every push), and a release refuses.
# Needs go, git, tar and sha256sum; static binaries (CGO_ENABLED=0).
set -eu

snapshot=0 out=dist targets=""
while [ "$#" -gt 0 ]; do
	case $1 in
	--snapshot) snapshot=1; shift ;;
	--out) out=$2; shift 2 ;;
	--target) targets="$targets $2"; shift 2 ;;
	*) echo "usage: $0 [--snapshot] [--out DIR] [--target OS/ARCH]..." >&2; exit 2 ;;
	esac
done
targets=${targets:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}
root=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$root" rev-parse HEAD)
if tag=$(git -C "$root" describe --tags --exact-match 2>/dev/null); then
	version=${tag#v}
elif [ "$snapshot" = 1 ]; then
	version="0.1.0-dev+$(git -C "$root" rev-parse --short=12 HEAD)"
else
	echo "release.sh: HEAD has no tag: tag the release, or build a --snapshot" >&2
	exit 2
fi
pkg=github.com/wsconform/wsconform/internal/version
mkdir -p "$out"
out=$(cd "$out" && pwd)
for t in $targets; do
	os=${t%/*} arch=${t#*/}
	name="wsconform_${version}_${os}_${arch}"
	dir="$out/$name"
	rm -rf "$dir"
	mkdir -p "$dir"
	(cd "$root" && CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath \
		-ldflags "-s -w -X $pkg.stampVersion=$version -X $pkg.stampCommit=$commit" \
		-o "$dir/" ./cmd/wsconform ./cmd/wsproxy)
	cp "$root/README.md" "$dir/"
	[ -f "$root/LICENSE" ] && cp "$root/LICENSE" "$dir/"
	tar -C "$out" -czf "$out/$name.tar.gz" "$name"
	rm -rf "$dir"
	echo "release.sh: $out/$name.tar.gz" >&2
done
(cd "$out" && sha256sum ./*.tar.gz >SHA256SUMS)
echo "release.sh: $version ($commit): $(echo "$targets" | wc -w) archives and SHA256SUMS in $out" >&2
