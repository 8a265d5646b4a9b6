#!/bin/sh
# The benchmarks still build, and a tiny scenario (5 groups x 2 partitions) goes through the same path as
# `make bench` (simulator process, lagtop-bench refresh and draw, lagtop --once, the kafka-python peer) and
# prints the table with its columns and the right counts. No timing is asserted here: that is bench/'s job.
. "$LT_SRCDIR/tests/lib/tap.sh"
plan 19
lt_tmpdir

# Built on demand only (EXTRA_PROGRAMS): build it now, outside the parent make's job server.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s -C "$LT_BUILDDIR" bench/lagtop-bench \
	>"$LT_TMP/make.log" 2>&1
rc=$?
is "bench/lagtop-bench builds" "$rc" 0
[ "$rc" -eq 0 ] || diag "$(tail -20 "$LT_TMP/make.log")"

peer=""
"$DEBIAN_PYTHON" -c 'import kafka' 2>/dev/null || peer="--no-peer"
"$DEBIAN_PYTHON" "$LT_SRCDIR/bench/run_bench.py" --builddir "$LT_BUILDDIR" --scenarios T --no-idle \
	--draw-rows 2000 --real-kafka none $peer >"$LT_TMP/table" 2>"$LT_TMP/err"
rc=$?
is "run_bench.py exits 0" "$rc" 0
is "no failure reported on stderr" "$(cat "$LT_TMP/err")" ""
table=$(cat "$LT_TMP/table")
diag "$table"

like "header names the scenario and the target column" "$(head -1 "$LT_TMP/table")" '^metric +T +target$'
# 5 groups over one topic of 2 partitions: 10 (group, partition) rows
like "rows counted from the refresh" "$table" '^rows \(group, partition\) +10$'
# one DescribeGroups per broker for all its groups (the batch), one OffsetFetch per group, per refresh
like "DescribeGroups per refresh" "$table" '^  DescribeGroups +3$'
like "OffsetFetch per refresh" "$table" '^  OffsetFetch +5$'
# one --once's requests from the sim's counters, with the target's column
like "requests per --once counted" "$table" '^requests per --once \(no stream\) +[0-9]+ +M <= 100$'
# librdkafka's count of the same runs (LAGTOP_RDKAFKA_REQUESTS, every handle's requests) is the sim's
once_sim=$(sed -n 's/^requests per --once (no stream)  *\([0-9][0-9]*\) .*/\1/p' "$LT_TMP/table")
like "librdkafka counted a --once's requests" "$(sed -n "s/^  librdkafka's count  *//p" "$LT_TMP/table")" '^[1-9][0-9]*$'
is "librdkafka's count of a --once is the sim's" "$(sed -n "s/^  librdkafka's count  *\([0-9][0-9]*\)$/\1/p" "$LT_TMP/table")" "$once_sim"
cs_sim=$(sed -n 's/^requests per --once, stream (Fetch apart)  *\([0-9][0-9]*\) .*/\1/p' "$LT_TMP/table")
is "the same with the commit stream (Fetch apart)" \
	"$(sed -n "s/^  librdkafka's count (Fetch apart)  *\([0-9][0-9]*\)$/\1/p" "$LT_TMP/table")" "$cs_sim"
# 3 ListGroups + 3 x 5 + 2 ListOffsets x 2 leaders + 1 Metadata
like "lower bound" "$table" '^lower bound \(librdkafka 2.0.2\) +23$'
# the steady refreshes' own peak (VmHWM reset after the cold refresh) beside the whole process's
like "steady refreshes' peak RSS" "$table" '^  peak RSS MB \(history, stream\) +[0-9.]+ +L <= 96'
like "the whole process's peak RSS" "$table" '^  peak RSS MB, the whole process +[0-9.]+$'
like "draw line with 2000 rows" "$table" '^draw: frame, 2000 partition rows, ms +[0-9.]+ '
# the topic view of 2000 rows as the scale scenarios lay them out: 63 groups of 32, 10 a topic
like "topics pane line: the view of 2000 rows, 7 topics" "$table" '^draw: topics pane, ms +[0-9.]+ +\(frame\), [0-9.]+ \(rebuild: the topic view of 2000 rows, 7 topics\)'

# The soak benchmark (long runs under churn): its churning cluster builds, and 12 s of soak print the report.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s -C "$LT_BUILDDIR" bench/lagtop-sim-churn \
	>"$LT_TMP/make2.log" 2>&1
is "bench/lagtop-sim-churn builds" "$?" 0
if [ -n "$TMUX_BIN" ] && [ -x "$TMUX_BIN" ]; then
	"$DEBIAN_PYTHON" "$LT_SRCDIR/bench/soak.py" --builddir "$LT_BUILDDIR" --tmux "$TMUX_BIN" --duration 12 \
		--warmup 4 --sample 2 >"$LT_TMP/soak" 2>"$LT_TMP/soak.err"
	is "soak.py exits 0" "$?" 0
	soak=$(cat "$LT_TMP/soak" "$LT_TMP/soak.err")
	diag "$soak"
	like "the report has a row per process with a memory slope" "$soak" 'lagtop +[0-9.]+ +[0-9.]+ .* [0-9]+-[0-9]+ '
elif [ "$CI" = true ]; then # CI runs everything: a missing prerequisite fails
	ok "soak.py: tmux not found" false
	ok "the report: tmux not found" false
else
	ok "soak.py exits 0 # SKIP tmux not found" true
	ok "the report has a row per process # SKIP tmux not found" true
fi
done_testing
