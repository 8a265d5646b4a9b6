#!/bin/sh
# test_unread_tui.sh — a refresh that could not read every group says so in the dashboard: the top bar
# counts the groups not read, and `e` says which and why, once per cause (lagtop-sim answering DescribeGroups with
# COORDINATOR_NOT_AVAILABLE, then with GROUP_AUTHORIZATION_FAILED: named with the ACL it needs).
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
. "$LT_SRCDIR/tests/lib/sim.sh"
plan 6

# sim_up ARGS...: the fixture with every DescribeGroups (API 15) failing
sim_up() { sim_start --scenario fixture --error-api 15 --error-rate 1 "$@"; }

sim_up
# the classic groups: a current librdkafka reads the consumer-protocol fx-kip848 with ConsumerGroupDescribe
# (API 69), which the sim does not fail here; 2.0.2 reads it from the group list alone
tui_start 160 30 -- -b "$BOOTSTRAP" -i 1 --timeout 3s --read-only -G '^fx-(empty|rebalancing|stable)$'
ok "every describe failing: the top bar counts the 3 groups not read" tui_wait_text "3 unread (e)" 20
tui_keys e
ok "e says the cause once, with the count of groups" tui_wait_text "3 groups: DescribeGroups:" 10
like "... the broker's error and the groups' names" "$(tui_screen)" "Coordinator not available.*\[fx-empty, fx-rebalancing, fx-stable\]"
tui_keys Escape
tui_keys q
ok "quits cleanly" tui_wait_text "EXITED=0" 10
sim_stop

sim_up --error-code GROUP_AUTHORIZATION_FAILED
tui_start 160 30 -- -b "$BOOTSTRAP" -i 1 --timeout 3s --read-only -g fx-empty
ok "denied: the top bar says the group was not read" tui_wait_text "1 unread (e)" 20
tui_keys e
ok "e names the ACL it needs" tui_wait_text "not authorized to describe the group (ACL: Describe on the Group)" 10
tui_keys Escape
tui_keys q
