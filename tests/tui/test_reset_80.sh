#!/bin/sh
# test_reset_80.sh — the reset preview at 80x24 cuts nothing an operator decides on: every partition's
# old -> new and its replay/skip count, the absolute time a relative `to-datetime -10m` resolved to, where
# the backup and the audit log go, and the scope in the title; the audit line keeps the operator's spelling
# and the resolved time; on xterm and on vt100 with LANG=C.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 20

tui_start_fixture || exit 1
STATE="$LT_TMP/state"
mkdir -p "$STATE"

# the text inside the dialog's box, one line each
box_lines() { tui_screen | sed -n -e 's/^[^│]*│ \(.*\) │ *$/\1/p' -e 's/^[^|]*| \(.*\) | *$/\1/p'; }

# one pass on a terminal: T names it, the arguments are tui_start's environment (the second pass finds
# analytics already moved: its rows say so just as whole)
reset_pass() {
	T=$1
	shift
	tui_start 80 24 XDG_STATE_HOME="$STATE" "$@" -- -b "$BOOTSTRAP" -i 1
	ok "$T: groups appear" tui_wait_text "analytics" 15
	tui_keys Home R
	ok "$T: the title names the scope" tui_wait_text "Reset offsets of group analytics: all topics" 10
	for i in 1 2 3 4 5; do tui_keys Down; done
	tui_keys - 1 0 m Enter
	ok "$T: the preview" tui_wait_text "Commit these offsets?" 15
	box=$(box_lines)
	printf '%s\n' "$box" | sed 's/^/# /'
	is "$T: every partition's old -> new and its count, whole" \
		"$(printf '%s\n' "$box" | grep -cE '^orders:[0-3] +[0-9]+ -> [0-9]+ +(skip [0-9]+|replay [0-9]+|unchanged)')" "4"
	like "$T: the target as typed and the time it resolved to" "$box" "to-datetime -10m = 20[0-9-]+T[0-9:.]+Z"
	like "$T: where the backup goes" "$box" "Backup to $STATE/lagtop/backups/"
	like "$T: ... and the audit log" "$box" "Audit log $STATE/lagtop/audit.log"
	tui_keys Right Enter
	tui_wait_text "Result:" 15 >/dev/null
	like "$T: the result names the audit log beside the backup" "$(box_lines | tr -d '\n')" "Backup of the previous offsets: .*Audit log: $STATE/lagtop/audit.log"
	tui_keys Escape
	like "$T: the audit line keeps -10m and adds the resolved time" "$(cat "$STATE/lagtop/audit.log" 2>/dev/null)" \
		'target=to-datetime%20-10m resolved=20[0-9-]+T[0-9:.]+Z'
	tui_keys q
	ok "$T: quits cleanly" tui_wait_text "EXITED=0" 10
}

reset_pass xterm
reset_pass vt100 TERM=vt100 LANG=C LC_ALL=C
