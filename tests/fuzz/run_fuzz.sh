#!/bin/sh
# run_fuzz.sh — a short, bounded libFuzzer run of every harness from its checked-in seed corpus (one TAP
# test each), for `make check`. New inputs go to a private temp corpus, never into the source tree.
# FUZZ_RUNS / FUZZ_SECONDS bound each run (defaults 20000 runs, 10 s). Longer runs: doc/FUZZING.md.
. "$LT_SRCDIR/tests/lib/tap.sh"
names="util config reset sim theme position record"
for n in $names; do
	[ -x "$LT_BUILDDIR/tests/fuzz/fuzz_$n" ] || skip_all "fuzzers not built (configure found no clang with libFuzzer)"
done
plan 7
lt_tmpdir
runs=${FUZZ_RUNS:-20000}
secs=${FUZZ_SECONDS:-10}
for n in $names; do
	mkdir -p "$LT_TMP/$n"
	# -detect_leaks: the harnesses free what they allocate; a leak found is a failure like a crash.
	( cd "$LT_TMP" && "$LT_BUILDDIR/tests/fuzz/fuzz_$n" -runs="$runs" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 "$LT_TMP/$n" "$LT_SRCDIR/tests/fuzz/corpus/$n" ) \
		>"$LT_TMP/$n.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LT_TMP/$n.log")
	if [ "$rc" -eq 0 ] && [ -n "$execs" ]; then
		_tap_result 0 "fuzz_$n: $execs executions, no crash, leak or sanitizer report"
	else
		_tap_result 1 "fuzz_$n: exit $rc"
		tail -40 "$LT_TMP/$n.log" | while IFS= read -r l; do diag "$l"; done
		ls "$LT_TMP" | grep -E '^(crash|leak|timeout|oom)-' | while read -r f; do
			diag "reproducer: $(od -An -c "$LT_TMP/$f" | head -5)"
		done
	fi
done
