#!/bin/sh
# test_reset_cli_errors.sh — bad input to --reset-offsets found before any connection: one line on stderr
# that starts with "lagtop: " and names the input, exit status 2, and nothing from the input reaches the
# terminal raw (a --from-file line may hold escape sequences).
. "$LT_SRCDIR/tests/lib/tap.sh"
plan 9
lt_tmpdir

# 127.0.0.1:9 is never contacted: every error below comes before the connection.
printf 't,0,5\nbad\033[2Jtopic,1,7\n' >"$LT_TMP/esc.csv"
run_lagtop --reset-offsets -g g --from-file "$LT_TMP/esc.csv" -b 127.0.0.1:9 --timeout 1s
is "bad CSV exits 2" "$rc" 2
like "bad CSV: the line is named" "$err" '^lagtop: .*esc\.csv: line 2: .*is not a valid topic name'
is "bad CSV: one line" "$(wc -l <"$LT_TMP/err")" 1
if grep -q "$(printf '\033')" "$LT_TMP/err"; then raw=yes; else raw=no; fi
is "bad CSV: no raw escape reaches the terminal" "$raw" no

run_lagtop --reset-offsets -g g --topic t --to-datetime 2026-02-30T00:00:00.000 -b 127.0.0.1:9 --timeout 1s
is "impossible date exits 2" "$rc" 2
like "impossible date named" "$err" "^lagtop: invalid datetime '2026-02-30T00:00:00.000'"

run_lagtop --reset-offsets -g g --topic t --by-duration PT6 -b 127.0.0.1:9 --timeout 1s
is "duration without a unit exits 2" "$rc" 2
like "duration named" "$err" "^lagtop: invalid duration 'PT6'"

run_lagtop --reset-offsets -g g --from-file "$LT_TMP/none.csv" -b 127.0.0.1:9 --timeout 1s
like "missing file named" "$err" "^lagtop: Unable to read file .*none\.csv"
