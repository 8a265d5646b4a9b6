#!/bin/sh
# test_expired.sh — offsets the broker expired, in the dashboard. The fixture's fx-empty (an Empty
# simple group whose commits date from 2023) is past its retention: a sim that checks every second expires
# its two offsets and deletes the group, writing the tombstones to __consumer_offsets. The dashboard, reading
# them, keeps the group (Dead, as Kafka describes a deleted group) with EXPIRES "expired"; its partitions
# read COMMITTED "expired" with no lag (not 0; log offsets from the other groups of the topic), and a
# partition's detail names auto.offset.reset.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
. "$LT_SRCDIR/tests/lib/sim.sh"
plan 9

sim_start --brokers 1 --port 0 --scenario fixture --offsets-retention-check-interval-ms 1000 || exit 1
sleep 2 # the first check (one interval after the start) has expired fx-empty's offsets

tui_start 200 50 -- -b "$BOOTSTRAP" -i 1
ok "dashboard up" tui_wait_text "fx-stable" 15
ok "fx-empty's offsets expired: EXPIRES reads expired" tui_wait_text "expired" 15
like "... on fx-empty's row, kept as Dead (the broker deleted the group)" "$(tui_line fx-empty)" \
	"fx-empty Dead .* expired$"
like "fx-stable keeps its offsets: no forecast, not expired" "$(tui_line fx-stable)" "fx-stable Stable .* -$"
# open fx-empty (sorted by name: fx-empty is the first group)
tui_keys Home Enter
ok "its partitions" tui_wait_text "Partitions of fx-empty" 10
like "COMMITTED reads expired, LAG is unknown (-), not 0" "$(tui_line 'fx-orders  ')" \
	"fx-orders 0 100 expired 1000 - "
tui_keys Enter
ok "a partition's detail says it restarts from auto.offset.reset" \
	tui_wait_text "consumers start from their auto.offset.reset, which the" 10
tui_keys Escape q
tui_wait_text "EXITED=0" >/dev/null

# A group the broker deleted is shown for expiry_horizon after the expiry, not for ever.
mkdir -p "$LT_TMP/home"
printf 'general = { expiry_horizon = "1s"; };\n' >"$LT_TMP/short.conf"
out=$(HOME="$LT_TMP/home" "$LAGTOP" --once -b "$BOOTSTRAP" --config "$LT_TMP/short.conf" 2>&1)
unlike "expiry_horizon 1s, seconds after the expiry: fx-empty is no longer shown" "$out" "fx-empty"
out=$(HOME="$LT_TMP/home" "$LAGTOP" --once -b "$BOOTSTRAP" 2>&1)
like "the default horizon (3 days): still shown" "$out" "fx-empty .*expired"
done_testing
