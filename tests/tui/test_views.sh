#!/bin/sh
# test_views.sh — the topic view, marks in the partitions pane, the mouse and htop's function keys, on the
# fixed test cluster, at 80x24 and wider, with and without colour and UTF-8:
#   T lists the topics (sorted by a key and by a click on a header), Enter a topic's groups, Enter a group's
#   partitions, Esc back step by step; Space marks two of analytics' four partitions, R's preview lists only
#   those, Yes moves only those (read back with --once JSON), D's preview names them and deletes only theirs; the mouse as raw
#   X10 (TERM=screen) and SGR (TERM=xterm) sequences written into the pane: a click selects, a header click
#   sorts, M and --no-mouse turn it off; F1, F3, F6, F10 and the key bar at 80 and 120 columns, a click on a key in the bar.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 59

tui_start_fixture || exit 1
STATE="$LT_TMP/state"
mkdir -p "$STATE"

# the first data row under the header line holding $1 (squeezed)
row_after() { tui_screen | awk -v h="$1" 'found {print; exit} index($0, h) {found=1}' | tr -s ' '; }
# X10 mouse report (TERM=screen's kmous): button code, 0-based column and line
x10() { tui_keys -H 1b 5b 4d "$(printf %x $((32 + $1)))" "$(printf %x $((33 + $2)))" "$(printf %x $((33 + $3)))"; }
x10_click() { x10 0 "$1" "$2"; x10 3 "$1" "$2"; }
# SGR mouse report (TERM=xterm's kmous \E[<): 1-based in the sequence
sgr_click() { tui_keys -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $(($1 + 1)) $(($2 + 1)) $(($1 + 1)) $(($2 + 1)))"; }
# the screen column where TEXT starts on the line holding it (0-based)
col_of() { tui_screen | grep -F -- "$1" | head -n 1 | awk -v t="$1" '{print index($0, t) - 1}'; }
line_of() { tui_screen | grep -nF -- "$1" | head -n 1 | cut -d: -f1 | awk '{print $1 - 1}'; }
cursor_on() { tm capture-pane -p -e -t t | grep -F -- "$1" | head -n 1 | grep -q "$(printf '\033')\[[0-9;]*4[0-9]m"; }
first_row_is() { row_after GROUP | grep -q "^$1 "; }

# --- the topic view at 80x24, colour, UTF-8 ---
tui_start 80 24 XDG_STATE_HOME="$STATE" -- -b "$BOOTSTRAP" -i 1
ok "groups appear" tui_wait_text "shipping" 15
tui_keys T
ok "T: the topics pane" tui_wait_text "Topics  3"
like "topics pane header" "$(tui_line TOPIC)" "TOPIC.* GROUPS .*LAG .*MAX-LAG .*STATUS"
like "audit: 2 groups, total lag 51, max 50" "$(tui_line 'audit ')" "^audit (-|[0-9.]+/s) 2 51 50 "
like "payments: 1 group, lag 800" "$(tui_line payments)" "^payments (-|[0-9.]+/s) 1 800 800 "
tui_keys '>' '>' '>'
ok "> three times (the columns on screen): sorted by LAG, descending" tui_wait_text "sorted by LAG, descending"
like "the most lagging topic first" "$(row_after 'TOPIC')" "^payments "
tui_keys Home Down Enter
ok "Enter: the groups reading orders" tui_wait_text "Groups reading orders  2"
like "billing's lag on orders" "$(tui_line 'billing ')" "^billing Stable 400 "
like "analytics' lag on orders" "$(tui_line 'analytics ')" "^analytics Empty 0 "
tui_keys Enter
ok "Enter on a group: its partitions" tui_wait_text "Partitions of analytics"
like "its four partitions" "$(tui_screen | grep -cE '^ *orders +[0-3] ')" "^4$"
tui_keys Escape
ok "Esc: back to the topic's groups" tui_wait_text "Groups reading orders"
tui_keys Escape
ok "Esc: the topic closes" tui_wait_gone "Groups reading orders"
like "still the topics" "$(tui_screen)" "Topics  3"
tui_keys '/'
tui_keys -l 'shipping'
tui_keys Enter
ok "the topics filter matches a group reading the topic" tui_wait_text "Topics  1 of 3"
tui_keys Escape T
ok "T again: the groups" tui_wait_text "Groups  5"
tui_keys '/'
tui_keys -l 'orders'
tui_keys Enter
ok "the groups filter still takes a topic (groups reading orders)" tui_wait_text "Groups  2 of 5"
tui_keys Escape

# --- marks: two of analytics' four partitions; R and D act on them only ---
tui_keys Home Enter
tui_wait_text "Partitions of analytics" >/dev/null
tui_keys Down Space Down Space
ok "Space marks: the title counts them" tui_wait_text "Partitions of analytics (2 marked)"
is "the marked rows start with *" "$(tui_screen | grep -cE '^\* orders +[13] ')" "2"
is "the others do not" "$(tui_screen | grep -cE '^  orders +[02] ')" "2"
tui_keys R
ok "R: the scope is the marks" tui_wait_text "Scope: 2 marked partitions (orders:1,3)"
tui_keys Enter
ok "preview" tui_wait_text "Commit these offsets?" 15
is "the preview lists only the marked partitions" "$(tui_screen | grep -cE 'orders:[0-9] +1000 -> 0 ')" "2"
like "partitions 1 and 3" "$(tui_screen | grep -oE 'orders:[0-9] +1000 -> 0 ' | cut -d' ' -f1 | tr '\n' ' ')" "^orders:1 orders:3 $"
like "totals: 2 partitions" "$(tui_screen)" "2 partitions: 2000 messages replayed"
tui_keys Right Enter
ok "Yes: executed" tui_wait_text "EXECUTED: every partition reads back as planned" 15
ok "only partitions 1 and 3 moved (--once JSON)" wait_for 10 tui_committed_is analytics "1000 0 1000 0"
tui_keys Escape
tui_wait_gone "EXECUTED" >/dev/null
like "the marks survive the refresh" "$(tui_screen)" "Partitions of analytics \(2 marked\)"
tui_keys D
ok "D: the marked partitions" tui_wait_text "Delete the offsets of 2 marked partitions in group analytics" 15
tui_wait_text "Type the group name to confirm" 15 >/dev/null
is "D's preview lists only the marked partitions" "$(tui_screen | grep -oE '│ orders +[0-9]+ +[0-9]+ ' | awk '{print $3}' | tr '\n' ' ')" "1 3 "
tui_keys -l "analytics"
tui_keys Right Enter
ok "D: deleted" tui_wait_text "Result: DELETED" 15
ok "only partitions 1 and 3 lost their commits (--once JSON)" wait_for 10 tui_committed_is analytics "1000 1000"
tui_keys Escape
tui_wait_gone "Result: DELETED" >/dev/null
tui_undo
ok "U restores the two deleted offsets" wait_for 10 tui_committed_is analytics "1000 0 1000 0"
tui_keys Escape
tui_wait_gone "EXECUTED" >/dev/null
tui_keys u
ok "u clears the marks" tui_wait_gone "(2 marked)"
tui_keys Escape q
ok "quits with status 0 (ASan: no leak)" tui_wait_text "EXITED=0"

# --- the mouse: X10 reports (TERM=screen). Lags now: analytics 2000 (the reset above), shipping 800,
# billing 400, evil 50, audit-log 1 ---
tui_start 80 24 -- -b "$BOOTSTRAP" -i 1
tui_wait_text "shipping" 15 >/dev/null
y=$(line_of "billing ")
x10_click 3 "$y"
ok "X10 click selects billing" wait_for 5 cursor_on "billing "
hx=$(col_of "LAG")
hy=$(line_of "GROUP")
x10_click "$hx" "$hy"
ok "a click on LAG's header sorts by it" tui_wait_text "sorted by LAG, descending"
like "the most lagging group first" "$(row_after GROUP)" "^analytics "
x10_click "$hx" "$hy"
ok "a second click: the other direction" wait_for 5 first_row_is audit-log
x10 64 3 5
ok "the wheel moves the cursor (billing, 3 rows up: audit-log)" wait_for 5 cursor_on "audit-log "
tui_keys M
ok "M: mouse off" tui_wait_text "mouse off"
y=$(line_of "billing ")
x10_click 3 "$y"
sleep 0.5
ok "mouse off: a click selects nothing" cursor_on "audit-log "
tui_keys '?' PgDn PgDn
ok "the help says the mouse is off" tui_wait_text "Mouse: off"
tui_keys Escape q
tui_wait_text "EXITED=0" >/dev/null

# --- SGR reports (TERM=xterm, 8 colours), F-keys at 80 columns; --no-mouse ---
tui_start 80 24 TERM=xterm -- -b "$BOOTSTRAP" -i 1
tui_wait_text "shipping" 15 >/dev/null
like "80 columns: today's key bar (letters)" "$(tui_screen | tail -n 1)" "^qQuit \?Help TabPane"
y=$(line_of "audit-log ")
sgr_click 3 "$y"
ok "SGR click selects audit-log" wait_for 5 cursor_on "audit-log "
tui_keys F6
ok "F6 opens the sort chooser" tui_wait_text "sort groups by"
tui_keys Down Enter
ok "Enter in it sorts by the column picked" tui_wait_text "sorted by STATE"
tui_keys F3
ok "F3 opens the filter" tui_wait_text "Filter: "
tui_keys Escape F1
ok "F1 opens the help" tui_wait_text "lagtop help"
like "the help joins F1 with ?" "$(tui_screen)" "\?, F1 +this help"
tui_keys Escape F10
ok "F10 quits" tui_wait_text "EXITED=0"

tui_start 80 24 TERM=xterm -- -b "$BOOTSTRAP" -i 1 --no-mouse
tui_wait_text "shipping" 15 >/dev/null
y=$(line_of "billing ")
sgr_click 3 "$y"
sleep 0.5
ok "--no-mouse: a click selects nothing" cursor_on "analytics "
tui_keys q

# --- 120 columns, xterm-256color, LANG=C (ASCII): the function-key bar; marks without UTF-8 ---
tui_start 120 30 TERM=xterm-256color LANG=C LC_ALL=C -- -b "$BOOTSTRAP" -i 1
tui_wait_text "shipping" 15 >/dev/null
like "120 columns: htop's function keys in the bar" "$(tui_screen | tail -n 1)" "^F10Quit F1Help TabPane .* F3Filter F6Sort "
tui_keys Home Enter
tui_wait_text "Partitions of analytics" >/dev/null
tui_keys Space
ok "LANG=C: the mark is an ASCII *" tui_wait_text "* orders"
ok "ASCII only (no UTF-8 bytes)" sh -c "! '$TMUX_BIN' -S '$TUI_SOCK' capture-pane -p -t t | LC_ALL=C grep -q '[^ -~]'"
# a click on a key in the key bar is that key (once the mark's message has left the bar)
bar_shows_keys() { tui_screen | tail -n 1 | grep -q '^F10Quit F1Help'; }
ok "the key bar shows its keys again" wait_for 5 bar_shows_keys
sgr_click 9 29
ok "a click on F1Help in the key bar opens the help" tui_wait_text "lagtop help"
tui_keys Escape
tui_keys F10
ok "F10 quits (120 columns)" tui_wait_text "EXITED=0"
