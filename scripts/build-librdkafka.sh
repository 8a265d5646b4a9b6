#!/bin/sh
# build-librdkafka.sh — build a current librdkafka from source into a local prefix, for
#     ./configure --with-librdkafka=PREFIX
#
# Usage: scripts/build-librdkafka.sh [--install-deps] PREFIX
#
# Debian 12 ships librdkafka 2.0.2, lagtop's floor. A current release describes consumer-protocol
# (KIP-848) groups and has the admin ListOffsets API (doc/LIBRDKAFKA.md says what lagtop does with
# each). The source comes from a package registry, pinned and checksummed: the npm package of
# Confluent's JavaScript client carries librdkafka's complete source tree under deps/librdkafka
# (npm is its registry; `npm pack` fetches it without running anything of it). The build uses
# Debian's OpenSSL, zlib, zstd, lz4 and Cyrus SASL; librdkafka's own dependency downloader is not
# used. A stamp in PREFIX records what was built there, so a second run with the same pin does
# nothing.
set -eu

# The pin: the npm package, its version, the sha256 of its tarball, and the librdkafka inside.
NPM_PACKAGE="@confluentinc/kafka-javascript"
NPM_VERSION="1.10.1"
NPM_SHA256="ada7d703bb1d3237e2292bfabf438d663b6160c9f1ac2a2406b5dc4257c81b66"
RDKAFKA_VERSION="2.15.1"
BUILD_DEPS="build-essential pkg-config npm libssl-dev zlib1g-dev libzstd-dev liblz4-dev libsasl2-dev"

die() { echo "build-librdkafka.sh: $*" >&2; exit 1; }

install_deps=no
prefix=""
for arg in "$@"; do
	case "$arg" in
		--install-deps) install_deps=yes ;;
		-h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
		-*) die "unknown option '$arg' (try --help)" ;;
		*) [ -z "$prefix" ] || die "one PREFIX only (got '$prefix' and '$arg')"; prefix=$arg ;;
	esac
done
[ -n "$prefix" ] || die "usage: scripts/build-librdkafka.sh [--install-deps] PREFIX"
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac

stamp="$prefix/.lagtop-librdkafka"
want="$NPM_PACKAGE@$NPM_VERSION sha256:$NPM_SHA256 librdkafka $RDKAFKA_VERSION"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$prefix/lib/pkgconfig/rdkafka.pc" ]; then
	echo "build-librdkafka.sh: librdkafka $RDKAFKA_VERSION is already built in $prefix"
	exit 0
fi

if [ "$install_deps" = yes ]; then
	missing=""
	for p in $BUILD_DEPS; do
		# npm may come with a nodejs package of another origin (which conflicts with Debian's npm):
		# the command is what matters.
		[ "$p" = npm ] && command -v npm >/dev/null 2>&1 && continue
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		[ "$(id -u)" -eq 0 ] || die "missing packages:$missing — run as root, or: sudo apt-get install$missing"
		echo "build-librdkafka.sh: installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -q >/dev/null
		# shellcheck disable=SC2086
		apt-get install -y -q --no-install-recommends $missing >/dev/null
	fi
fi
command -v npm >/dev/null 2>&1 || die "npm not found (Debian package npm; or pass --install-deps)"

work=$(mktemp -d "${TMPDIR:-/tmp}/lagtop-librdkafka.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

echo "build-librdkafka.sh: fetching $NPM_PACKAGE@$NPM_VERSION (librdkafka $RDKAFKA_VERSION source)"
(cd "$work" && npm pack --silent "$NPM_PACKAGE@$NPM_VERSION" >/dev/null) || die "npm pack $NPM_PACKAGE@$NPM_VERSION failed"
tarball=$(ls "$work"/*.tgz 2>/dev/null | head -n 1)
[ -n "$tarball" ] || die "npm pack wrote no tarball"
got=$(sha256sum "$tarball" | cut -d' ' -f1)
[ "$got" = "$NPM_SHA256" ] || die "checksum mismatch for $(basename "$tarball"): got $got, want $NPM_SHA256"

tar -xzf "$tarball" -C "$work" package/deps/librdkafka
src="$work/package/deps/librdkafka"
inside=$(sed -n 's/^#define RD_KAFKA_VERSION 0x\([0-9a-f]*\).*/\1/p' "$src/src/rdkafka.h")
want_hex=$(echo "$RDKAFKA_VERSION" | awk -F. '{ printf "%02x%02x%02xff", $1, $2, $3 }')
[ "$inside" = "$want_hex" ] || die "the package holds librdkafka 0x$inside, not $RDKAFKA_VERSION (0x$want_hex)"

echo "build-librdkafka.sh: building librdkafka $RDKAFKA_VERSION into $prefix"
jobs=$(nproc 2>/dev/null || echo 2)
(
	cd "$src"
	./configure --prefix="$prefix" --disable-curl --disable-gssapi --enable-ssl --enable-zstd \
		--enable-lz4-ext >"$work/configure.log" 2>&1 || { tail -n 30 "$work/configure.log"; exit 1; }
	make -j"$jobs" libs >"$work/make.log" 2>&1 || { tail -n 30 "$work/make.log"; exit 1; }
	make -C src install >"$work/install.log" 2>&1 || { tail -n 30 "$work/install.log"; exit 1; }
) || die "the build failed (the lines above say where)"
echo "$want" >"$stamp"
echo "build-librdkafka.sh: done: ./configure --with-librdkafka=$prefix"
