#!/bin/sh
# test_peek.sh — v in the partitions pane at 80x24: the record popup on lagtop-sim. kafka-python writes a
# record whose key holds an escape sequence, a bidi override, invalid UTF-8 and NUL, and commits a group at it;
# the popup must show it as text (\x1b, \u202e, \xff, \x00), with its timestamp type, read-only; Esc closes it.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
. "$LT_SRCDIR/tests/lib/sim.sh"
PY=/usr/bin/python3
"$PY" -c 'import kafka' 2>/dev/null || missing_prereq "kafka-python (Debian package python3-kafka)"
plan 5

sim_start --brokers 1 --auto-create-partitions 1

"$PY" - "$BOOTSTRAP" <<'PYEOF' >"$LT_TMP/py.out" 2>&1
import sys
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.structs import OffsetAndMetadata
bs = sys.argv[1]
p = KafkaProducer(bootstrap_servers=bs, linger_ms=0)
p.send("stuck", key=b"plain", value=b"first").get(timeout=10)
p.send("stuck", key=b"k\x1b[31mred\xe2\x80\xaervs\xff\x00z", value=b"\x1b]0;pwned\x07tail",
       headers=[("h\x1b[2J", b"v")]).get(timeout=10)
p.close()
c = KafkaConsumer(bootstrap_servers=bs, group_id="stuck-group", enable_auto_commit=False)
c.commit({TopicPartition("stuck", 0): OffsetAndMetadata(1, "")})
c.close()
PYEOF
ok "kafka-python wrote the hostile record and committed at it" test $? -eq 0 || diag "$(cat "$LT_TMP/py.out")"

tui_start 80 24 -- -b "$BOOTSTRAP" -g stuck-group
tui_wait_text "stuck-group" 20 >/dev/null
tui_keys Enter
tui_wait_text "Partitions of stuck-group" 10 >/dev/null
tui_keys v
ok "v opens the record popup of the partition" tui_wait_text "Record of stuck:0 (read-only)" 15
tui_wait_text "timestamp" 15 >/dev/null
like "the record at the committed offset, with its timestamp type" \
	"$(tui_screen | grep -E 'committed 1:|offset +1 |CreateTime' | tr -s ' \n' ' ')" "committed 1:.*offset 1 .*\(CreateTime\)"
screen=$(tui_screen)
case "$screen" in
*'k\x1b[31mred\u202ervs\xff\x00z'*'h\x1b[2J: v'*'\x1b]0;pwned\x07tail'*) shown=yes ;;
*) shown=no ;;
esac
is "key, header and value shown escaped, every byte as text" "$shown" "yes" || diag "$screen"
tui_keys Escape
ok "Esc closes the popup" tui_wait_gone "Record of stuck:0" 10
