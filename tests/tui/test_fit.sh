#!/bin/sh
# test_fit.sh — the dashboard at 80x24, where not every column fits: < and > sort only by the columns on
# screen, and the sort column's header carries the arrow.
. "$LT_SRCDIR/tests/tap.sh"
. "$LT_SRCDIR/tests/tui/lib.sh"
plan 3

tui_start_fixture || exit 1
tui_start 80 24 -- -b "$BOOTSTRAP" -i 1
ok "groups appear" tui_wait_text "shipping" 15

header() { tui_screen | grep -m1 'GROUP'; }
# the sort column named by the message, and whether its header (with an arrow) is on screen
hidden=""
step() {
	tui_keys "$1"
	sleep 0.3
	msg=$(tui_screen | grep -o 'sorted by [A-Z-]*' | head -n 1 | sed 's/sorted by //')
	h=$(header)
	case "$h" in
	*"$msg▲"* | *"$msg▼"*) ;;
	*) hidden="$hidden $1:$msg" ;;
	esac
}
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do step '>'; done
is "> steps only through columns on screen, each with its arrow" "$hidden" ""
hidden=""
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do step '<'; done
is "< the same backwards" "$hidden" ""
