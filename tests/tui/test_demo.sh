#!/bin/sh
# test_demo.sh — `lagtop --demo`: the in-process simulated cluster and the dashboard on it, at 80x24.
. "$LT_SRCDIR/tests/lib/tap.sh"
. "$LT_SRCDIR/tests/lib/tui.sh"
plan 5

tui_start 80 24 -- --demo
ok "the demo cluster comes up" tui_wait_text "demo (simulated)" 20
like "three brokers, several groups" "$(tui_screen | head -n 1)" "brokers 3/3 │ ([6-9]|10) groups"
n=$(tui_group_rows | grep -c .)
in_range() { [ "$1" -ge 6 ] && [ "$1" -le 10 ]; }
ok "6 to 10 groups listed at 80x24 (got $n)" in_range "$n"

# The members pane at 80x24: every member's partitions in full, wrapped under PARTITIONS, nothing cut
# (clickstream-etl's four members read clickstream's 24 partitions between them: 0,4,8,12,16,20 and so on).
tui_keys / clickstream-etl Enter Enter m
tui_wait_text "Members of clickstream-etl" 10 >/dev/null
# the PARTITIONS column of the members pane's lines, read from the header's position; prints the partition
# numbers it lists, sorted, or CUT when a line ends in an ellipsis
member_partitions() {
	tui_screen | python3 -c '
import re, sys
lines = sys.stdin.read().split("\n")
head = next(i for i, l in enumerate(lines) if l.startswith("MEMBER-ID"))
x = lines[head].index("PARTITIONS")
nums = []
for l in lines[head + 1:]:
    if not l.strip() or l.startswith("qQuit"):
        break
    cell = l[x:].strip()
    if cell.endswith("\u2026") or cell.endswith("..."):
        print("CUT"); sys.exit()
    for a, b in re.findall(r"(\d+)(?:-(\d+))?", cell.replace("clickstream:", "")):
        nums += range(int(a), int(b or a) + 1)
print(" ".join(map(str, sorted(nums))))'
}
is "the members pane lists each member's partitions in full (wrapped, not cut)" "$(member_partitions)" \
	"$(seq -s ' ' 0 23)"
tui_keys Escape Escape

tui_keys q
ok "q stops the demo and exits 0" tui_wait_text "EXITED=0" 15
