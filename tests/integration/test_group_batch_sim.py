"""test_group_batch_sim.py — the batched describe (src/kafka/group_batch.h) against lagtop-sim.

--once describes the classic groups in one DescribeGroups per broker (rd_kafka_list_groups) and says, with
LAGTOP_REFRESH_STATS, how many the batch described. It does so every run: also when the commit stream had
caught up before the first refresh looked, which makes that refresh a steady one (it used to skip the batch
then, so whether a group went the per-group way depended on which of the two came first). When one
broker's DescribeGroups is held past the batch's time, librdkafka answers RD_KAFKA_RESP_ERR__PARTIAL: the
other brokers' groups are described by the batch all the same, the slow broker's are asked one by one and
marked not read, and the run ends within --timeout. So with the commit stream: the other brokers' groups, whose
committed offsets wait for the stream to catch up, do not wait for the slow broker's describes as well.
"""
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from simtest import Sim, lagtop, ok, exit_status, plan  # noqa: E402

RUNS = 16  # --once runs with the commit stream: one in eight or so found it caught up (a steady first refresh)
RUNS_SLOW = 3  # slow_broker's runs with the commit stream (each takes the whole --timeout)
SCALE = ["--brokers", "3", "--scenario", "scale", "--groups", "30", "--partitions", "2", "--topics", "3"]
STATS = re.compile(r"^lagtop: refresh 1: (steady|polled), .*, (\d+) of the described by the batch", re.M)
FETCHED = re.compile(r"^lagtop: refresh 1: .*, (\d+) offsets fetched, .*, (\d+) fetched as the stream was late", re.M)
STATS_ENV = dict(os.environ, LAGTOP_REFRESH_STATS="1")


def batch_count(err):
    """(how the refresh went, how many groups the batch described), or (None, -1) without the stats line."""
    m = STATS.search(err)
    return (m.group(1), int(m.group(2))) if m else (None, -1)


def fetched_count(err):
    """How many groups' offsets the first refresh fetched (OffsetFetch), or -1 without the stats line; None
    when it fetched those waiting for the stream because the stream was not caught up within half the time
    (a loaded machine), which is no measure of what the stream gives."""
    m = FETCHED.search(err)
    return -1 if not m else None if int(m.group(2)) else int(m.group(1))


def every_run():
    """Without faults the fixture's one group the batch can describe (fx-empty: the others' member ids are
    not Kafka's "<client.id>-<uuid>", src/sim/sim.h) is described by it, run after run; and the commit stream
    gives the same groups' offsets whether the first refresh is steady or not."""
    with Sim("--scenario", "fixture") as sim:
        rc, out, err = lagtop("-b", sim.bootstrap, "--once", "--format", "json", "--no-commit-stream",
                              env=STATS_ENV)
        ok(rc == 0 and batch_count(err) == ("polled", 1),
           "without the commit stream: the batch describes fx-empty", (rc, err))
        seen = []
        for _ in range(RUNS):
            rc, out, err = lagtop("-b", sim.bootstrap, "--once", "--format", "json", env=STATS_ENV)
            seen.append((rc,) + batch_count(err) + (fetched_count(err),))
        ok(all(s[0] == 0 and s[2] == 1 for s in seen),
           "with the commit stream, %d runs: the batch describes fx-empty every run, steady or not" % RUNS, seen)
        # a steady first refresh runs the batch too; its groups' offsets wait for their describe as --once's
        # do, so the stream gives the same ones (they were all fetched at once while the batch ran). A run
        # whose stream was not caught up in time fetches the waiting groups too, and says how many.
        timely = [s[3] for s in seen if s[3] is not None]
        ok(len(timely) >= RUNS // 2 and len(set(timely)) == 1 and timely[0] >= 0,
           "with the commit stream, %d runs: the same number of OffsetFetch every run, steady or not (runs "
           "whose stream was late aside, at most half)" % RUNS, seen)


def slow_run(extra):
    """One --once --timeout 3s on the scale scenario whose broker 2 holds DescribeGroups 8 s: (exit code, read
    groups, unread groups, how many the batch described, wall seconds, stderr)."""
    with Sim(*SCALE, "--fault-broker", "2", "--latency-ms", "8000", "--latency-api", "15") as sim:
        t0 = time.time()
        rc, out, err = lagtop("-b", sim.bootstrap, "--once", "--format", "json", "--timeout", "3s", *extra,
                              env=STATS_ENV)
        wall = time.time() - t0
    try:
        d = json.loads(out)
    except ValueError:
        d = {"groups": []}
    return (rc, sorted(g["group"] for g in d["groups"] if g["read"]),
            sorted(g["group"] for g in d["groups"] if not g["read"]), batch_count(err)[1], wall, err)


def slow_broker():
    """Broker 2's DescribeGroups held past --timeout: the batch's answer is partial. Without the commit stream
    and with it (the default: the described groups' offsets wait for the stream to catch up instead of an
    OffsetFetch each, and must not wait for the slow broker's describes as well). With it, RUNS_SLOW runs:
    the first refresh of one in eight or so is a steady one, which never waited for the describes."""
    with Sim(*SCALE) as sim:
        rc, out, err = lagtop("-b", sim.bootstrap, "--once", "--format", "json", "--no-commit-stream")
        coords = {g["group"]: g["coordinator"] for g in json.loads(out)["groups"]} if rc == 0 else {}
    slow = sorted(g for g, c in coords.items() if c == 2)
    fast = sorted(g for g, c in coords.items() if c != 2)
    for how, extra, runs in (("without the commit stream", ["--no-commit-stream"], 1),
                             ("with the commit stream", [], RUNS_SLOW)):
        seen = [slow_run(extra) for _ in range(runs)]
        ok(len(coords) == 30 and slow and fast and all(r[3] == len(fast) for r in seen),
           "slow broker, %s: the batch describes the other brokers' %d groups" % (how, len(fast)),
           [(r[3], r[5]) for r in seen])
        ok(all(r[0] == 1 and r[1] == fast and r[2] == slow for r in seen),
           "slow broker, %s: its %d groups not read, every other group read" % (how, len(slow)),
           [(r[0], r[2], r[5]) for r in seen])
        walls = [r[4] for r in seen]
        ok(max(walls) < 3 + 2.5,
           "slow broker, %s: --once ends within --timeout 3s (took %s s)" % (how, ", ".join("%.1f" % w for w in walls)),
           walls)


def stream_held():
    """The commit stream's Fetch held past --timeout: the groups waiting for it are fetched instead, all read,
    and the stats line says so (what every_run sets such runs aside by)."""
    with Sim("--scenario", "fixture", "--latency-ms", "8000", "--latency-api", "1") as sim:
        rc, out, err = lagtop("-b", sim.bootstrap, "--once", "--format", "json", "--timeout", "3s", env=STATS_ENV)
    m = FETCHED.search(err)
    try:
        d = json.loads(out)
    except ValueError:
        d = {"groups": []}
    ok(rc == 0 and m and int(m.group(2)) >= 1 and len(d["groups"]) == 4 and all(g["read"] for g in d["groups"]),
       "stream held: the groups waiting for it are fetched instead (%s), all 4 read" % (m and m.group(2)),
       (rc, err))


def main():
    plan(10)
    every_run()
    stream_held()
    slow_broker()
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
