#!/bin/sh
# test_faults_badinput.sh — bad local input: corrupt, mistyped and absurd configuration files,
# absurd numbers on the command line, malformed --from-file CSV plans. Each must give exit status 2 and
# exactly one line on stderr, prefixed "lagtop: ", naming the problem, terminal-safe (no raw control
# byte), with nothing on stdout — never a crash, never a hang (every run bounded: run_lagtop).
# Plus: no shell is ever invoked (the sources call no system/popen/exec*).
. "$LT_SRCDIR/tests/lib/tap.sh"
plan 113
lt_tmpdir
export HOME="$LT_TMP" XDG_CONFIG_HOME="$LT_TMP"
unset LAGTOP_CONFIG
closed_port=$("$DEBIAN_PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
B="127.0.0.1:$closed_port"
esc=$(printf '\033')
# 4 KB of every byte but NUL and '@' (fixed, so a failure reproduces)
garbage() { LC_ALL=C awk 'BEGIN { for (i = 0; i < 17; i++) for (c = 255; c >= 1; c--) if (c != 64) printf "%c", c }'; }

# bad NAME REGEX ARGS... — lagtop ARGS exits 2 with one safe line matching REGEX (2 TAP tests)
bad() {
	local name=$1 re=$2; shift 2
	run_lagtop "$@"
	local lines; lines=$(wc -l <"$LT_TMP/err")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$LT_TMP/out" ] && ! LC_ALL=C grep -q '[[:cntrl:]]' "$LT_TMP/err" \
		&& head -c 8 "$LT_TMP/err" | grep -q '^lagtop: '; then
		_tap_result 0 "$name: exit 2, one safe line"
	else
		_tap_result 1 "$name: exit 2, one safe line"
		diag "rc $rc, $lines line(s), stdout $(wc -c <"$LT_TMP/out") bytes: $(head -c 600 "$LT_TMP/err" | od -c | head -8)"
	fi
	like "$name: names the problem" "$(cat "$LT_TMP/err")" "$re"
}

# ---- configuration files (read by --reset-offsets, the dashboard and -X dump)
RESET="--reset-offsets -g g --all-topics --to-earliest -b $B --timeout 2s"
conf() { printf '%s\n' "$1" >"$LT_TMP/c.conf"; chmod 600 "$LT_TMP/c.conf"; }
garbage >"$LT_TMP/c.conf"
bad "binary garbage config" "c.conf:[0-9]+: " --config "$LT_TMP/c.conf" $RESET
conf 'general = { refresh_interval = 2;'
bad "truncated config" "c.conf:[0-9]+: .*syntax error" --config "$LT_TMP/c.conf" $RESET
conf 'general = { refersh = 2; };'
bad "unknown key" "unknown setting 'refersh'" --config "$LT_TMP/c.conf" $RESET
conf 'colors = { a = 1; };'
bad "unknown group" "'colors'" --config "$LT_TMP/c.conf" $RESET
conf 'general = { refresh_interval = [ 1, 2 ]; };'
bad "wrong type: list for a duration" "refresh_interval" --config "$LT_TMP/c.conf" $RESET
conf 'general = { lag_threshold = "many"; };'
bad "wrong type: string for a count" "lag_threshold" --config "$LT_TMP/c.conf" $RESET
conf 'clusters = { a = { read_only = "yes"; }; };'
bad "wrong type: string for a boolean" "read_only" --config "$LT_TMP/c.conf" $RESET
conf 'clusters = { a = { properties = [ 1, 2 ]; }; };'
bad "wrong type: numbers for properties" "properties" --config "$LT_TMP/c.conf" $RESET
conf 'clusters = { a = { properties = [ "no-equals-sign" ]; }; };'
bad "property without =" "key=value" --config "$LT_TMP/c.conf" $RESET
conf 'general = { refresh_interval = 1e99; };'
bad "absurd duration 1e99" "refresh_interval.*between" --config "$LT_TMP/c.conf" $RESET
conf 'general = { refresh_interval = "99999999999999999999h"; };'
bad "absurd duration string" "refresh_interval" --config "$LT_TMP/c.conf" $RESET
conf 'general = { lag_threshold = -5; };'
bad "negative count" "lag_threshold.*at least 0" --config "$LT_TMP/c.conf" $RESET
conf 'general = { time_lag_threshold = "5 fortnights"; };'
bad "unknown unit" "time_lag_threshold" --config "$LT_TMP/c.conf" $RESET
conf "general = { theme = \"$(printf 'x\033[31m')\"; };"
bad "escape sequence in a value" "theme" --config "$LT_TMP/c.conf" $RESET
conf 'clusters = { a = { include_groups = [ "(oops" ]; }; };'
bad "bad regex" "\\(oops" --config "$LT_TMP/c.conf" $RESET
conf 'general = { default_cluster = "nope"; };'
bad "default cluster not defined" "nope" --config "$LT_TMP/c.conf" $RESET
bad "config is a directory" "not a regular file" --config "$LT_TMP" $RESET
bad "config is /dev/zero (no endless read)" "not a regular file" --config /dev/zero $RESET
bad "config does not exist" "no-such.conf" --config "$LT_TMP/no-such.conf" $RESET
awk 'BEGIN { printf "general = { default_cluster = \""; for (i = 0; i < 200000; i++) printf "x"; print "\"; };" }' >"$LT_TMP/c.conf"
bad "200 KB value" "default_cluster|xxxx|a string over 64 KiB" --config "$LT_TMP/c.conf" $RESET
conf 'general = { refresh_interval = 2; };'
chmod 000 "$LT_TMP/c.conf"
if [ "$(id -u)" -eq 0 ]; then
	_tap_result 0 "unreadable config: exit 2, one safe line # SKIP root reads everything"
	_tap_result 0 "unreadable config: names the problem # SKIP root reads everything"
else
	bad "unreadable config" "c.conf.*(ermission|cannot)" --config "$LT_TMP/c.conf" $RESET
fi
chmod 600 "$LT_TMP/c.conf"

# ---- absurd numbers on the command line
bad "--timeout 1e99" "--timeout" --once -b "$B" --timeout 1e99
bad "--timeout nan" "--timeout" --once -b "$B" --timeout nan
bad "--timeout -1" "--timeout" --once -b "$B" --timeout -1
bad "--samples -1" "--samples" --once -b "$B" --samples -1
bad "--samples 99999999999999999999" "--samples" --once -b "$B" --samples 99999999999999999999
bad "--interval 0" "--interval" --once -b "$B" -i 0
bad "--to-offset beyond INT64" "option to-offset" --reset-offsets -g g --all-topics -b "$B" --to-offset 9223372036854775808
bad "--shift-by beyond INT64" "option shift-by" --reset-offsets -g g --all-topics -b "$B" --shift-by -9223372036854775809
bad "--topic partition beyond INT32" "99999999999" --reset-offsets -g g --topic t:99999999999 -b "$B" --to-earliest
bad "--to-datetime in year 99999" "datetime" --reset-offsets -g g --all-topics -b "$B" --to-datetime 99999-01-01T00:00:00
bad "--by-duration of 10^14 days" "duration" --reset-offsets -g g --all-topics -b "$B" --by-duration P99999999999999D
bad "--to-datetime with an escape sequence" "datetime" --reset-offsets -g g --all-topics -b "$B" \
	--to-datetime "$(printf '2024\033[31m')"

# regexes whose compiled form would take gigabytes (glibc copies the tree per bounded repetition)
bad "-G with nested repetitions" "too complex" --once -b "$B" -G '(((a{200}){200}){200})'
bad "-G with quantifiers in a row (glibc: exponential time)" "too complex" --once -b "$B" -G 'b*++++++*+++++++'
conf 'clusters = { a = { bootstrap_servers = "127.0.0.1:9"; include_groups = [ "((x{100}){100}){100}" ]; }; };'
bad "config regex with nested repetitions" "c.conf:1: .*too complex" --config "$LT_TMP/c.conf" -c a --once

# ---- malformed CSV plans (--from-file)
plan_bad() { # NAME REGEX CONTENT(printf format)
	printf "$3" >"$LT_TMP/p.csv"
	bad "$1" "$2" --reset-offsets -g g --all-topics -b "$B" --from-file "$LT_TMP/p.csv"
}
plan_bad "empty plan" "p.csv" ''
plan_bad "plan: offset beyond INT64" "line 1" 't,0,9223372036854775808\n'
plan_bad "plan: negative partition" "line 2" 't,0,1\nt,-1,5\n'
plan_bad "plan: wrong field count" "line 1" 't,0\n'
plan_bad "plan: unterminated quote" "line 1" '"t,0,1\n'
plan_bad "plan: NUL byte" "p.csv" 't,0,1\0\n'
plan_bad "plan: escape sequence in a field" "line 1" 't,0,5\033[31m\n'
plan_bad "plan: same partition twice" "line 2" 't,0,1\nt,0,2\n'
plan_bad "plan: illegal topic name" "line 1" 'a b,0,1\n'
for i in $(seq 70); do garbage; done >"$LT_TMP/p.csv"
bad "plan: 300 KB of binary garbage" "p.csv" --reset-offsets -g g --all-topics -b "$B" --from-file "$LT_TMP/p.csv"
bad "plan: a directory" "p.csv|$LT_TMP" --reset-offsets -g g --all-topics -b "$B" --from-file "$LT_TMP"
bad "plan: does not exist" "nope.csv" --reset-offsets -g g --all-topics -b "$B" --from-file "$LT_TMP/nope.csv"

# ---- theme files (read before the dashboard opens the terminal: the error goes to stderr)
mkdir -p "$LT_TMP/lagtop/themes"
theme_bad() { # NAME REGEX CONTENT(printf format)
	printf "$3" >"$LT_TMP/lagtop/themes/t.conf"
	bad "$1" "$2" -b "$B" --theme t
}
theme_bad "theme: syntax error" "t.conf:[0-9]+" 'roles = { normal = { fg = "red" };\n'
theme_bad "theme: unknown colour" "t.conf.*bogus" 'roles = { normal = { fg = "bogus"; }; };\n'
theme_bad "theme: unknown role" "t.conf.*nope" 'roles = { nope = { fg = "red"; }; };\n'
theme_bad "theme: colour out of range" "t.conf" 'roles = { normal = { fg = 300; }; };\n'
theme_bad "theme: escape sequence and newline in a value" "t.conf" \
	'roles = { normal = { attrs = [ "\033[31mred\nline2" ]; }; };\n'
garbage >"$LT_TMP/lagtop/themes/t.conf"
bad "theme: binary garbage" "t.conf" -b "$B" --theme t
rm -f "$LT_TMP/lagtop/themes/t.conf"
mkdir "$LT_TMP/lagtop/themes/t.conf"
bad "theme: a directory named like a theme" "theme" -b "$B" --theme t
rmdir "$LT_TMP/lagtop/themes/t.conf"
bad "theme: unknown name with an escape sequence" "unknown theme" -b "$B" --theme "$(printf 'x\033[2J')"

# ---- no shell, ever: the program never runs another program
shells=$(grep -rnE '\b(system|popen|execl|execlp|execle|execv|execvp|execvpe|posix_spawnp?|wordexp)[[:space:]]*\(|/bin/sh' \
	"$LT_SRCDIR/src" --include='*.c' --include='*.h' || true)
is "no system/popen/exec*/posix_spawn/wordexp or /bin/sh in src/" "$shells" ""
