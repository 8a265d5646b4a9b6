#!/bin/sh
# valgrind.sh — memcheck on lagtop: --once in every format, on its error paths and with
# --samples, and a scripted short dashboard session in tmux, against lagtop-sim. No errors and no
# definitely/indirectly lost bytes allowed. valgrind and ASan do not mix: in an --enable-asan build (the
# CI one) this is a TAP skip; use a plain build:
#     mkdir build-vg && cd build-vg && ../configure && make && make check TESTS=tests/valgrind.sh
# or run it by hand there: LAGTOP=./lagtop LAGTOP_SIM=./lagtop-sim LT_SRCDIR=.. LT_BUILDDIR=. \
#     DEBIAN_PYTHON=/usr/bin/python3 TMUX_BIN=$(command -v tmux) sh ../tests/valgrind.sh
# The valgrind summaries are printed as TAP diagnostics (the numbers for the record).
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/sim.sh"
command -v valgrind >/dev/null 2>&1 || missing_prereq "valgrind not installed (Debian package valgrind)"
if nm -D "$LAGTOP" 2>/dev/null | grep -q __asan_init || nm "$LAGTOP" 2>/dev/null | grep -q __asan_init; then
	skip_all "ASan build (valgrind needs a build without sanitizers)"
fi
plan 9
lt_tmpdir
export HOME="$LT_TMP" XDG_CONFIG_HOME="$LT_TMP" XDG_STATE_HOME="$LT_TMP"
unset LAGTOP_CONFIG

sim_start --scenario fixture || exit 1

VG="valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
--errors-for-leak-kinds=definite,indirect --error-exitcode=99 --track-origins=yes --num-callers=30"

# vg NAME WANT_RC ARGS... — lagtop under memcheck (bounded); passes when it exits WANT_RC with no error
vg() {
	local name=$1 want=$2; shift 2
	timeout -s KILL 120 $VG --log-file="$LT_TMP/vg.log" "$LAGTOP" "$@" >"$LT_TMP/out" 2>"$LT_TMP/err"
	local rc=$?
	local summary
	summary=$(grep -E 'ERROR SUMMARY|definitely lost|indirectly lost|total heap usage' "$LT_TMP/vg.log" | sed 's/^==[0-9]*== *//')
	if [ "$rc" -eq "$want" ] && grep -q 'ERROR SUMMARY: 0 errors' "$LT_TMP/vg.log"; then
		_tap_result 0 "$name: exit $want, no memcheck error or leak"
	else
		_tap_result 1 "$name: exit $rc (want $want)"
		diag "$(grep -v '^--' "$LT_TMP/vg.log" | tail -60)"
	fi
	diag "$name: $(printf '%s' "$summary" | tr '\n' ';')"
}

closed_port=$("$DEBIAN_PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
vg "--once table" 0 --once -b "$BOOTSTRAP" --timeout 20s
vg "--once json" 0 --once -b "$BOOTSTRAP" --timeout 20s --format json
vg "--once csv" 0 --once -b "$BOOTSTRAP" --timeout 20s --format csv
vg "--once --samples 2" 0 --once -b "$BOOTSTRAP" --timeout 20s --samples 2 -i 0.5 --format json
vg "--once, cluster unreachable" 1 --once -b "127.0.0.1:$closed_port" --timeout 2s
vg "--once, bad option value" 2 --once -b "$BOOTSTRAP" --timeout 1e99
vg "-X dump" 0 -X dump -b "$BOOTSTRAP" -X sasl.password=x
vg "--reset-offsets dry run" 0 --reset-offsets -g fx-empty --all-topics --to-earliest -b "$BOOTSTRAP" --timeout 20s

# ---- a scripted short dashboard session (tmux)
if [ -z "$TMUX_BIN" ] || [ ! -x "$TMUX_BIN" ]; then
	[ "${CI:-}" = true ] && { _tap_result 1 "dashboard session: prerequisite missing: tmux"; exit 1; }
	_tap_result 0 "dashboard session # SKIP tmux not found"
	exit 0
fi
SOCK="$LT_TMP/tmux.sock"
tm() { "$TMUX_BIN" -S "$SOCK" -f /dev/null "$@"; }
on_exit "tm kill-server >/dev/null 2>&1"
printf '#!/bin/sh\nenv TERM=screen LANG=C.UTF-8 LC_ALL=C.UTF-8 LAGTOP_THEMES_DIR=%s %s --log-file=%s %s -b %s -i 0.5 2>%s\necho "EXITED=$?"\nexec sleep 60\n' \
	"$LT_SRCDIR/themes" "$VG" "$LT_TMP/vg.log" "$LAGTOP" "$BOOTSTRAP" "$LT_TMP/err" >"$LT_TMP/run.sh"
chmod +x "$LT_TMP/run.sh"
tm new-session -d -s t -x 120 -y 35 "$LT_TMP/run.sh"
screen_has() { tm capture-pane -p -t t | grep -qF -- "$1"; }
wait_for 90 screen_has "fx-stable" || diag "dashboard did not come up: $(tm capture-pane -p -t t)"
for k in j j Enter Escape Tab j s s / f x - s t Enter Escape p p + - '?' Escape; do
	tm send-keys -t t "$k"
	sleep 0.4
done
sleep 2
tm send-keys -t t q
wait_for 60 screen_has "EXITED=" || true
rc=$(tm capture-pane -p -t t | sed -n 's/.*EXITED=\([0-9]*\).*/\1/p' | head -1)
summary=$(grep -E 'ERROR SUMMARY|definitely lost|indirectly lost|total heap usage' "$LT_TMP/vg.log" | sed 's/^==[0-9]*== *//')
if [ "$rc" = 0 ] && grep -q 'ERROR SUMMARY: 0 errors' "$LT_TMP/vg.log"; then
	_tap_result 0 "dashboard session: exit 0, no memcheck error or leak"
else
	_tap_result 1 "dashboard session: exit '$rc'"
	diag "$(grep -v '^--' "$LT_TMP/vg.log" | tail -60)"
fi
diag "dashboard session: $(printf '%s' "$summary" | tr '\n' ';')"
