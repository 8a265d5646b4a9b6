#!/bin/sh
# test_faults_tui.sh — the dashboard under faults and hostile names, against faults_fixture:
# group ids, client ids, hosts and topics with OSC/CSI escape sequences, C1 controls, bidi overrides,
# invalid UTF-8, newlines and 10 KB lengths are shown escaped, the layout holds and the terminal title is
# not changed; with the group's coordinator broker down the dashboard keeps answering keys, the
# partition detail says the data is stale and for how long, and everything recovers when it is back.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 18

TUI_FIXTURE="$LT_BUILDDIR/tests/tui/faults_fixture"
tui_start_fixture || exit 1
title() { tm display-message -p -t t '#{pane_title}'; }
tui_start 160 40 -- -b "$BOOTSTRAP" -i 1 --timeout 3s
ok "dashboard up with the hostile cluster" tui_wait_text "plain-group" 20
screen=$(tui_screen)
like "OSC title + clear screen in a group id: escaped" "$screen" 'evil\\x1b\]0;pwned\\x07\\x1b\[2J'
like "invalid UTF-8: escaped" "$screen" 'bad\\xff\\xfe\\xc3-utf8'
like "C1 CSI: escaped" "$screen" 'c1\\u009b31mred'
like "bidi override: escaped" "$screen" 'bidi\\u202ecod\.exe'
like "newline, tab, CR: escaped" "$screen" 'line1\\x0aline2\\x09x\\x0dcr'
like "10 KB group id: cut with an ellipsis" "$screen" 'GGGGGGGG…'
unlike "the terminal title was not set by a group id" "$(title)" 'pwned'
is "the screen keeps its 40 lines" "$(tui_screen | wc -l)" 40
like "top bar intact" "$(tui_screen | head -n 1)" 'brokers 3/3 .* 7 groups'

# the hostile group's members: client id and host with escape sequences
tui_keys /
tui_keys -l evil
tui_keys Enter
tui_keys m
ok "members of the hostile group: client id escaped" tui_wait_text '\x1b[31mclient' 10
like "members: OSC 8 host escaped" "$(tui_screen)" '/\\x1b\]8;;http'
unlike "the terminal title is still not set" "$(title)" 'pwned'
# one Escape at a time: ESC followed at once by a key reads as Alt+key
esc_key() { tui_keys Escape; sleep 0.3; }
esc_key; esc_key; esc_key

# plain-group's coordinator down: stale with its age, keys answer, then recovery
tui_keys /
tui_keys -l plain-group
tui_keys Enter
sleep 0.5
tui_keys Enter
sleep 0.5
tui_keys Enter
tui_wait_text "flags" 10 >/dev/null
kill -USR1 "$FIXTURE_PID"
ok "coordinator down: the partition detail says stale, with its age" tui_wait_text "stale for" 20
esc_key
tui_keys '?'
ok "coordinator down: keys still answer (help opens)" tui_wait_text "lagtop help" 3
esc_key
tui_keys Enter
ok "the detail again: still stale while the broker is down" tui_wait_text "stale for" 10
kill -USR2 "$FIXTURE_PID"
ok "coordinator back: the data is fresh again by itself" tui_wait_gone "stale for" 40
esc_key; esc_key; esc_key
tui_keys q
ok "quits normally" tui_wait_text "EXITED=0" 10
