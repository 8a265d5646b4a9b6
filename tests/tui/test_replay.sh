#!/bin/sh
# test_replay.sh — the dashboard on a recording at 80x24: REPLAY and the recorded time in the top bar,
# the replay keys (step back and forth, jump a minute, go to a typed time, play), R refused, the help
# lists the replay keys; a recording made by the dashboard itself (--record) replays; a file cut short
# replays up to its last record. The recording is of lagtop-sim's demo scenario, whose numbers move.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
. "$LT_SRCDIR/tests/lib/sim.sh"
plan 24

sim_start --port 0 --scenario demo || exit 1
export HOME="$LT_TMP/home" XDG_CONFIG_HOME="$LT_TMP/xdg"
mkdir -p "$HOME" "$XDG_CONFIG_HOME"

# five refreshes, a second apart, recorded headless; the JSON lines give their times
REC="$LT_TMP/night.lrec"
"$LAGTOP" -b "$BOOTSTRAP" --record "$REC" --headless -i 1 --format json >"$LT_TMP/rec.json" 2>"$LT_TMP/rec.err" &
REC_PID=$!
on_exit "kill $REC_PID 2>/dev/null"
five() { [ "$(wc -l <"$LT_TMP/rec.json")" -ge 5 ]; }
wait_for 30 five || diag "fewer than 5 refreshes recorded: $(cat "$LT_TMP/rec.err")"
kill -TERM $REC_PID
wait $REC_PID
ok "headless recording ends with exit 0 on SIGTERM" test $? -eq 0
N=$(wc -l <"$LT_TMP/rec.json")
# record k's time as HH:MM:SS, rounded up to the second (the record at or before it is record k)
hms() { sed -n "${1}p" "$LT_TMP/rec.json" | python3 -c 'import json,sys,time; t=json.load(sys.stdin)["taken_at_ms"]; print(time.strftime("%H:%M:%S", time.gmtime((t + 999) // 1000)))'; }
# record k's time as the top bar shows it (the second it falls in: rounded down)
shown() { sed -n "${1}p" "$LT_TMP/rec.json" | python3 -c 'import json,sys,time; t=json.load(sys.stdin)["taken_at_ms"]; print(time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(t // 1000)))'; }

top() { tui_screen | head -n 1; }
rows() { tui_group_rows; }
tui_start 80 24 -- --replay "$REC"
ok "REPLAY, the first record's time and 1/$N in the top bar" tui_wait_text "1/$N " 10
like "the top bar names the recorded time at 80 columns" "$(top)" "REPLAY $(shown 1) 1/$N"
# the key bar (the last line) shows the replay's keys first, then the live keys that still fit 80 columns
bar() { tui_screen | tail -n 1; }
replay_bar() { bar | grep -q '^\[Prev \]Next {-1m }+1m gGoTo PPlay xSpeed qQuit ?Help'; }
ok "the key bar shows the replay keys at 80 columns" wait_for 5 replay_bar
first_rows=$(rows)
tui_keys ']'
ok "] steps one refresh forward" tui_wait_text "2/$N " 5
tui_keys ']'
tui_wait_text "3/$N " 5 >/dev/null
third_rows=$(rows)
ok "the numbers changed with the time" test "$first_rows" != "$third_rows"
tui_keys '[' '['
ok "[ [ steps back to the first" tui_wait_text "1/$N " 5
is "the first record's numbers again" "$(rows)" "$first_rows"
tui_keys '}'
ok "} jumps a minute forward: the recording's last record" tui_wait_text "$N/$N " 5
tui_keys '{'
ok "{ jumps a minute back: the first" tui_wait_text "1/$N " 5
tui_keys g
ok "g asks for a time" tui_wait_text "Go to" 5
# the recording's span, its last time without the date when both are on one day (cut -f2: HH:MM:SSZ)
span="$(shown 1) to $(if [ "$(shown 1 | cut -d' ' -f1)" = "$(shown $N | cut -d' ' -f1)" ]; then shown $N | cut -d' ' -f2; else shown $N; fi)"
like "g's prompt names the recording's first and last time" "$(bar)" "^Go to \($span\):"
tui_keys "$(hms 3)" Enter
ok "a typed HH:MM:SS goes to that record" tui_wait_text "3/$N " 5
tui_keys g '1999-01-01T00:00:00Z' Enter
ok "a time outside the recording: one line naming its span" tui_wait_text "outside the recording" 5
tui_keys '[' '[' x x x P
ok "P plays (at 10x after x x x) to the end" tui_wait_text "$N/$N " 10
tui_keys R
ok "R is refused in a replay" tui_wait_text "replay: R is off" 5
tui_keys / audit Enter
ok "the filter works on a recording" tui_wait_text "1 of " 5
is "only the filtered group is shown" "$(rows | awk '{print $1}')" "audit-archiver"
tui_keys Escape T
ok "the topic view works on a recording (which topic a group fell behind on)" tui_wait_text "Topics " 5
tui_keys T
tui_keys '?'
ok "the help lists the replay keys" tui_wait_text "replay: one refresh back" 5
tui_keys Escape q
tui_wait_text "EXITED=0" 5 >/dev/null

# the dashboard records what it shows
DREC="$LT_TMP/dash.lrec"
tui_start 80 24 -- -b "$BOOTSTRAP" -i 1 --record "$DREC"
ok "the dashboard says REC while it records" tui_wait_text "REC" 15
sleep 2.5
tui_keys q
tui_wait_text "EXITED=0" 10 >/dev/null
n=$("$LAGTOP" --replay "$DREC" --once --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["groups"]))')
ok "--record with the dashboard: the file replays, with the groups shown" test "${n:-0}" -gt 0

# cut short in the middle of its last record: replays up to the one before
CUT="$LT_TMP/cut.lrec"
python3 - "$REC" "$CUT" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
off, last = 32, None
while off + 24 <= len(data) and chr(data[off]) in "KD":
    last = off
    off += 24 + struct.unpack_from("<I", data, off + 4)[0]
open(sys.argv[2], "wb").write(data[:last + 30])
PY
tui_start 80 24 -- --replay "$CUT"
tui_wait_text "1/$((N - 1)) " 10 >/dev/null
like "the key bar says at once that the file is cut short" "$(tui_screen | tail -n 1)" "^ *note: .*cut\.lrec is cut short"
tui_keys '}'
ok "a file cut short replays up to its last complete record" tui_wait_text "$((N - 1))/$((N - 1)) " 10
