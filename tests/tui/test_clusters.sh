#!/bin/sh
# test_clusters.sh — clusters from the config file (c switches; a recording then starts a new file),
# themes (t cycles, --theme checks the name), NO_COLOR.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 14

tui_start_fixture || exit 1
cat >"$LT_TMP/lagtop.conf" <<CONF
clusters = {
  alpha = { bootstrap_servers = "$BOOTSTRAP"; };
  beta = { bootstrap_servers = "$BOOTSTRAP"; include_groups = [ "^bill" ]; };
};
CONF

tui_start 120 30 -- --config "$LT_TMP/lagtop.conf" -c alpha -i 1 --record "$LT_TMP/night.rec"
ok "the config's cluster: alpha, 5 groups, recording" tui_wait_text "alpha │ REC │ brokers 1/1 │ 5 groups" 15
tui_keys c
ok "c lists the config's clusters" tui_wait_text "  beta"
like "the current cluster is marked" "$(tui_screen)" '\* alpha'
tui_keys Down Enter
ok "switched to beta: its include_groups apply (still recording)" tui_wait_text "beta │ REC │ brokers 1/1 │ 1 group " 15
is "beta shows only billing" "$(tui_group_rows | awk '{print $1}' | tr '\n' ' ')" "billing "

tui_keys t
ok "t switches to the next theme" tui_wait_text "theme light"
tui_keys q
tui_wait_text "EXITED=0" >/dev/null
# recording through the switch: one file per cluster (alpha's rotated to .1, beta's in the file)
recorded_clusters() {
	"$LAGTOP" --replay "$1" --once --format json 2>/dev/null | grep -o '"cluster":"[a-z]*"' | head -n 1
}
is "the recording's older file holds alpha" "$(recorded_clusters "$LT_TMP/night.rec.1")" '"cluster":"alpha"'
is "the recording's file holds beta" "$(recorded_clusters "$LT_TMP/night.rec")" '"cluster":"beta"'

# A cluster chosen with c uses its own bootstrap servers. Before, a -X bootstrap.servers
# from the command line was carried into every cluster switched to (here: a closed port, so beta
# never showed a group).
tui_start 120 30 -- --config "$LT_TMP/lagtop.conf" -c alpha -X bootstrap.servers=127.0.0.1:1 -i 1 --timeout 2s
ok "-X bootstrap.servers points alpha at a closed port" tui_wait_text "cannot reach the cluster" 15
tui_keys c
tui_wait_text "  beta" >/dev/null
tui_keys Down Enter
ok "switched to beta: beta's own bootstrap servers, not the -X one" tui_wait_text "beta │ brokers 1/1 │ 1 group " 15
is "... and beta's data" "$(tui_group_rows | awk '{print $1}' | tr '\n' ' ')" "billing "
tui_keys q
tui_wait_text "EXITED=0" >/dev/null

tui_start 100 30 NO_COLOR=1 -- -b "$BOOTSTRAP"
tui_wait_text "shipping" 15 >/dev/null
ok "NO_COLOR: no colours on a colour terminal" tui_has_no_colour
tui_keys q
tui_wait_text "EXITED=0" >/dev/null

tui_start 100 30 -- -b "$BOOTSTRAP" --theme nosuch
ok "--theme with an unknown name: exit 2" tui_wait_text "EXITED=2"
like "... and a one-line error naming the known themes" "$(cat "$LT_TMP/lagtop.err")" \
	"^lagtop: unknown theme 'nosuch' \(known: default, light, high-contrast, mono\)$"
