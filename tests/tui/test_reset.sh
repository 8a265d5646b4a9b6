#!/bin/sh
# test_reset.sh — the reset dialog (R, U) on the fixed test cluster: refused on an active group with its
# members; on an Empty group the preview's deltas, nothing committed on No or Esc, a bad value refused by
# the parser, commit after Yes (offsets checked with --once), undo, a single partition from the partitions
# pane, the group name above the confirm threshold, and read-only mode (flag and cluster config).
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 51

tui_start_fixture || exit 1
STATE="$LT_TMP/state"
mkdir -p "$STATE"

# committed offsets of GROUP, in partition order, space-separated (a fresh --once run, not the dashboard)

tui_start 120 30 XDG_STATE_HOME="$STATE" -- -b "$BOOTSTRAP" -i 1
ok "groups appear" tui_wait_text "shipping" 15
is "analytics starts at the log end" "$(tui_committed analytics)" "1000 1000 1000 1000"

# --- an active group: refused, with the state and the members ---
tui_keys End R
ok "R opens the dialog on the selected group" tui_wait_text "Reset offsets of group shipping"
like "the target list starts on to-earliest" "$(tui_screen)" "> to-earliest"
tui_keys Enter
ok "Stable group: refused" tui_wait_text "REFUSED: nothing was changed" 15
like "the refusal names the state" "$(tui_screen)" "group 'shipping' is inactive, but the current state is Stable"
like "the refusal names the active member" "$(tui_screen)" "client-id shipper on host /10.0.0.3"
tui_keys Escape
ok "Esc closes the refusal" tui_wait_gone "REFUSED"
is "shipping's offsets unchanged" "$(tui_committed shipping)" "100 100"

# --- names from the cluster are escaped in the dialog ---
tui_keys Home Down Down Down R
ok "the group name is escaped in the title" tui_wait_text 'Reset offsets of group evil\x1b[31mred'
tui_keys Enter
ok "its preview" tui_wait_text "Commit these offsets?" 15
like "audit 0: 50 -> 0, replay 50" "$(tui_screen)" "audit +0 +50 -> 0 +replay 50 "
tui_keys Escape
tui_wait_gone "Commit these offsets?" >/dev/null

# --- an Empty group: preview, No, Esc ---
tui_keys Home R Enter
ok "Empty group: preview" tui_wait_text "Commit these offsets?" 15
n=$(tui_screen | grep -cE 'orders +[0-3] +1000 -> 0 +replay 1000 ')
is "to-earliest: four partitions 1000 -> 0, replay 1000 each" "$n" "4"
like "totals" "$(tui_screen)" "4 partitions: 4000 messages replayed, 0 skipped"
like "the confirm button starts on No" "$(tui_screen)" ">\[ No \]<"
unlike "below the threshold no group name is asked" "$(tui_screen)" "Group name:"
tui_keys Enter
ok "Enter on No closes the dialog" tui_wait_gone "Commit these offsets?"
is "No: offsets unchanged" "$(tui_committed analytics)" "1000 1000 1000 1000"
tui_keys R Enter
tui_wait_text "Commit these offsets?" 15 >/dev/null
tui_keys Right
ok "Right selects Yes" tui_wait_text ">[ Yes, reset ]<"
tui_keys Escape
ok "Esc cancels the preview" tui_wait_gone "Commit these offsets?"
is "Esc: offsets unchanged" "$(tui_committed analytics)" "1000 1000 1000 1000"

# --- a bad value is refused by the parser; then to-offset 250 is committed ---
tui_keys R Down Down Down
tui_wait_text "> to-offset N" >/dev/null
tui_keys -l "x12"
tui_keys Enter
ok "a bad offset shows the parser's error" tui_wait_text "Cannot parse argument 'x12' of option to-offset"
tui_keys BSpace BSpace BSpace
tui_keys -l "250"
tui_keys Enter
ok "to-offset 250: preview" tui_wait_text "Commit these offsets?" 15
n=$(tui_screen | grep -cE 'orders +[0-3] +1000 -> 250 +replay 750 ')
is "to-offset 250: four partitions replay 750" "$n" "4"
tui_keys Right Enter
ok "Yes commits: executed and read back" tui_wait_text "EXECUTED: every partition reads back as planned" 15
like "the result names the backup" "$(tui_screen)" "Backup of the previous offsets: .*/lagtop/backups/analytics\."
n=$(ls "$STATE/lagtop/backups/" 2>/dev/null | grep -c '^analytics\..*\.csv$')
is "one backup written" "$n" "1"
ok "offsets are now 250" wait_for 10 tui_committed_is analytics "250 250 250 250"
tui_keys Escape
tui_wait_gone "EXECUTED" >/dev/null

# --- U restores the previous offsets ---
tui_keys U
ok "U previews the newest backup" tui_wait_text "Undo the last reset of group analytics" 15
tui_wait_text "Commit these offsets?" 15 >/dev/null
n=$(tui_screen | grep -cE 'orders +[0-3] +250 -> 1000 +skip 750 ')
is "undo: four partitions 250 -> 1000" "$n" "4"
tui_keys Right Enter
ok "undo executed" tui_wait_text "EXECUTED: every partition reads back as planned" 15
ok "offsets restored to 1000" wait_for 10 tui_committed_is analytics "1000 1000 1000 1000"
tui_keys Escape
tui_wait_gone "EXECUTED" >/dev/null

# --- in the partitions pane R resets only the partition under the cursor ---
tui_keys Enter
tui_wait_text "Partitions of analytics" >/dev/null
tui_keys Down R
ok "partition scope" tui_wait_text "Scope: partition orders:1"
tui_keys Down Down Down Down
tui_wait_text "> shift-by N" >/dev/null
tui_keys -l -- "-10"
tui_keys Enter
tui_wait_text "Commit these offsets?" 15 >/dev/null
is "shift-by -10: one row, 1000 -> 990" "$(tui_screen | grep -cE 'orders +[0-9]+ +[0-9]+ -> ')" "1"
like "the row is partition 1, replaying 10" "$(tui_screen)" "orders +1 +1000 -> 990 +replay 10 "
tui_keys Right Enter
tui_wait_text "EXECUTED" 15 >/dev/null
ok "only partition 1 moved" wait_for 10 tui_committed_is analytics "1000 990 1000 1000"
tui_keys Escape q
ok "quits with status 0 after the commits (ASan: no leak)" tui_wait_text "EXITED=0"

# --- above the confirm threshold the group name must be typed ---
cat >"$LT_TMP/low.conf" <<CONF
general = {
    reset_confirm_threshold = 100;
};
CONF
tui_start 120 30 XDG_STATE_HOME="$STATE" -- --config "$LT_TMP/low.conf" -b "$BOOTSTRAP" -i 1
tui_wait_text "shipping" 15 >/dev/null
tui_keys Home R Enter
ok "threshold 100: preview asks for the group name" tui_wait_text "Group name: _" 15
like "the reason is given" "$(tui_screen)" "This moves 3990 messages \(confirm threshold 100\)"
tui_keys Right Enter
ok "Yes without the name is refused" tui_wait_text "type the group name exactly to confirm"
tui_keys -l "analytic"
tui_keys Enter
tui_wait_text "Group name: analytic_" >/dev/null
is "a wrong name commits nothing" "$(tui_committed analytics)" "1000 990 1000 1000"
tui_keys -l "s"
tui_keys Enter
ok "the exact name commits" tui_wait_text "EXECUTED" 15
ok "offsets at the log start" wait_for 10 tui_committed_is analytics "0 0 0 0"
tui_keys Escape q
ok "quits with status 0 after the confirmed reset" tui_wait_text "EXITED=0"

# --- read-only: --read-only, and a cluster with read_only = true ---
tui_start 120 30 XDG_STATE_HOME="$STATE" -- --read-only -b "$BOOTSTRAP" -i 1
tui_wait_text "shipping" 15 >/dev/null
unlike "--read-only: no R or U in the key bar" "$(tui_screen | tail -n 1)" "RReset|UUndo"
tui_keys '?'
tui_wait_text "lagtop help" >/dev/null
unlike "--read-only: no reset in the help" "$(tui_screen)" "reset the offsets|undo the group"
tui_keys Escape Home R U
sleep 1
unlike "--read-only: R and U open nothing" "$(tui_screen)" "Reset offsets of|Undo the last reset"
tui_keys q
tui_wait_text "EXITED=0" >/dev/null
cat >"$LT_TMP/ro.conf" <<CONF
clusters = {
    fixture = {
        bootstrap_servers = "$BOOTSTRAP";
        read_only = true;
    };
};
CONF
tui_start 120 30 XDG_STATE_HOME="$STATE" -- --config "$LT_TMP/ro.conf" -c fixture -i 1
tui_wait_text "shipping" 15 >/dev/null
tui_keys Home R
sleep 1
unlike "read_only cluster: R opens nothing, no key in the bar" "$(tui_screen)" "Reset offsets of|RReset"
is "read-only: offsets unchanged" "$(tui_committed analytics)" "0 0 0 0"
tui_keys q
ok "quits cleanly" tui_wait_text "EXITED=0"
