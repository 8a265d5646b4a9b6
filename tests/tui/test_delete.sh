#!/bin/sh
# test_delete.sh — D in the dashboard on the fixed test cluster: refused on an active group (its state and
# member named, nothing deleted, no backup); on an Empty group, D in the partitions pane deletes the committed
# offset of the partition under the cursor and D in the groups pane the whole group, each after a preview of
# what goes and where its backup is written, the group name typed and Yes; U brings a deleted offset back;
# --read-only removes D.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 27

tui_start_fixture || exit 1
STATE="$LT_TMP/state"
mkdir -p "$STATE"

backups() { ls "$STATE/lagtop/backups/" 2>/dev/null | grep -c "^$1\..*\.csv\$"; }

tui_start 120 30 XDG_STATE_HOME="$STATE" -- -b "$BOOTSTRAP" -i 1
ok "groups appear" tui_wait_text "shipping" 15

# --- an active group: refused, with the state and the member ---
tui_keys End D
ok "D opens the delete dialog on the selected group" tui_wait_text "Delete group shipping"
ok "Stable group: refused" tui_wait_text "REFUSED: nothing was deleted" 15
like "the refusal names the state" "$(tui_screen)" "Group 'shipping' can only be deleted if it is inactive, but the current state is Stable"
like "the refusal names the active member" "$(tui_screen)" "client-id shipper on host /10.0.0.3"
tui_keys Escape
ok "Esc closes the refusal" tui_wait_gone "REFUSED"
is "shipping's offsets unchanged" "$(tui_committed shipping)" "100 100"
is "no backup for a refused delete" "$(backups shipping)" "0"

# --- D on a partition of an Empty group: that partition's committed offset ---
tui_keys Home Enter
tui_wait_text "Partitions of analytics" >/dev/null
tui_keys Down D
ok "D on a partition: its offset" tui_wait_text "Delete the offset of orders:1 in group analytics" 15
ok "the preview asks for the group name" tui_wait_text "Type the group name to confirm: _" 15
like "the preview shows the offset that goes" "$(tui_screen)" "orders +1 +1000"
like "the preview says where the backup goes" "$(tui_screen)" "Backup first, to $STATE/lagtop/backups/"
like "the confirm button starts on No" "$(tui_screen)" ">\[ No \]<"
tui_keys Right Enter
ok "Yes without the name is refused" tui_wait_text "type the group name exactly to confirm"
is "nothing deleted yet" "$(tui_committed analytics)" "1000 1000 1000 1000"
tui_keys -l "analytics"
tui_keys Enter
ok "the exact name deletes" tui_wait_text "Result: DELETED" 15
like "the result names the backup" "$(tui_screen)" "Backup of the deleted offsets: .*/lagtop/backups/analytics\."
ok "partition 1 lost its commit" wait_for 10 tui_committed_is analytics "1000 1000 1000"
tui_keys Escape
tui_wait_gone "Result: DELETED" >/dev/null

# --- U restores it ---
tui_undo
ok "U brings the deleted offset back" wait_for 10 tui_committed_is analytics "1000 1000 1000 1000"
tui_keys Escape
tui_wait_gone "EXECUTED" >/dev/null

# --- D on the group: the whole group ---
tui_keys Escape Home D
ok "D on an Empty group: preview" tui_wait_text "Delete group analytics and its 4 committed offsets." 15
tui_keys Escape
ok "Esc cancels" tui_wait_gone "Delete group analytics"
tui_keys D
tui_wait_text "Type the group name to confirm" 15 >/dev/null
tui_keys -l "analytics"
tui_keys Right Enter
ok "the group is deleted" tui_wait_text "Result: DELETED" 15
is "it is gone from the cluster" "$(tui_committed analytics)" ""
n=$(grep -c 'group=analytics target=delete-group partitions=4 result=executed' "$STATE/lagtop/audit.log")
is "the delete is in the audit log" "$n" "1"
tui_keys Escape q
ok "quits with status 0 after the deletes (ASan: no leak)" tui_wait_text "EXITED=0"

# --- read-only: no D ---
tui_start 120 30 XDG_STATE_HOME="$STATE" -- --read-only -b "$BOOTSTRAP" -i 1
tui_wait_text "shipping" 15 >/dev/null
tui_keys '?'
tui_wait_text "lagtop help" >/dev/null
unlike "--read-only: no delete in the help" "$(tui_screen)" "delete the group"
tui_keys Escape Home D
sleep 1
unlike "--read-only: D opens nothing" "$(tui_screen)" "Delete group|Delete the offset"
tui_keys q
tui_wait_text "EXITED=0" >/dev/null
