#!/bin/sh
# test_frozen.sh — the UI never waits on the network: with the cluster frozen (SIGSTOP) keys still
# answer and the top bar says the refresh is late; SIGTERM and SIGINT restore the terminal.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 8

tui_start_fixture || exit 1
tui_start 120 30 -- -b "$BOOTSTRAP" -i 1 --timeout 20s
ok "dashboard up" tui_wait_text "shipping" 15
unlike "not late while the cluster answers" "$(tui_screen | head -n 1)" "LATE"

kill -STOP "$FIXTURE_PID"
ok "frozen cluster: the top bar shows the refresh as late" tui_wait_text "LATE" 12
tui_keys '?'
ok "keys still answer: help opens" tui_wait_text "lagtop help" 2
tui_keys Escape
kill -CONT "$FIXTURE_PID"

pane_pid=$(tm display-message -p -t t '#{pane_pid}')
lagtop_pid=$(pgrep -P "$pane_pid" | head -n 1)
kill -TERM "$lagtop_pid"
ok "SIGTERM: lagtop exits 0" tui_wait_text "EXITED=0"
unlike "SIGTERM: the terminal is restored" "$(tui_screen)" "brokers|GROUP"

tui_start 120 30 -- -b "$BOOTSTRAP" -i 1
tui_wait_text "shipping" 15 >/dev/null
pane_pid=$(tm display-message -p -t t '#{pane_pid}')
lagtop_pid=$(pgrep -P "$pane_pid" | head -n 1)
kill -INT "$lagtop_pid"
ok "SIGINT: lagtop exits 0" tui_wait_text "EXITED=0"
unlike "SIGINT: the terminal is restored" "$(tui_screen)" "brokers|GROUP"
