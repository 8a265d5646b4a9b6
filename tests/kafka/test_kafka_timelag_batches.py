#!/usr/bin/python3
"""test_kafka_timelag_batches.py — time lags read from large record batches, on Apache Kafka 4.x.

A librdkafka producer batches up to 1 MB (its batch.size), so the record at a committed offset often sits in
the middle of a batch far larger than the 16 KiB a partition the record reader asks for. Kafka answers a
fetch with the first batch whole and cuts the others at their partition's size; librdkafka 2.0.2 counted
its queue limit on the queue the partitions of a read share, so one partition's batch held back the
others' fetches for a second each, and `--once` printed no time lag for most of them.

On the sim (which cuts batches as Kafka does) and a one-node Kafka 4.x: 6 topics of 1 partition, 3,000
records of 300 bytes each, produced by confluent-kafka with batch.size 1 MB and linger.ms 200 (batches of
several hundred KB); two groups committed in different batches of each, at offsets 1,500 and 700 (a partition
whose records two groups want is read in two rounds; reading one offset a partition, `--once` gave the second
group no time lag). Checks: `--once` gives every partition of both groups an exact time lag (not estimated), and
each equals the time since the record at its group's committed offset was written (its timestamp, read back by
the producer's side) within the run's own duration.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
from simtest import lagtop, now_ms, ok  # noqa: E402

TOPICS = 6
RECORDS = 3000
COMMITTED = {"tlb": 1500, "tlb-b": 700}

# Runs under the virtual environment's python (confluent-kafka): writes the topics, commits each group and
# prints one JSON line, {group: {topic: timestamp ms of the record at the group's committed offset}}.
WRITER = r'''
import json, sys
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
b, n, records, committed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
topics = ["tlb%d" % i for i in range(n)]
admin = AdminClient({"bootstrap.servers": b})
for f in admin.create_topics([NewTopic(t, 1, 1) for t in topics]).values():
    f.result()
p = Producer({"bootstrap.servers": b, "batch.size": 1000000, "linger.ms": 200, "compression.type": "none"})
for t in topics:
    for k in range(records):
        p.produce(t, b"x" * 300)
p.flush(60)
ts = {}
for group, at in committed.items():
    c = Consumer({"bootstrap.servers": b, "group.id": group, "enable.auto.commit": False})
    c.commit(offsets=[TopicPartition(t, 0, at) for t in topics], asynchronous=False)
    ts[group] = {}
    for t in topics:
        c.assign([TopicPartition(t, 0, at)])
        m = c.poll(30)
        ts[group][t] = m.timestamp()[1] if m is not None and m.offset() == at else None
    c.close()
print(json.dumps(ts))
'''


def run(kc, where):
    py = K.confluent_python()
    w = subprocess.run([py, "-c", WRITER, kc.bootstrap, str(TOPICS), str(RECORDS), json.dumps(COMMITTED)],
                       capture_output=True, text=True, timeout=180)
    stamps = json.loads(w.stdout.strip().splitlines()[-1]) if w.returncode == 0 and w.stdout.strip() else {}
    stamps = {(g, t): ts for g, by_topic in stamps.items() for t, ts in by_topic.items()}
    ok(len(stamps) == TOPICS * len(COMMITTED) and all(stamps.values()),
       "%s: the topics are written and both groups committed" % where, (w.returncode, w.stderr[-800:]))
    t0 = now_ms()
    rc, out, err = lagtop("-b", kc.bootstrap, "--once", "--format", "json", "--no-commit-stream", "-G", "^tlb",
                          timeout=120)
    t1 = now_ms()
    d = json.loads(out) if rc == 0 else {"groups": []}
    parts = {(g["group"], p["topic"]): p for g in d["groups"] for p in g["partitions"]}
    print("# %s: --once took %d ms" % (where, t1 - t0))
    exact = all(p["time_lag_ms"] is not None and p["time_lag_estimated"] is False for p in parts.values())
    ok(sorted(parts) == sorted(stamps) and exact,
       "%s: every partition of both groups has an exact time lag from its record" % where,
       (rc, err[-500:], {k: (p["time_lag_ms"], p["time_lag_estimated"]) for k, p in parts.items()}))
    wrong = {k: (p["time_lag_ms"], t0 - stamps[k], t1 - stamps[k]) for k, p in parts.items()
             if stamps.get(k) and p["time_lag_ms"] is not None
             and not t0 - stamps[k] - 1000 <= p["time_lag_ms"] <= t1 - stamps[k] + 1000}
    ok(parts and not wrong, "%s: each time lag is the age of the record at its group's committed offset" % where,
       wrong)


def both(kc):
    with kt.sim_for_tools() as sim:
        if sim:
            run(sim, "sim")
    run(kc, "Kafka %s" % kc.version)


def main():
    kt.require_jdk()
    kt.available(K.confluent_python)
    return kt.on_one_cluster(both)


if __name__ == "__main__":
    sys.exit(main())
