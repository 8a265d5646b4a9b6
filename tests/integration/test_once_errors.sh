#!/bin/sh
# test_once_errors.sh — bad input to --once and -X: one clear line on stderr, the documented exit code,
# and no waiting beyond --timeout.
. "$LT_SRCDIR/tests/lib/tap.sh"
plan 37
lt_tmpdir
# No config file of the person running the tests may leak in.
export HOME="$LT_TMP" XDG_CONFIG_HOME="$LT_TMP/xdg"
unset LAGTOP_CONFIG

# A port that was free a moment ago: nothing listens there.
closed_port=$("$DEBIAN_PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')

run_lagtop --once -b "127.0.0.1:$closed_port" --timeout 2s
is "unreachable bootstrap exits 1" "$rc" 1
like "unreachable bootstrap: one line naming the problem" "$err" '^lagtop: cannot reach the cluster within 2\.0 s: .*Connection refused'
is "unreachable bootstrap: exactly one line" "$(wc -l <"$LT_TMP/err")" 1
is "unreachable bootstrap: nothing on stdout" "$out" ""

# How long a failing run takes. The bounds are deliberately loose (the machine may be busy;
# ASan slows start-up): they catch the waits that were there before — --once waited for the commit
# reader's fixed 5 s metadata lookup whatever its --timeout (5 s with --timeout 1s), and the dashboard
# without a terminal connected first and waited for its first refresh (10 s default) before saying so.
ms_now() { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms_now)
run_lagtop --once -b "127.0.0.1:$closed_port" --timeout 1s
took=$(($(ms_now) - t0))
is "--once --timeout 1s, unreachable: exit 1" "$rc" 1
ok "--once --timeout 1s, unreachable: done within 1 + 3 s (took $took ms)" test "$took" -lt 4000

t0=$(ms_now)
run_lagtop -b "127.0.0.1:$closed_port" </dev/null
took=$(($(ms_now) - t0))
is "dashboard without a terminal: exit 2" "$rc" 2
is "... one line saying so" "$err" "lagtop: the dashboard needs a terminal (use --once to print to a pipe)"
ok "... at once: within 3 s, not after connecting (took $took ms)" test "$took" -lt 3000
t0=$(ms_now)
run_lagtop --demo </dev/null
took=$(($(ms_now) - t0))
ok "--demo without a terminal: exit 2 within 3 s (took $took ms)" test "$rc" = 2 -a "$took" -lt 3000

run_lagtop --once -c no-such-cluster --timeout 2s
is "unknown cluster exits 2" "$rc" 2
like "unknown cluster named" "$err" "^lagtop: .*'no-such-cluster'"

run_lagtop --once -b 127.0.0.1:9 -X foo
is "malformed -X exits 2" "$rc" 2
like "malformed -X named" "$err" "^lagtop: .*-X.*'foo'"

run_lagtop --once -b "127.0.0.1:$closed_port" -X no.such.property=1
is "unknown property exits 2" "$rc" 2
like "unknown property named" "$err" "^lagtop: .*'no.such.property'"

run_lagtop --once -b "127.0.0.1:$closed_port" -X sasl.password=hunter2 -X security.protocol=bogus
is "bad property value exits 2" "$rc" 2
unlike "a secret never appears in errors" "$err" 'hunter2'

run_lagtop --once -b "127.0.0.1:$closed_port" -G 'ok' -G '(oops'
is "bad group regex exits 2" "$rc" 2
like "bad group regex named" "$err" "^lagtop: bad group regex '\(oops'"

run_lagtop --once
is "no cluster at all exits 2" "$rc" 2

run_lagtop -X dump -b 127.0.0.1:9092 -X sasl.password=hunter2 -X ssl.key.password=swordfish -X client.id=me
is "-X dump exits 0" "$rc" 0
like "-X dump shows the effective properties" "$out" 'client.id = me'
like "-X dump masks secrets" "$out" 'sasl.password = \[hidden\]'
unlike "-X dump never prints secret values" "$out" 'hunter2|swordfish'

run_lagtop -X list
like "-X list lists librdkafka's properties" "$out" 'bootstrap.servers'

# ---- configuration files
cat >"$LT_TMP/good.conf" <<CONF
general = { default_cluster = "down"; };
clusters = {
    down = { bootstrap_servers = "127.0.0.1:$closed_port"; };
    secure = {
        bootstrap_servers = "127.0.0.1:$closed_port";
        properties = [ "security.protocol=SASL_PLAINTEXT", "sasl.mechanism=PLAIN",
                       "sasl.username=me", "sasl.password=opensesame" ];
    };
    broken = { bootstrap_servers = "127.0.0.1:$closed_port"; properties = [ "no.such.property=1" ]; };
};
CONF
chmod 600 "$LT_TMP/good.conf"

run_lagtop --once --config "$LT_TMP/good.conf" --timeout 1s
is "default cluster from the config file is used (unreachable: exit 1)" "$rc" 1
like "default cluster unreachable: one line" "$err" '^lagtop: cannot reach the cluster within 1\.0 s'

run_lagtop --once --config "$LT_TMP/good.conf" -c nope
is "unknown cluster in a config file exits 2" "$rc" 2
like "unknown cluster named, known ones listed" "$err" "^lagtop: unknown cluster 'nope'.*down"

run_lagtop --once --config "$LT_TMP/good.conf" -c broken
is "bad property from the config file exits 2" "$rc" 2
like "bad property from the config file named" "$err" "^lagtop: .*'no.such.property'"

run_lagtop -X dump --config "$LT_TMP/good.conf" -c secure
like "-X dump shows the cluster's properties" "$out" 'sasl.username = me'
unlike "-X dump hides the cluster's password" "$out" 'opensesame'

printf 'general = { refresh_interval = 2 \n clusters = ;\n' >"$LT_TMP/broken.conf"
run_lagtop --once --config "$LT_TMP/broken.conf" -b 127.0.0.1:9
is "broken config file exits 2" "$rc" 2
like "broken config file: file and line named" "$err" "^lagtop: .*broken.conf:[0-9]+: "

mkdir -p "$LT_TMP/dir.conf"
run_lagtop --once --config "$LT_TMP/dir.conf" -b 127.0.0.1:9
is "unreadable config file exits 2" "$rc" 2
