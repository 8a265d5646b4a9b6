#!/bin/sh
# test_stale_tui.sh — a cluster that stops answering is visibly stale at 80x24, without colour: the rows it
# no longer reads say how old their data is (`stale 12s`, in the STATE column where "Stable" would mislead),
# and `e` says each cause once with a count, not once per group; on xterm and on vt100 with LANG=C. The sim
# is SIGSTOPped (no answers, no resets), then resumed; bounded waits throughout.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
. "$LT_SRCDIR/tests/lib/sim.sh"
plan 18

sim_start --scenario demo

# one pass on a terminal: T names it, the arguments are tui_start's environment
stale_pass() {
	T=$1
	shift
	tui_start 80 24 "$@" -- -b "$BOOTSTRAP" -i 1 --timeout 2s --read-only
	ok "$T: the dashboard shows the demo's groups" tui_wait_text "orders-processor" 20
	tui_wait_text "every 1s" 10
	fresh=$(tui_group_rows)
	unlike "$T: fresh rows carry no stale mark" "$fresh" "stale "

	kill -STOP "$SIM_PID"
	ok "$T: a silent cluster: the rows say their data is stale, with its age" tui_wait_text "stale " 30
	rows=$(tui_group_rows)
	like "$T: ... on the group rows (no colour needed)" "$rows" "orders-processor .*stale [0-9]+[sm]"
	unlike "$T: ... and no row still claims Stable" "$rows" "Stable"
	# the first refresh after the stop may still have had its metadata answered, and then says the lists
	# are missing as well (which 80 columns cut before "(e)")
	like "$T: the top bar counts them, at 80 columns" "$(tui_screen | head -n 1)" \
		"10 groups . 10 unread( \(e\)|, lists missing)"
	tui_keys e
	tui_wait_text "collection errors" 10
	popup=$(tui_screen)
	printf '%s\n' "$popup" | sed 's/^/# /'
	# a cause of one group alone (the floor's KIP-848 note) keeps its own line: only the shared one is counted
	ok "$T: e groups the errors by cause: one line with a count, not a line per group" \
		test "$(printf '%s\n' "$popup" | grep -c 'group [a-z-]*: cannot reach')" -eq 0 -a \
		"$(printf '%s\n' "$popup" | grep -cE '[0-9]+ groups?: ')" -ge 1
	tui_keys Escape
	tui_wait_gone "collection errors" 10
	tui_keys Enter
	tui_wait_text "Partitions of" 10
	parts=$(tui_screen | sed -n '/Partitions of/,$p' | grep -E '^ *audit-log ')
	printf '%s\n' "$parts" | sed 's/^/# /'
	ok "$T: the partitions of a stale group carry the mark too" \
		test -n "$parts" -a "$(printf '%s\n' "$parts" | grep -cvE '(stale|~[0-9]+[smhd]) *$')" -eq 0
	tui_keys Escape

	kill -CONT "$SIM_PID"
	ok "$T: answers again: the stale marks go" tui_wait_gone "stale " 30
	tui_keys q
	tui_wait_text "EXITED=0" 10
}

stale_pass xterm NO_COLOR=1
stale_pass vt100 TERM=vt100 LANG=C LC_ALL=C NO_COLOR=1
