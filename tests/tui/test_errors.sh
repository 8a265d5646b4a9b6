#!/bin/sh
# test_errors.sh — a failed refresh is shown, not fatal: the top bar carries the error shortened,
# `e` shows it in full, and the dashboard keeps answering.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 8

tui_start_fixture || exit 1
tui_start 100 30 -- -b "$BOOTSTRAP" -i 1 --timeout 2s --read-only
ok "dashboard up" tui_wait_text "shipping" 15
like "--read-only is shown in the top bar" "$(tui_screen | head -n 1)" "│ read-only │"
kill -TERM "$FIXTURE_PID"
ok "cluster gone: the top bar shows an error" tui_wait_text "error:" 15
like "... and that no broker is reachable" "$(tui_screen | head -n 1)" "brokers 0/1"
tui_keys e
ok "e shows the error in full" tui_wait_text "collection errors"
like "... the whole message, not the shortened one" "$(tui_screen)" "refresh: cannot reach the cluster within 2.0 s"
tui_keys Escape
ok "Esc closes it" tui_wait_gone "collection errors"
tui_keys q
ok "still quits cleanly (status 0)" tui_wait_text "EXITED=0"
