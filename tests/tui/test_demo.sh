#!/bin/sh
# test_demo.sh — `lagtop --demo`: the in-process simulated cluster and the dashboard on it, at 80x24.
. "$LT_SRCDIR/tests/tap.sh"
. "$LT_SRCDIR/tests/tui/lib.sh"
plan 4

tui_start 80 24 -- --demo
ok "the demo cluster comes up" tui_wait_text "demo (simulated)" 20
like "three brokers, several groups" "$(tui_screen | head -n 1)" "brokers 3/3 │ ([6-9]|10) groups"
n=$(tui_group_rows | grep -c .)
in_range() { [ "$1" -ge 6 ] && [ "$1" -le 10 ]; }
ok "6 to 10 groups listed at 80x24 (got $n)" in_range "$n"
tui_keys q
ok "q stops the demo and exits 0" tui_wait_text "EXITED=0" 15
