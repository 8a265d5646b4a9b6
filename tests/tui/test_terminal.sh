#!/bin/sh
# test_terminal.sh — sizes, terminals and untrusted names: 80x24 reflow, "too small" at 40x10 and
# back, TERM=vt100 + LANG=C without colours or UTF-8, a group id with an escape sequence shown escaped.
. "$LT_SRCDIR/tests/tap.sh"
. "$LT_SRCDIR/tests/tui/lib.sh"
plan 11

tui_start_fixture || exit 1
tui_start 132 40 -- -b "$BOOTSTRAP" -i 1
ok "dashboard up at 132x40" tui_wait_text "shipping" 15
like "wide: every groups column" "$(tui_line GROUP)" "GROUP.* STATE .*MEMBERS .*TOPICS .*PARTITIONS .*LAG .*TREND .*STATUS"
like "the escape sequence in a group id is shown escaped" "$(tui_screen)" 'evil\\x1b\[31mred'

tui_resize 80 24
ok "reflows to 80x24" wait_for 5 sh -c "[ \"\$('$TMUX_BIN' -S '$TUI_SOCK' capture-pane -p -t t | head -n 1 | wc -L)\" -le 80 ]"
like "80x24 keeps the essential columns" "$(tui_line GROUP)" "GROUP.* LAG .*STATUS"
tui_resize 40 10
ok "40x10: terminal too small" tui_wait_text "terminal too small"
tui_resize 100 30
ok "back to 100x30: the groups again" tui_wait_text "shipping"
tui_keys q
tui_wait_text "EXITED=0" >/dev/null
tm kill-session -t t

# vt100 has no colours; LANG=C is not UTF-8: only ASCII, no SGR colour codes
tui_start 100 30 TERM=vt100 LANG=C LC_ALL=C -- -b "$BOOTSTRAP" -i 1
ok "vt100 + LANG=C: dashboard up" tui_wait_text "shipping" 15
ok "ASCII only (no UTF-8 bytes)" sh -c "! '$TMUX_BIN' -S '$TUI_SOCK' capture-pane -p -t t | LC_ALL=C grep -q '[^ -~]'"
ok "no colours" sh -c "! '$TMUX_BIN' -S '$TUI_SOCK' capture-pane -p -e -t t | grep -qE '\[([0-9;]*;)?(3[0-7]|4[0-7]|38;|48;)'"
like "ASCII sort marker and separators" "$(tui_screen)" 'GROUP\^.*|^ .* \| brokers 1/1'
