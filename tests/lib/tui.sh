# tests/lib/tui.sh — drive the real lagtop inside a private tmux server (sourced after tap.sh).
#   tui_start_fixture            the fixed test cluster (tui_fixture); sets FIXTURE_PID, BOOTSTRAP
#   tui_start COLS LINES CMD...  lagtop in a detached tmux session "t" of that size
#   tui_screen                   the pane's text;  tui_wait_text TEXT / tui_wait_gone TEXT (bounded)
#   tui_keys KEYS...             tmux send-keys
#   tui_committed GROUP          its committed offsets, read by a separate lagtop --once
#   tui_has_colour               the pane shows a colour (tui_has_no_colour: none)
# The tmux server has its own socket in the test's temp dir; it and the fixture are killed on exit.

[ -n "$TMUX_BIN" ] && [ -x "$TMUX_BIN" ] || missing_prereq "tmux not found (Debian package tmux)"
lt_tmpdir
TUI_SOCK="$LT_TMP/tmux.sock"
TUI_FIXTURE="$LT_BUILDDIR/tests/tui/tui_fixture"

tm() { "$TMUX_BIN" -S "$TUI_SOCK" -f /dev/null "$@"; }
on_exit "tm kill-server >/dev/null 2>&1"

tui_start_fixture() {
	"$TUI_FIXTURE" >"$LT_TMP/fixture.out" 2>"$LT_TMP/fixture.err" &
	FIXTURE_PID=$!
	on_exit "kill -CONT $FIXTURE_PID 2>/dev/null; kill $FIXTURE_PID 2>/dev/null; wait $FIXTURE_PID 2>/dev/null"
	if ! wait_for 10 grep -q '^ready bootstrap=' "$LT_TMP/fixture.out"; then
		diag "the fixture did not start: $(cat "$LT_TMP/fixture.err")"
		return 1
	fi
	BOOTSTRAP=$(sed -n 's/^ready bootstrap=//p' "$LT_TMP/fixture.out")
}

# tui_start COLS LINES [ENV=VALUE...] -- ARGS...: runs "$LAGTOP ARGS"; when it exits the pane shows
# "EXITED=<status>" and stays open, so the test can check what was left on the terminal.
tui_start() {
	local cols=$1 lines=$2; shift 2
	# a private HOME and XDG_CONFIG_HOME: the user's own config and themes stay out of the test
	mkdir -p "$LT_TMP/home" "$LT_TMP/xdg"
	local envs="-u LAGTOP_CONFIG -u NO_COLOR HOME=$LT_TMP/home XDG_CONFIG_HOME=$LT_TMP/xdg"
	envs="$envs TERM=screen LANG=C.UTF-8 LC_ALL=C.UTF-8"
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs="$envs $1"; shift; done
	[ "$1" = "--" ] && shift
	local args=""
	for a in "$@"; do args="$args '$a'"; done
	printf '#!/bin/sh\nenv %s LAGTOP_THEMES_DIR=%s %s %s 2>%s\necho "EXITED=$?"\nexec sleep 60\n' \
		"$envs" "$LT_SRCDIR/themes" "$LAGTOP" "$args" "$LT_TMP/lagtop.err" >"$LT_TMP/run.sh"
	chmod +x "$LT_TMP/run.sh"
	# a second start replaces the first session (renamed first, so the server never runs empty)
	tm rename-session -t t old >/dev/null 2>&1
	tm new-session -d -s t -x "$cols" -y "$lines" "$LT_TMP/run.sh"
	tm kill-session -t old >/dev/null 2>&1
}

tui_screen() { tm capture-pane -p -t t; }
tui_screen_esc() { tm capture-pane -p -e -t t; }
tui_keys() { tm send-keys -t t "$@"; }
tui_resize() { tm resize-window -t t -x "$1" -y "$2"; }

_tui_has() { tui_screen | grep -qF -- "$1"; }
_tui_hasnt() { ! tui_screen | grep -qF -- "$1"; }
# tui_wait_text TEXT [SECONDS]: waits until TEXT is on the screen; on timeout prints the screen.
tui_wait_text() {
	if wait_for "${2:-10}" _tui_has "$1"; then return 0; fi
	diag "screen without '$1':"; diag "$(tui_screen)"; return 1
}
tui_wait_gone() {
	if wait_for "${2:-10}" _tui_hasnt "$1"; then return 0; fi
	diag "screen still has '$1':"; diag "$(tui_screen)"; return 1
}
# The screen line holding TEXT (first match), squeezed of repeated blanks.
# U on the selected group, confirmed: its preview, Yes, then waits for the result (fails without EXECUTED)
tui_undo() {
	tui_keys U
	tui_wait_text "Commit these offsets?" 15 >/dev/null
	tui_keys Right Enter
	tui_wait_text "EXECUTED" 15 >/dev/null
}
tui_line() { tui_screen | grep -F -- "$1" | head -n 1 | tr -s ' '; }
# The data rows of the groups pane: lines between the header (GROUP) and the next blank/pane line.
tui_group_rows() { tui_screen | awk '/GROUP/ {on=1; next} on && /^ *$/ {exit} on && /Partitions of|Members of/ {exit} on {print}'; }

# The pane shows a colour somewhere: an SGR foreground or background code (30-37, 40-47, 38, 48).
tui_has_colour() { tm capture-pane -p -e -t t | grep -qE "$(printf '\033')\\[([0-9]*;)*(3[0-7]|4[0-7]|38|48)[;m]"; }
tui_has_no_colour() { ! tui_has_colour; }

# tui_committed GROUP: the group's committed offsets, space-separated ("" when it has none or is gone), read
# by a lagtop --once of its own, so a test sees what the cluster holds, not what the dashboard shows
tui_committed() {
	"$LAGTOP" --once --format json -b "$BOOTSTRAP" -G "^$1\$" 2>/dev/null |
		grep -o '"committed":[0-9-]*' | sed 's/.*://' | tr '\n' ' ' | sed 's/ $//'
}
tui_committed_is() { [ "$(tui_committed "$1")" = "$2" ]; }
