#!/bin/sh
# test_reset_wrap.sh — the reset dialog's refusal at 100x30 and 80x24: the guard's sentence is
# wrapped inside the box, never cut at its edge ("...but the current stat..."), and every member of a
# group with more members than the box holds can be read by scrolling.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 12

TUI_FIXTURE_CROWD=1
export TUI_FIXTURE_CROWD
tui_start_fixture || exit 1

# the text inside the dialog's box, its lines joined with single spaces
box_text() { tui_screen | sed -n 's/^ *│ \(.*\) │ *$/\1/p' | tr '\n' ' ' | tr -s ' '; }
# the client ids of the crowd's members on the screen now, one per line
members_shown() { tui_screen | grep -o 'crowd-consumer-[0-9][0-9]' | sort -u; }

# refusal_of GROUP COLS LINES: starts lagtop at that size, opens R on GROUP, previews (refused)
refusal_of() {
	tui_start "$2" "$3" -- -b "$BOOTSTRAP" -i 1
	tui_wait_text "$1" 15 >/dev/null
	tui_keys / && for c in $(printf '%s' "$1" | sed 's/./& /g'); do tui_keys "$c"; done
	tui_wait_text "Filter: $1" >/dev/null
	tui_keys Enter R
	tui_wait_text "Reset offsets of group $1" >/dev/null
	tui_keys Enter
	tui_wait_text "REFUSED: nothing was changed" 15
}

for size in "100 30" "80 24"; do
	set -- $size
	ok "${1}x$2: shipping is refused" refusal_of shipping "$1" "$2"
	# the sentence, whole: its end is on the screen and nothing in the box is cut with an ellipsis
	like "${1}x$2: the box holds the whole sentence" "$(box_text)" \
		"Assignments can only be reset if the group 'shipping' is inactive, but the current state is Stable\. Active"
	unlike "${1}x$2: no line of the refusal is cut" "$(tui_screen | grep -E 'inactive|state is|client-id')" "…"
	tui_keys Escape
	tui_wait_gone "REFUSED" >/dev/null

	ok "${1}x$2: crowd (20 members) is refused" refusal_of crowd "$1" "$2"
	# more lines than the box: the rule shows the range; Down scrolls until the last member is shown
	seen=$(members_shown)
	for i in $(seq 1 40); do
		tui_keys Down
		sleep 0.1
		seen=$(printf '%s\n%s\n' "$seen" "$(members_shown)" | sort -u)
	done
	is "${1}x$2: scrolling shows every one of the 20 members" "$(printf '%s\n' "$seen" | grep -c crowd-consumer)" 20
	unlike "${1}x$2: no member line is cut" "$(tui_screen | grep -E 'client-id|member')" "…"
	tui_keys q
	tui_wait_gone "REFUSED" >/dev/null
	tui_keys q
	tui_wait_text "EXITED=0" >/dev/null
done
