#!/bin/sh
# test_terminal.sh — sizes, terminals and untrusted names: 80x24 reflow, "too small" at 40x10 and
# back, TERM=vt100 + LANG=C without colours or UTF-8, a group id with an escape sequence shown escaped.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 19

tui_start_fixture || exit 1
tui_start 132 40 -- -b "$BOOTSTRAP" -i 1
ok "dashboard up at 132x40" tui_wait_text "shipping" 15
ok "TERM=screen: colours are used" tui_has_colour
like "wide: every groups column" "$(tui_line GROUP)" "GROUP.* STATE .*MEMBERS .*TOPICS .*PARTITIONS .*LAG .*TREND .*STATUS"
like "the escape sequence in a group id is shown escaped" "$(tui_screen)" 'evil\\x1b\[31mred'

tui_resize 80 24
# tmux cuts the old lines at 80 columns; only a redraw for 80 columns ends the header with STATUS
header_fits() { tui_line GROUP | grep -qE 'GROUP.* LAG.* STATUS *$'; }
ok "reflows to 80x24: columns dropped, not cut" wait_for 5 header_fits
tui_resize 40 10
ok "40x10: terminal too small" tui_wait_text "terminal too small"
tui_resize 100 30
ok "back to 100x30: the groups again" tui_wait_text "shipping"
tui_keys q
tui_wait_text "EXITED=0" >/dev/null

# vt100 has no colours; LANG=C is not UTF-8: only ASCII, no SGR colour codes
tui_start 100 30 TERM=vt100 LANG=C LC_ALL=C -- -b "$BOOTSTRAP" -i 1
ok "vt100 + LANG=C: dashboard up" tui_wait_text "shipping" 15
ok "ASCII only (no UTF-8 bytes)" sh -c "! '$TMUX_BIN' -S '$TUI_SOCK' capture-pane -p -t t | LC_ALL=C grep -q '[^ -~]'"
ok "no colours (no colour SGR codes reach the terminal)" tui_has_no_colour
like "ASCII sort marker and separators" "$(tui_screen)" 'GROUP\^.*|^ .* \| brokers 1/1'

# vt100 sends no Home, End, PgUp or PgDn: G and ^E go to the last row, ^A to the first, f and ^F a page down,
# b and ^B a page up (the list fits the pane, so a page is the whole list). Enter shows where the cursor is:
# the rows are sorted by name, analytics first and shipping last.
opens() { # KEY GROUP: KEY, then Enter opens GROUP's partitions; Esc closes them again (also after a failure)
	tui_keys "$1" && tui_keys Enter
	tui_wait_text "Partitions of $2" 5
	set -- $?
	tui_keys Escape && tui_wait_gone "Partitions of" 5 && return "$1"
}
ok "vt100: G goes to the last row" opens G shipping
ok "vt100: ^A goes to the first row" opens C-a analytics
ok "vt100: f moves a page down" opens f shipping
ok "vt100: b moves a page up" opens b analytics
ok "vt100: ^E goes to the last row" opens C-e shipping
ok "vt100: ^B moves a page up" opens C-b analytics
ok "vt100: ^F moves a page down" opens C-f shipping
tui_keys '?'
ok "the help names the alternate keys" tui_wait_text "PgUp, b, ^B" 5
tui_keys Escape
