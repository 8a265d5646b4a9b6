# tests/lib/sim.sh — lagtop-sim in the background for shell tests (sourced after tap.sh; LT_TMP is set by
# lt_tmpdir or tui.sh before the first start).
#   sim_start ARGS...  runs "$LAGTOP_SIM ARGS" and waits (bounded) for its "ready bootstrap=" line; sets SIM_PID
#                      and BOOTSTRAP. Its output is in $LT_TMP/sim.out and $LT_TMP/sim.err, replaced by the next
#                      start. A sim that does not start: its stderr as a diagnostic, BOOTSTRAP empty, status 1.
#   sim_stop           stops the sim started last (SIGCONT first: the test may have frozen it with SIGSTOP)
# Every sim started is stopped on exit too.

sim_start() {
	# no stale "ready" line from the previous sim: the redirection below happens in the child, later
	rm -f "$LT_TMP/sim.out" "$LT_TMP/sim.err"
	BOOTSTRAP=
	"${LAGTOP_SIM:-$LT_BUILDDIR/lagtop-sim}" "$@" >"$LT_TMP/sim.out" 2>"$LT_TMP/sim.err" &
	SIM_PID=$!
	on_exit "kill -CONT $SIM_PID 2>/dev/null; kill $SIM_PID 2>/dev/null; wait $SIM_PID 2>/dev/null"
	# a sim that exits (bad arguments, no port) is not waited for
	wait_for 20 _sim_ready_or_gone
	if ! grep -q '^ready bootstrap=' "$LT_TMP/sim.out"; then
		diag "lagtop-sim $* did not start: $(cat "$LT_TMP/sim.err")"
		return 1
	fi
	BOOTSTRAP=$(sed -n 's/^ready bootstrap=//p' "$LT_TMP/sim.out")
}

_sim_ready_or_gone() { grep -q '^ready bootstrap=' "$LT_TMP/sim.out" || ! kill -0 "$SIM_PID" 2>/dev/null; }

sim_stop() {
	kill -CONT "$SIM_PID" 2>/dev/null
	kill "$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
}
