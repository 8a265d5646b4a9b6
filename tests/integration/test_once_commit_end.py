"""test_once_commit_end.py — `lagtop --once` with the commit stream knows where __consumer_offsets ends.

The reader of __consumer_offsets decides that a partition's history is loaded when its position reaches
the end read at the start (ListOffsets latest). The reference is the old rule, the partition-EOF event
after an empty fetch (LAGTOP_COMMIT_END=eof). Against lagtop-sim with many commits, a compacted
__consumer_offsets (gaps where older commits were removed, tombstones of a deleted group) and commits
still arriving while lagtop starts, and a history that takes several fetches with every Fetch answer
held back (so that a reader declared loaded too early would be caught in the middle), every value of
`--once --format json` must be the same both ways, apart from the fields that move between any two runs
(times of the run itself).
"""
import json
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from simtest import flat, json_differences, private_env, Sim, lagtop, kafka_python, ok, results  # noqa: E402

TESTS = 10

def once(env, bootstrap, eof_only):
    e = dict(env)
    if eof_only:
        e["LAGTOP_COMMIT_END"] = "eof"
    else:
        e.pop("LAGTOP_COMMIT_END", None)
    t0 = time.monotonic()
    rc, out, err = lagtop("--once", "--format", "json", "-b", bootstrap, "--timeout", "30s", env=e, timeout=90)
    wall = time.monotonic() - t0
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    return rc, doc, err, wall


def compare(env, bootstrap, label):
    """Two runs each way, interleaved. The keys that differ between the two runs of the reference rule
    (EOF events) are the run's own (times); every other key of both runs with the end read at the start
    must equal the reference's. (Volatility is judged on the reference alone: a rule that stops early
    gives values that differ from run to run, which must not excuse them.)"""
    runs = {False: [], True: []}
    for _ in range(2):
        for eof_only in (True, False):
            runs[eof_only].append(once(env, bootstrap, eof_only))
    bad = [r for v in runs.values() for r in v if r[0] != 0 or r[1] is None]
    if bad:
        ok(False, "%s: every --once run printed JSON" % label, bad[0][2])
        return None
    diff, volatile, n_values = json_differences([r[1] for r in runs[True]], [r[1] for r in runs[False]])
    ref = [flat(r[1]) for r in runs[True]]
    states = [r[1]["commit_stream"]["state"] for v in runs.values() for r in v]
    ok(all(s == "live" for s in states), "%s: the commit stream was loaded in every run" % label, states)
    commits = sum(1 for k, v in ref[0].items() if k.endswith("/last_commit_ms") and v is not None)
    a = flat(runs[False][0][1])
    ok(not diff and commits > 0,
       "%s: every value equal with the end read at the start and with EOF events (%d values, %d volatile, "
       "%d commit times)" % (label, n_values, len(volatile), commits),
       "\n".join("%s: %r vs %r" % (k, a.get(k), ref[0].get(k)) for k in diff[:20]))
    return runs[False][0][1]


def offsets_gaps(bootstrap):
    """How many gaps (missing offsets between records) the __consumer_offsets partitions have, read with
    kafka-python: compaction removed records when there are some."""
    from kafka import KafkaConsumer, TopicPartition
    c = KafkaConsumer(bootstrap_servers=bootstrap.split(","), enable_auto_commit=False, consumer_timeout_ms=2000)
    try:
        parts = [TopicPartition("__consumer_offsets", p) for p in c.partitions_for_topic("__consumer_offsets")]
        c.assign(parts)
        c.seek_to_beginning()
        gaps, last = 0, {}
        for m in c:
            prev = last.get(m.partition)
            if prev is not None and m.offset != prev + 1:
                gaps += 1
            last[m.partition] = m.offset
        return gaps
    finally:
        c.close()


def long_history(tmp, env):
    """One __consumer_offsets partition holds ~1 MB of commits (more than one fetch of the reader's 512 KB),
    and every Fetch answer is held 400 ms: the reader's position is in the middle of that partition for a
    while after the refresh is done."""
    from kafka import KafkaConsumer, TopicPartition
    from kafka.structs import OffsetAndMetadata
    sim = Sim("--brokers", "1", "--scenario", "scale", "--groups", "1", "--partitions", "500", "--topics", "1",
              "--latency-api", "1", "--latency-ms", "400", tmp=tmp, name="sim-long")
    bootstrap = sim.bootstrap
    c = None
    try:
        c = KafkaConsumer(bootstrap_servers=bootstrap.split(","), group_id="cend-long", enable_auto_commit=False)
        for r in range(24):
            c.commit({TopicPartition("scale-topic-000", q): OffsetAndMetadata(r * 10 + q % 7, "m" * 20)
                      for q in range(500)})
        ok(True, "12,000 commits of one group (one __consumer_offsets partition)")
        compare(env, bootstrap, "history over several held fetches")
    finally:
        if c is not None:
            c.close()
        sim.stop()


def main():
    KafkaAdminClient, KafkaConsumer, TopicPartition, OffsetAndMetadata = kafka_python("KafkaAdminClient", "KafkaConsumer", "TopicPartition", "OffsetAndMetadata")
    print("1..%d" % TESTS)
    tmp = tempfile.mkdtemp(prefix="lagtop-cend.")
    env = private_env(tmp, home=tmp, config=os.path.join(tmp, "xdg"))
    # scale scenario (commits journalled in __consumer_offsets) with small segments and frequent compaction
    sim = Sim("--brokers", "3", "--scenario", "scale", "--groups", "60", "--partitions", "8", "--topics", "6",
              "--offsets-segment-bytes", "4096", "--log-retention-check-interval-ms", "300",
              "--offsets-delete-retention-ms", "100", tmp=tmp)
    consumers = []
    try:
        bootstrap = sim.bootstrap
        servers = bootstrap.split(",")

        # many commits: 12 simple groups commit their 8 partitions 25 times each (2,400 commits of which
        # compaction keeps the last per partition), and one of them is then deleted (tombstones)
        for g in range(12):
            c = KafkaConsumer(bootstrap_servers=servers, group_id="cend-%02d" % g, enable_auto_commit=False)
            consumers.append(c)
            for r in range(25):
                c.commit({TopicPartition("scale-topic-%03d" % (g % 6), p): OffsetAndMetadata(10 * r + p, "")
                          for p in range(8)})
        ok(True, "2,400 commits by 12 kafka-python groups")
        consumers[-1].close()
        consumers.pop()
        admin = KafkaAdminClient(bootstrap_servers=servers)
        try:
            admin.delete_consumer_groups(["cend-11"])
        finally:
            admin.close()
        time.sleep(1.5)  # a few compaction passes (every 300 ms)
        gaps = offsets_gaps(bootstrap)
        ok(gaps > 0, "__consumer_offsets was compacted: %d gaps between records" % gaps)

        compare(env, bootstrap, "compacted history")

        # commits keep arriving while lagtop reads: what came after its start is the live stream's, and
        # both rules must still agree on the history (committed offsets only move forward here, so the
        # polled values are the same)
        stop = threading.Event()

        def churn():
            c = consumers[0]
            r = 100
            while not stop.is_set():
                c.commit({TopicPartition("scale-topic-000", 0): OffsetAndMetadata(1000, "")})
                r += 1
                time.sleep(0.05)

        t = threading.Thread(target=churn, daemon=True)
        t.start()
        try:
            rc, doc, stderr, wall = once(env, bootstrap, False)
            ok(rc == 0 and doc and doc["commit_stream"]["state"] == "live",
               "--once while commits arrive: loaded (%.2f s)" % wall, stderr)
        finally:
            stop.set()
            t.join(5)
        time.sleep(0.5)
        compare(env, bootstrap, "after the churn")
        long_history(tmp, env)
    finally:
        for c in consumers:
            c.close()
        sim.stop()
    return 0 if all(results) and len(results) == TESTS else 1


if __name__ == "__main__":
    sys.exit(main())
