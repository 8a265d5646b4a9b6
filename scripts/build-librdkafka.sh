#!/bin/sh
# build-librdkafka.sh — build a current librdkafka from source into a local prefix. ./configure runs it
# for the bundled librdkafka (the default unless the system's is new enough; linked statically), and
# by hand it builds one for ./configure --with-librdkafka=PREFIX (linked as a shared library).
#
# Usage: scripts/build-librdkafka.sh [--install-deps] [--print-version] PREFIX
#
# CC, CFLAGS and CPPFLAGS are passed to librdkafka's build (ccache works: CC="ccache gcc").
# LAGTOP_LIBRDKAFKA_CACHE=DIR keeps each build in DIR, keyed by the pin, the compiler and those flags, and
# copies it into PREFIX when asked again (CI builds lagtop three times: the suite, the package, distcheck).
#
# Debian 12 ships librdkafka 2.0.2, lagtop's floor. A current release describes consumer-protocol
# (KIP-848) groups and has the admin ListOffsets API (doc/LIBRDKAFKA.md says what lagtop does with
# each; 2.10 is what lagtop needs on Kafka 4.x). The source comes from a package registry, pinned and checksummed: the npm package of
# Confluent's JavaScript client carries librdkafka's complete source tree under deps/librdkafka
# (npm is its registry; `npm pack` fetches it without running anything of it). The build uses
# Debian's OpenSSL, zlib, zstd, lz4 and Cyrus SASL; librdkafka's own dependency downloader is not
# used. A stamp in PREFIX records what was built there, so a second run with the same pin does
# nothing; npm's cache keeps the downloaded package, so a rebuild elsewhere needs no network.
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
		--print-version) echo "$RDKAFKA_VERSION"; exit 0 ;;
		-h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

# A build kept in the cache (LAGTOP_LIBRDKAFKA_CACHE), for the same pin, compiler and flags: copied, with
# its pkg-config files pointed at PREFIX.
cached=""
if [ -n "${LAGTOP_LIBRDKAFKA_CACHE:-}" ]; then
	key=$(printf '%s\n' "$want" "${CC:-cc}" "$(${CC:-cc} --version 2>/dev/null | head -n 1)" "${CFLAGS:-}" \
		"${CPPFLAGS:-}" | sha256sum | cut -c1-16)
	cached="$LAGTOP_LIBRDKAFKA_CACHE/librdkafka-$RDKAFKA_VERSION-$key"
	if [ -f "$cached/.lagtop-librdkafka" ] && [ "$(cat "$cached/.lagtop-librdkafka")" = "$want" ]; then
		rm -rf "$prefix" && mkdir -p "$(dirname "$prefix")" && cp -a "$cached" "$prefix"
		sed -i "s|^prefix=.*|prefix=$prefix|; s|^libdir=.*|libdir=$prefix/lib|; s|^includedir=.*|includedir=$prefix/include|" \
			"$prefix"/lib/pkgconfig/*.pc
		echo "build-librdkafka.sh: librdkafka $RDKAFKA_VERSION copied from $cached"
		exit 0
	fi
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
(cd "$work" && npm pack --silent --prefer-offline "$NPM_PACKAGE@$NPM_VERSION" >/dev/null) || die "npm pack $NPM_PACKAGE@$NPM_VERSION failed"
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
	# Debian's own librdkafka1 is built with the same: OpenSSL, Cyrus SASL (GSSAPI), zlib, zstd, lz4.
	./configure --prefix="$prefix" --disable-curl --enable-gssapi --enable-ssl --enable-zstd \
		--enable-lz4-ext >"$work/configure.log" 2>&1 || { tail -n 30 "$work/configure.log"; exit 1; }
	make -C src -j"$jobs" >"$work/make.log" 2>&1 || { tail -n 30 "$work/make.log"; exit 1; }
	make -C src install >"$work/install.log" 2>&1 || { tail -n 30 "$work/install.log"; exit 1; }
	# its licenses (and those of the code it carries), for whoever ships a binary that links it
	mkdir -p "$prefix/share/doc/librdkafka" && cp LICENSE LICENSES.txt "$prefix/share/doc/librdkafka/"
) || die "the build failed (the lines above say where)"
echo "$want" >"$stamp"
if [ -n "$cached" ]; then
	rm -rf "$cached.part" && mkdir -p "$LAGTOP_LIBRDKAFKA_CACHE" && cp -a "$prefix" "$cached.part" &&
		rm -rf "$cached" && mv "$cached.part" "$cached" || echo "build-librdkafka.sh: could not keep the build in $cached" >&2
fi
echo "build-librdkafka.sh: done: ./configure --with-librdkafka=$prefix"
