#!/bin/sh
# test_faults_once.sh — lagtop --once against a faulty lagtop-sim: a frozen cluster (SIGSTOP),
# a cluster slower than --timeout, connections cut in the middle of answers, coordinators answering
# retriable errors. --once must never hang (every run here is bounded by run_lagtop, and a hang is a
# failure), must exit with the documented status and say what was wrong in one line, and a secret
# given with -X or in the config file must never appear in anything it prints, error paths included.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/sim.sh"
plan 48
lt_tmpdir
export HOME="$LT_TMP" XDG_CONFIG_HOME="$LT_TMP"
unset LAGTOP_CONFIG
SECRET=hunter2-s3cr3t

no_secret() { # NAME — the secret is in neither stream
	if grep -q "$SECRET" "$LT_TMP/out" "$LT_TMP/err"; then _tap_result 1 "$1"; else _tap_result 0 "$1"; fi
}

# The fixture has four groups (fx-stable, fx-empty, fx-rebalancing, fx-kip848: src/sim/sim.h).
# ---- a frozen cluster: accepts connections (the kernel does), never answers
sim_start --scenario fixture
kill -STOP "$SIM_PID"
run_lagtop --once -b "$BOOTSTRAP" --timeout 2s -X "sasl.password=$SECRET"
is "frozen sim: exits 1 (no hang)" "$rc" 1
like "frozen sim: one line naming the problem" "$err" '^lagtop: .*(2\.0 s|timed out|timeout)'
is "frozen sim: exactly one line" "$(wc -l <"$LT_TMP/err")" 1
is "frozen sim: nothing on stdout" "$out" ""
no_secret "frozen sim: the -X secret is not printed"
run_lagtop --once -b "$BOOTSTRAP" --timeout 2s --format json
is "frozen sim, json: exits 1" "$rc" 1
is "frozen sim, json: stdout stays empty (no half document)" "$out" ""
kill -CONT "$SIM_PID"
run_lagtop --once -b "$BOOTSTRAP" --timeout 5s --format json
is "thawed sim: exits 0" "$rc" 0
ok "thawed sim: valid JSON with the groups" "$DEBIAN_PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["groups"]) == 4, d' "$LT_TMP/out"
sim_stop

# ---- slower than --timeout
sim_start --scenario fixture --latency-ms 6000
run_lagtop --once -b "$BOOTSTRAP" --timeout 2s
is "slow sim: exits 1 (no hang)" "$rc" 1
like "slow sim: one line" "$err" '^lagtop: '
is "slow sim: exactly one line" "$(wc -l <"$LT_TMP/err")" 1
sim_stop

# ---- every answer cut in the middle
sim_start --scenario fixture --drop-rate 1
run_lagtop --once -b "$BOOTSTRAP" --timeout 2s -X "sasl.password=$SECRET"
is "dropping sim: exits 1 (no hang)" "$rc" 1
like "dropping sim: one line" "$err" '^lagtop: '
is "dropping sim: exactly one line" "$(wc -l <"$LT_TMP/err")" 1
no_secret "dropping sim: the -X secret is not printed"
sim_stop

# ---- half of the answers cut: whatever happens, bounded and a documented status
sim_start --scenario fixture --drop-rate 0.5 --seed 7
run_lagtop --once -b "$BOOTSTRAP" --timeout 3s --format json
ok "half-dropping sim: exits 0 or 1 (no crash, no hang)" test "$rc" -le 1
if [ "$rc" -eq 0 ]; then
	ok "half-dropping sim: valid JSON" "$DEBIAN_PYTHON" -c 'import json,sys; json.load(open(sys.argv[1]))' "$LT_TMP/out"
elif [ -s "$LT_TMP/out" ]; then
	# the cluster answered in part: what was read, with what was not read said ("read": false)
	ok "half-dropping sim: exit 1 with JSON says it was not read whole" "$DEBIAN_PYTHON" -c '
import json,sys; d=json.load(open(sys.argv[1])); assert d["read"] is False, d' "$LT_TMP/out"
else
	is "half-dropping sim: nothing on stdout when unreachable" "$out" ""
fi
sim_stop

# ---- coordinators answering each retriable error to DescribeGroups (15), OffsetFetch (9) and
# ConsumerGroupDescribe (69). Which groups a describe fault reaches depends on the librdkafka
# (lagtop --version): 2.0.2 describes all four through DescribeGroups and never sends
# ConsumerGroupDescribe; 2.10+ asks ConsumerGroupDescribe first, which describes fx-kip848 (a
# consumer-protocol group) on its own and, failing with anything but "not a consumer group", fails
# the classic groups too (no fallback to DescribeGroups). The batched DescribeGroups (one per broker,
# src/kafka/group_batch.h) describes fx-empty, and would describe every classic group, but the fixture's
# member ids ("fx-c1-member") are not Kafka's "<client.id>-<uuid>", so the groups with members are asked
# one by one again, as a possibly static member's are.
if "$LAGTOP" --version | grep -q 'KIP-848-describe'; then whole=1; else whole=0; fi
for api in 15 9 69; do
	case "$api/$whole" in
	15/1) want="fx-empty fx-rebalancing fx-stable" ;;
	69/0) want="" ;;
	# fx-empty: the batch describes it, also when the commit stream had caught up before the refresh
	# looked (a first refresh that is steady uses the batch too: refresh_groups.c, groups_stage)
	69/1) want="fx-kip848 fx-rebalancing fx-stable" ;;
	*) want="fx-empty fx-kip848 fx-rebalancing fx-stable" ;;
	esac
	# with the commit stream, --once takes the classic groups' committed offsets from it instead of
	# OffsetFetch: without it, every group is fetched
	nostream=""; [ "$api" = 9 ] && nostream=--no-commit-stream
	for code in COORDINATOR_NOT_AVAILABLE NOT_COORDINATOR COORDINATOR_LOAD_IN_PROGRESS REQUEST_TIMED_OUT; do
		sim_start --scenario fixture --error-rate 1 --error-api $api --error-code $code
		run_lagtop --once -b "$BOOTSTRAP" --timeout 5s --format json -X "sasl.password=$SECRET" $nostream
		# --once prints what it has; each group the fault reaches is not read ("read": false, its error),
		# the others are, and stderr says it once per cause (the fixture's four groups: src/sim/sim.h);
		# the exit status is 1 when a group was not read
		if [ -n "$want" ]; then want_rc=1; else want_rc=0; fi
		[ "$rc" -eq "$want_rc" ] || diag "rc $rc: $err; sim: $(grep -v "^lagtop-sim: scenario" "$LT_TMP/sim.err" | head -3)"
		ok "$code on API $api: exits $want_rc, the groups it reaches (${want:-none}) not read, with its error" "$DEBIAN_PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["groups"]) == 4, d
got = sorted(g["group"] for g in d["groups"] if g["error"])
assert got == sys.argv[2].split(), (got, d)
assert sorted(g["group"] for g in d["groups"] if not g["read"]) == got, d
assert all(g["read_error"] == g["error"] for g in d["groups"] if not g["read"]), d
assert d["groups_unread"] == len(got) and d["read"] == (not got), d
assert int(sys.argv[3]) == int(sys.argv[4]), ("exit status", sys.argv[3], "want", sys.argv[4])' \
			"$LT_TMP/out" "$want" "$rc" "$want_rc"
		[ -n "$want" ] && faulty_err=$err
		sim_stop
	done
done
like "the groups not read are named with the error" "$faulty_err" "^lagtop: [0-9] groups? not read \\(fx-[a-z0-9]+.*\\): .*(timed out|Request timed out)"
is "one line for one cause, not one per group" "$(printf '%s\n' "$faulty_err" | grep -c 'not read')" 1

# ---- every coordinator API failing, FindCoordinator and ListGroups included
sim_start --scenario fixture --error-rate 1 --error-code COORDINATOR_LOAD_IN_PROGRESS
run_lagtop --once -b "$BOOTSTRAP" --timeout 3s
is "all coordinator APIs failing: exits 1 (nothing could be read, which is not an empty cluster)" "$rc" 1
like "all coordinator APIs failing: one line says the brokers' lists were not read, and why" "$err" \
	'^lagtop: the group lists of 3 brokers not read \(broker 1, broker 2, broker 3\): ListGroups: .*oordinator load in progress'
ok "all coordinator APIs failing: stderr lines are all prefixed" sh -c '! grep -v "^lagtop: " "$1"' - "$LT_TMP/err"
sim_stop

# ---- lagtop-sim's own fault flags are checked
"$LAGTOP_SIM" --error-rate 2 >/dev/null 2>"$LT_TMP/serr"; rc=$?
is "lagtop-sim --error-rate 2: exit 2" "$rc" 2
like "lagtop-sim --error-rate 2: named" "$(cat "$LT_TMP/serr")" "error-rate.*'2'"
"$LAGTOP_SIM" --error-code BOGUS >/dev/null 2>"$LT_TMP/serr"; rc=$?
is "lagtop-sim --error-code BOGUS: exit 2" "$rc" 2
"$LAGTOP_SIM" --fault-broker 9 --brokers 3 --latency-ms 5 >/dev/null 2>"$LT_TMP/serr"; rc=$?
is "lagtop-sim --fault-broker beyond the brokers: exit 2" "$rc" 2

# ---- secrets from the config file, on error paths and in -X dump
closed_port=$("$DEBIAN_PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
cat >"$LT_TMP/c.conf" <<CONF
clusters = {
    sec = {
        bootstrap_servers = "127.0.0.1:$closed_port";
        properties = [ "sasl.password=$SECRET", "sasl.username=u", "security.protocol=SASL_PLAINTEXT",
                       "sasl.mechanism=PLAIN" ];
    };
    bad = {
        bootstrap_servers = "127.0.0.1:$closed_port";
        properties = [ "sasl.password=$SECRET", "security.protocol=bogus" ];
    };
};
CONF
chmod 600 "$LT_TMP/c.conf"
# (--once does not read the config file yet — its target is -b/-X only — so the config's secrets are
# exercised through --reset-offsets, which does.)
RESET="--reset-offsets -g fx-empty --all-topics --to-earliest"
run_lagtop --config "$LT_TMP/c.conf" -c sec $RESET --timeout 2s
is "config secret, unreachable: exits 1" "$rc" 1
no_secret "config secret, unreachable: not printed"
run_lagtop --config "$LT_TMP/c.conf" -c bad $RESET --timeout 2s
is "config secret, bad property: exits 2" "$rc" 2
no_secret "config secret, bad property: not printed"
LAGTOP_DEBUG=1 run_lagtop --config "$LT_TMP/c.conf" -c sec $RESET --timeout 2s -X debug=security,broker
no_secret "config secret, LAGTOP_DEBUG librdkafka logs: not printed"
sim_start --scenario fixture
LAGTOP_DEBUG=1 run_lagtop --config "$LT_TMP/c.conf" -c sec -b "$BOOTSTRAP" $RESET --timeout 2s -X debug=security,protocol
ok "config secret, SASL against a sim without SASL: exits 1" test "$rc" -eq 1
no_secret "config secret, SASL against a sim without SASL, with debug logs: not printed"
LAGTOP_DEBUG=1 run_lagtop -b "$BOOTSTRAP" --once --timeout 2s -X "sasl.password=$SECRET" -X sasl.username=u \
	-X security.protocol=SASL_PLAINTEXT -X sasl.mechanism=PLAIN -X debug=security,protocol
is "-X secret, SASL against a sim without SASL: exits 1" "$rc" 1
no_secret "-X secret, SASL against a sim without SASL, with debug logs: not printed"
sim_stop
