#!/bin/sh
# test_commitstream.sh — the commit stream in the dashboard: LAST-COMMIT and EXPIRES in the
# groups pane, LAST-COMMIT / COMMITS/MIN / UNMOVED in a group's partitions, the expiring group's
# EXPIRES cell in the warning colour; on a cluster that denies __consumer_offsets the top bar says
# so and `e` gives the reason, and the rest of the dashboard works as before.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
. "$LT_SRCDIR/tests/lib/sim.sh"
plan 12

# The fixture's groups committed at a fixed time in 2023: fx-empty's offsets are past the retention.
sim_start --brokers 1 --port 0 --scenario fixture || exit 1
tui_start 200 30 -- -b "$BOOTSTRAP" -i 1
ok "dashboard up" tui_wait_text "fx-empty" 15
like "groups pane: LAST-COMMIT and EXPIRES columns on a wide terminal" "$(tui_screen)" "LAST-COMMIT +EXPIRES"
# the first refresh may come before the reader has read the topic: wait for the forecast
ok "fx-empty (Empty, simple): offsets overdue for deletion" tui_wait_text "overdue" 15
like "... on fx-empty's row, after its last commit's age" "$(tui_line fx-empty)" "fx-empty Empty .* [0-9]+d[0-9][0-9]h overdue"
like "fx-stable keeps its offsets: no forecast" "$(tui_line fx-stable)" "fx-stable Stable .* [0-9]+d[0-9][0-9]h -$"
# the EXPIRES cell in the warning role (status-warn: yellow) once the cursor is off the row; the row itself
# is ERR (red) from the first refresh, its committed offset being below the log start, so tmux may put
# more SGR sequences (a background reset) between the yellow and the text
tui_keys Down
sleep 1
esc=$(printf '\033')
like "the EXPIRES cell of the expiring group is in the warning colour" \
	"$(tui_screen_esc | grep -F fx-empty)" "$esc\\[[0-9;]*33m($esc\\[[0-9;]*m)* *overdue"
like "... on a row that is ERR from the first refresh (committed below the log start)" \
	"$(tui_line fx-empty)" " ERR "
tui_keys Home Enter
ok "partitions of a group: commit columns" tui_wait_text "COMMITS/MIN"
like "... with the time since the offset moved" "$(tui_screen)" "UNMOVED"
tui_keys q
tui_wait_text "EXITED=0" >/dev/null

# A cluster whose ACLs hide __consumer_offsets: polling alone, and the dashboard says why.
sim_start --brokers 1 --port 0 --scenario fixture --deny-offsets-topic || exit 1
tui_start 200 30 -- -b "$BOOTSTRAP" -i 1
ok "denied: the top bar says commit times are missing" tui_wait_text "no commit times (e)" 15
like "denied: the groups are there, with their lag" "$(tui_line fx-stable)" "fx-stable Stable classic 2 1 3 "
tui_keys e
ok "denied: e gives the reason" tui_wait_text "commit stream (denied): commit times unavailable: not"
tui_keys Escape q
