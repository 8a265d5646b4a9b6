# tests/lib/tap.sh — TAP helpers for shell tests (sourced). Every test script:
#   . "$LT_SRCDIR/tests/lib/tap.sh"; plan N; ok "name" cmd...; is "name" got want; done_testing
# Cleanup: register with `on_exit CMD`; everything registered runs on exit, even on failure.
# Network: tests use 127.0.0.1 only; every wait is bounded (wait_for), and so is every lagtop (run_lagtop).

_tap_n=0
_tap_failed=0
_tap_cleanup=""

plan() { echo "1..$1"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
# missing_prereq WHAT — a prerequisite (tmux, valgrind, a broker, a module) is missing: under CI=true that
# is a failure (CI must run everything), elsewhere the test skips with one line saying what is missing.
missing_prereq() {
	if [ "${CI:-}" = true ]; then echo "1..1"; echo "not ok 1 - prerequisite missing: $*"; exit 1; fi
	skip_all "$*"
}
diag() { printf '# %s\n' "$*" | sed '2,$s/^/# /'; }

_tap_result() { # pass(0/1) name
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_tap_n - $2"; else echo "not ok $_tap_n - $2"; _tap_failed=$((_tap_failed + 1)); fi
}
# ok NAME CMD... — passes when CMD succeeds
ok() { local name=$1; shift; if "$@"; then _tap_result 0 "$name"; else _tap_result 1 "$name"; fi; }
# is NAME GOT WANT — string equality, with a diagnostic on mismatch
is() {
	if [ "$2" = "$3" ]; then _tap_result 0 "$1"; else _tap_result 1 "$1"; diag "got:  '$2'"; diag "want: '$3'"; fi
}
# like NAME TEXT REGEX — extended regex match
like() {
	if printf '%s' "$2" | grep -Eq -- "$3"; then _tap_result 0 "$1"; else _tap_result 1 "$1"; diag "text: '$2'"; diag "does not match: '$3'"; fi
}
unlike() {
	if printf '%s' "$2" | grep -Eq -- "$3"; then _tap_result 1 "$1"; diag "text: '$2'"; diag "matches: '$3'"; else _tap_result 0 "$1"; fi
}
done_testing() { exit 0; }

on_exit() { _tap_cleanup="$*; $_tap_cleanup"; trap "$_tap_cleanup" EXIT; }

# wait_for SECONDS CMD... — polls CMD every 0.1 s until it succeeds; fails after SECONDS.
wait_for() {
	local limit=$1; shift
	local tries=$((limit * 10))
	while [ $tries -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

# A private temp dir per test, removed on exit.
lt_tmpdir() {
	LT_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lagtop-test.XXXXXX")
	on_exit "rm -rf '$LT_TMP'"
}

# run_lagtop ARGS... — "$LAGTOP ARGS", killed after RUN_LIMIT seconds (default 30; rc 137 then: it hung).
# Sets rc, out and err (its stdout and stderr, also in $LT_TMP/out and $LT_TMP/err) and secs (whole seconds
# it took). Needs LT_TMP (lt_tmpdir).
run_lagtop() {
	local t0 t1
	t0=$(date +%s%N)
	timeout -s KILL "${RUN_LIMIT:-30}" "$LAGTOP" "$@" >"$LT_TMP/out" 2>"$LT_TMP/err"
	rc=$?
	t1=$(date +%s%N)
	secs=$(((t1 - t0) / 1000000000))
	out=$(cat "$LT_TMP/out")
	err=$(cat "$LT_TMP/err")
}
