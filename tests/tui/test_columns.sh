#!/bin/sh
# test_columns.sh — the panes' columns at 80x24 on --demo (TERM=screen UTF-8, and vt100 LANG=C): the
# partitions pane of a group whose consumers report their position shows POSITION between COMMITTED and
# LOG-END; the column setup (F2, S) hides a column and the choice is saved to the configuration file (its
# other lines kept; made when there is none) and read again after a restart; the sort chooser (F6, .) lists
# only the columns on screen; a bad column name in the file is one clear line.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 18

conf="$LT_TMP/lagtop.conf"
cat >"$conf" <<'EOF'
# my own comment, kept
general = {
    mouse = true; # kept too
};
EOF
chmod 600 "$conf"

header() { tui_screen | grep -m1 'TOPIC'; }
# opens orders-analytics (the demo's consumers publish their positions) in the partitions pane
open_group() {
	tui_wait_text "orders-analytics" 20 >/dev/null || return 1
	tui_keys / orders-analytics Enter
	sleep 0.5
	tui_keys Enter
	tui_wait_text "Partitions of orders-analytics" 10 >/dev/null
}

tui_start 80 24 "LAGTOP_CONFIG=$conf" -- --demo
ok "the partitions pane opens" open_group
sleep 2.5 # a refresh with the positions reported
like "80x24: COMMITTED POSITION LOG-END side by side, with LAG" "$(header)" \
	'COMMITTED +POSITION +LOG-END +LAG'
# no header cut: every header word is a whole column title
unlike "80x24: no header is cut" "$(header)" '…|[A-Z]-$'
# the offsets of a row: all exact (no K/M abbreviation beside an exact one)
row=$(tui_screen | grep -m1 '^orders ')
unlike "a row's offsets are all exact: $row" "$row" '^orders +[0-9]+ +[0-9]+[KMGT]|[0-9]+[KMGT] +[0-9]+ '

# F2: TIME-LAG hidden, Enter saves
tui_keys F2
ok "F2 opens the column setup of the partitions pane" tui_wait_text "columns of partitions"
ok "the setup lists TIME-LAG, shown" tui_wait_text "[x] TIME-LAG"
tui_keys Down Down Down Down Down Down Down Space Enter
ok "Enter says where it saved" tui_wait_text "saved to $conf"
unlike "TIME-LAG is gone from the pane" "$(header)" 'TIME-LAG'
like "the file has the choice, and still the user's lines" "$(tr '\n' ' ' <"$conf")" \
	'my own comment, kept.*mouse = true; # kept too.*partitions = \{ columns = \[ "topic", "partition", "log-start", "committed", "position", "log-end", "lag", "rate"'

# F6: the columns on screen, and only those
hdr=$(header | tr -s ' ' | sed 's/[▲▼]//g; s/ *$//')
tui_keys F6
ok "F6 opens the sort chooser" tui_wait_text "sort partitions by"
shown=$(tui_screen | sed -n 's/^.*│\([A-Z][A-Z/-]*\) .*$/\1/p' | tr '\n' ' ' | sed 's/ *$//')
is "F6 lists the columns on screen, in their order" "$shown" "$hdr"
tui_keys Escape

# a restart reads the columns back from the file
tui_start 80 24 "LAGTOP_CONFIG=$conf" -- --demo
open_group >/dev/null
sleep 1
unlike "after a restart TIME-LAG is still hidden" "$(header)" 'TIME-LAG'

# vt100, LANG=C: no function keys needed (S and . are the setup and the sort chooser), ASCII only
tui_start 80 24 TERM=vt100 LANG=C LC_ALL=C "LAGTOP_CONFIG=$conf" -- --demo
open_group >/dev/null
sleep 2.5
like "vt100: COMMITTED POSITION LOG-END side by side" "$(header)" 'COMMITTED +POSITION +LOG-END +LAG'
tui_keys S
ok "vt100: S opens the column setup" tui_wait_text "columns of partitions"
tui_keys Escape .
ok "vt100: . opens the sort chooser" tui_wait_text "sort partitions by"
tui_keys Escape

# without a configuration file the setup makes the user's own (as htop makes its htoprc)
tui_start 80 24 -- --demo
open_group >/dev/null
tui_keys F2 Down Down Down Down Down Down Down Space Enter
ok "no file: the setup makes \$XDG_CONFIG_HOME/lagtop/lagtop.conf" tui_wait_text "saved to $LT_TMP/xdg/lagtop/lagtop.conf"
like "it holds the choice" "$(tr '\n' ' ' <"$LT_TMP/xdg/lagtop/lagtop.conf")" 'partitions = \{ columns = \[ "topic", .*"lag", "rate"'

# a bad name: one line naming it, and the file as it was
printf 'panes = { groups = { columns = [ "group", "lagg" ]; }; };\n' >"$LT_TMP/bad.conf"
chmod 600 "$LT_TMP/bad.conf"
before=$(cat "$LT_TMP/bad.conf")
err=$("$LAGTOP" --config "$LT_TMP/bad.conf" -b 127.0.0.1:9 --once 2>&1 >/dev/null)
is "a bad column is one line naming it and the known ones" "$err" \
	"lagtop: $LT_TMP/bad.conf:1: unknown column 'lagg' in groups (known: group, state, type, members, topics, partitions, lag, max-time-lag, consume-rate, trend, status, last-commit, expires)"
