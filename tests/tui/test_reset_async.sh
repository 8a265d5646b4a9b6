#!/bin/sh
# test_reset_async.sh — the reset dialog's cluster work runs on the worker thread: on a slow cluster
# (every answer 3 s late) the dialog shows "Working...", Esc closes it at once, a second R says the
# abandoned request is still running, and once it has ended R works again with a fresh preview.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 7

tui_start_fixture || exit 1
mkdir -p "$LT_TMP/state"
tui_start 120 30 XDG_STATE_HOME="$LT_TMP/state" -- -b "$BOOTSTRAP" -i 1
ok "groups appear" tui_wait_text "analytics" 15

kill -USR1 "$FIXTURE_PID" # slow
tui_keys Home R Enter
ok "the preview runs in the background: Working... is shown" tui_wait_text "Working... reading the group"
tui_keys Escape
ok "Esc closes the dialog while the cluster is still answering" tui_wait_gone "Reset offsets of group"
tui_keys R
ok "R while the abandoned request runs says so" tui_wait_text "the previous reset request is still running"
kill -USR1 "$FIXTURE_PID" # fast again

try_r() {
	_tui_has "Reset offsets of group analytics" && return 0
	tui_keys R
	sleep 0.5
	_tui_has "Reset offsets of group analytics"
}
ok "once it has ended, R opens the dialog again" wait_for 30 try_r
tui_keys Enter
ok "a fresh preview (the abandoned answer was dropped)" tui_wait_text "Commit these offsets?" 20
tui_keys Escape q
ok "quits with status 0" tui_wait_text "EXITED=0"
