#!/bin/sh
# test_fit.sh — the dashboard at 80x24, where not every column fits: < and > sort only by the columns on
# screen, and the sort column's header carries the arrow.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 7

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

# a resize to 50x12 and back: the list starts at its first group again, as before
first_row() { tui_group_rows | head -n 1 | awk '{print $1}'; }
tui_keys Home
sleep 0.5
before=$(first_row)
tui_resize 50 12
sleep 1.5
small=$(tui_screen)
tui_resize 80 24
sleep 1.5
is "80x24 -> 50x12 -> 80x24: the top row is the first group again" "$(first_row)" "$before"

# a list taller than its pane says which rows it shows; one that fits says nothing
tui_start 50 12 -- --demo
ok "demo at 50x12: the groups pane title says which rows of 10 it shows" tui_wait_text "Groups  10 (rows 1–8 of 10)" 15
tui_keys End
ok "End: the last rows" tui_wait_text "(rows 3–10 of 10)"
tui_resize 80 24
ok "80x24: all 10 fit, no range" tui_wait_gone "(rows "
