#!/usr/bin/python3
"""The peer of `make bench`: the lag table as a user would compute it with kafka-python instead of lagtop.

  peer_kafka_python.py BOOTSTRAP

List the groups, describe them, fetch each group's committed offsets, then the beginning and end offsets of
every partition those groups committed; build one row per (group, topic, partition) with log start,
committed, log end, lag and the consumer it is assigned to. Prints one JSON line:
{"groups": G, "rows": R, "total_lag": L, "wall_ms": W}. Run with /usr/bin/python3 (Debian's python3-kafka).
"""
import json
import sys
import time

from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: peer_kafka_python.py BOOTSTRAP\n")
        return 2
    bootstrap = sys.argv[1].split(",")
    t0 = time.monotonic()
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, client_id="bench-peer", request_timeout_ms=60000)
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, client_id="bench-peer", enable_auto_commit=False,
                             request_timeout_ms=60000)

    groups = sorted(g for g, _ in admin.list_consumer_groups())
    described = admin.describe_consumer_groups(groups) if groups else []
    owner = {}
    for d in described:
        for m in d.members:
            a = m.member_assignment
            if not a or isinstance(a, (bytes, bytearray)):
                continue
            for topic, parts in a.assignment:
                for p in parts:
                    owner[(d.group, topic, p)] = m.member_id

    committed = {}
    for g in groups:
        for tp, om in admin.list_consumer_group_offsets(g).items():
            if om.offset >= 0:
                committed[(g, tp.topic, tp.partition)] = om.offset

    tps = sorted({TopicPartition(t, p) for (_, t, p) in committed})
    # Load every topic's metadata first: without it kafka-python 2.0.2 learns the leaders one metadata
    # round per retry and its offsets lookup does not finish on 32,000 partitions (60 s timeout).
    consumer.topics()
    start = consumer.beginning_offsets(tps) if tps else {}
    end = consumer.end_offsets(tps) if tps else {}

    rows = []
    for (g, t, p), off in sorted(committed.items()):
        tp = TopicPartition(t, p)
        e = end.get(tp)
        lag = max(e - off, 0) if e is not None else None
        rows.append((g, t, p, start.get(tp), off, e, lag, owner.get((g, t, p), "-")))
    wall_ms = (time.monotonic() - t0) * 1000.0
    consumer.close()
    admin.close()
    print(json.dumps({"groups": len(groups), "rows": len(rows),
                      "total_lag": sum(r[6] or 0 for r in rows), "wall_ms": round(wall_ms, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
