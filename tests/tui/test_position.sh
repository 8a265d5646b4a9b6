#!/bin/sh
# test_position.sh — consumers' positions in the dashboard: the POSITION and UNCOMMITTED columns of
# a group's partitions from a position source (a Prometheus text file here), the position's source and age in
# the partition detail, and the "!" of a consumer that reads without committing, in the partitions pane and
# on the group's STATUS in the groups pane.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
. "$LT_SRCDIR/tests/lib/sim.sh"
plan 7

sim_start --brokers 1 --port 0 --scenario fixture || exit 1

# fx-stable: fx-c1 owns fx-orders 0 (log start 100, committed 500) and 1 (committed 600)
page() {
	printf 'kafka_consumer_fetch_manager_records_lead{client_id="fx-c1",partition="0",topic="fx-orders"} %s\n' "$1" \
		>"$LT_TMP/m.prom.tmp"
	printf 'kafka_consumer_fetch_manager_records_lead{client_id="fx-c1",partition="1",topic="fx-orders"} 600\n' \
		>>"$LT_TMP/m.prom.tmp"
	mv "$LT_TMP/m.prom.tmp" "$LT_TMP/m.prom"
}
page 450
row() { tui_screen | tr -s ' ' | grep -F -- "$1" | head -n 1; }
cat >"$LT_TMP/lagtop.conf" <<CONF
clusters = { fx = { bootstrap_servers = "$BOOTSTRAP"; position_sources = [ "$LT_TMP/m.prom" ];
  not_committing_after = "1s"; }; };
CONF
tui_start 200 30 -- --config "$LT_TMP/lagtop.conf" -c fx -g fx-stable -i 1
ok "dashboard up" tui_wait_text "fx-stable" 15
tui_keys Enter
ok "partitions of fx-stable: POSITION and UNCOMMITTED columns" tui_wait_text "UNCOMMITTED" 10
# POSITION between COMMITTED and LOG-END, UNCOMMITTED last
like "fx-orders 0: position 550 (log start 100 + lead 450), 50 not committed" \
	"$(row 'fx-orders 0 ')" " 500 550 1000 .* 50$"
like "fx-orders 2 (fx-c2 reports nothing): -" "$(row 'fx-orders 2 ')" " 700 - 1000 .* -$"
# the position of partition 0 moves on while the committed offset stays at 500: not committing
page 460
sleep 1.2
page 470
ok "a position moving without commits: UNCOMMITTED marked !" tui_wait_text " 70!" 10
tui_keys Escape
# the marker follows whatever STATUS says (fx-stable's commits are days old: ERR once the window is full)
status_marked() { tui_screen | grep -qE 'fx-stable .* (OK|WARN|ERR|-)! '; }
if wait_for 10 status_marked; then ok "the group's STATUS says so in the groups pane" true
else diag "$(tui_screen)"; ok "the group's STATUS says so in the groups pane" false; fi
tui_keys Enter
tui_wait_text "UNCOMMITTED" >/dev/null
tui_keys Enter
ok "the partition detail names the position's source and age" tui_wait_text "position   from $LT_TMP/m.prom" 10
tui_keys Escape q
tui_wait_text "EXITED=0" >/dev/null
