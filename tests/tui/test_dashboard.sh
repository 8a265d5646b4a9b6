#!/bin/sh
# test_dashboard.sh — the dashboard on the fixed test cluster: numbers, sorting, selection across a
# refresh, opening a group, members, filter, help, quit.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 24

tui_start_fixture || exit 1
tui_start 120 30 -- -b "$BOOTSTRAP" -i 1

ok "groups appear" tui_wait_text "shipping" 15
top=$(tui_screen | head -n 1)
like "top bar: brokers and group count" "$top" "brokers 1/1 .* 5 groups"
like "shipping: 1 member, lag 800" "$(tui_line shipping)" "shipping Stable 1 1 2 800 "
like "billing: 2 members, 4 partitions, lag 400" "$(tui_line billing)" "billing Stable 2 1 4 400 "
like "analytics: empty, lag 0" "$(tui_line analytics)" "analytics Empty 0 1 4 0 "

# sort: GROUP -> STATE -> MEMBERS -> TOPICS -> PARTITIONS -> LAG (descending first; TYPE, which the 120
# columns leave no room to show, is skipped)
tui_keys '>' '>' '>' '>' '>'
ok "sorted by LAG, descending" tui_wait_text "LAG▼"
is "most-lagging group first" "$(tui_group_rows | head -n 1 | awk '{print $1}')" "shipping"
tui_keys I
ok "I inverts" tui_wait_text "LAG▲"
is "least-lagging group first" "$(tui_group_rows | head -n 1 | awk '{print $1}')" "analytics"
tui_keys I
tui_wait_text "LAG▼" >/dev/null

# the cursor goes to billing (second row); the fixture then cuts shipping's lag to 100 so billing
# moves to the top at the next refresh: Enter must still open billing
tui_keys Home Down
sleep 1.5
kill -USR2 "$FIXTURE_PID"
first_is() { [ "$(tui_group_rows | head -n 1 | awk '{print $1}')" = "$1" ]; }
wait_for 15 first_is billing
is "a refresh re-sorted the rows" "$(tui_group_rows | head -n 1 | awk '{print $1}')" "billing"
tui_keys Enter
ok "the selection stayed on billing" tui_wait_text "Partitions of billing"
n=$(tui_screen | grep -cE '^ *orders +[0-3] +(0 +)?900 +1000 +100 ')
is "Enter shows billing's four partitions with their offsets" "$n" "4"

tui_keys Enter
ok "Enter on a partition opens its detail" tui_wait_text "orders [0]"
like "detail: exact offsets and the lag history" "$(tui_screen)" "COMMITTED +900.*|lag history"
tui_keys Escape
tui_wait_gone "orders [0]" >/dev/null

tui_keys m
ok "members pane" tui_wait_text "Members of billing"
like "members: client, host, assignment (runs as ranges)" "$(tui_line billing-2)" "billing-2 /10.0.0.2 orders:2-3"
tui_keys Escape
tui_wait_gone "Members of billing" >/dev/null

tui_keys / s h i p
tui_wait_text "Filter: ship" >/dev/null
is "filter narrows to matching groups" "$(tui_group_rows | awk '{print $1}' | tr '\n' ' ')" "shipping "
tui_keys Escape
tui_wait_text "analytics" >/dev/null
is "Esc clears the filter" "$(tui_group_rows | wc -l | tr -d ' ')" "5"

# keys sent in one go (a script, a paste, a fast typist) are read in one batch: m must act on the row
# the filter left, not on the row selected before it
tui_keys / a n a l y t i c s Enter m
ok "filter, Enter and m in one batch: the filtered group's members" tui_wait_text "Members of analytics"
tui_keys Escape / Escape
tui_wait_text "shipping" >/dev/null

tui_keys p
ok "p pauses: PAUSED in the top bar" tui_wait_text "│ PAUSED"
tui_keys p
tui_wait_gone "│ PAUSED" >/dev/null
tui_keys +
ok "+ lengthens the interval" tui_wait_text "every 2s"

tui_keys '?'
tui_wait_text "lagtop help" >/dev/null && tui_keys Escape
ok "help opens and closes" tui_wait_gone "lagtop help"

tui_keys q
ok "q quits with status 0" tui_wait_text "EXITED=0"
unlike "the dashboard is gone from the terminal" "$(tui_screen)" "brokers|GROUP"
