#!/bin/sh
# autogen.sh — generate ./configure. With --install-deps, first install (as root, with apt-get,
# only what is missing) the Debian packages lagtop needs to build and run its whole test suite.
set -eu

# Build: toolchain, autotools, libraries (jansson and libcurl: consumer positions, src/position; zstd: recordings, src/record). Tests: cmocka, tmux (+ procps: pgrep), Debian's python3-kafka,
# clang with libFuzzer for the fuzzers, valgrind for the memcheck script; real Apache Kafka for the
# real-broker tests: a JDK 17 and Maven (tests/kafka/pom.xml brings Kafka from Maven Central) and
# python3-venv (the tests' virtual environment for PyPI's confluent-kafka).
# The bundled librdkafka (configure's default here, scripts/build-librdkafka.sh): npm fetches its source,
# and it builds with OpenSSL, Cyrus SASL, zlib, zstd and lz4; librdkafka-dev stays for the floor build
# (--with-librdkafka=system: Debian's 2.0.2). The package: debhelper and lintian (make deb), mmdebstrap
# (make check-deb's minimal Debian root).
DEPS="build-essential autoconf automake pkg-config libncurses-dev librdkafka-dev libconfig-dev \
libjansson-dev libcurl4-openssl-dev libzstd-dev \
npm libssl-dev zlib1g-dev liblz4-dev libsasl2-dev \
libcmocka-dev tmux procps python3 python3-kafka clang clang-format libclang-rt-14-dev valgrind \
openjdk-17-jdk-headless maven python3-venv python3-prometheus-client \
debhelper lintian mmdebstrap"

install_deps() {
	missing=""
	for p in $DEPS; do
		# npm may come with a nodejs package of another origin (which conflicts with Debian's npm):
		# the command is what matters.
		[ "$p" = npm ] && command -v npm >/dev/null 2>&1 && continue
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	if [ -z "$missing" ]; then
		echo "autogen.sh: all build and test dependencies are installed"
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		echo "autogen.sh: missing packages:$missing — run as root, or: sudo apt-get install$missing" >&2
		exit 1
	fi
	echo "autogen.sh: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null
}

for arg in "$@"; do
	case "$arg" in
		--install-deps) install_deps ;;
		-h|--help) echo "usage: ./autogen.sh [--install-deps]"; exit 0 ;;
		*) echo "autogen.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
	esac
done

cd "$(dirname "$0")"
mkdir -p m4
autoreconf -fi
