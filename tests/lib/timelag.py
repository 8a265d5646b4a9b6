"""timelag.py — watching stopped groups' time lags over many refreshes, shared by the sim test
(tests/integration/test_timelag_sim.py) and the real-Kafka one (tests/kafka/test_kafka_describe.py).

refreshes() runs `lagtop --record --headless --format json` (one JSON document per refresh); backwards() and
not_from_records() say where a time lag broke its rules: while a committed offset stands still its time lag
grows at least as fast as the clock, and a time lag above 0 is the refresh's time minus the timestamp of the
record at the committed offset (exact), or, where retention deleted that record, an estimate marked as one.
"""
import json
import os
import signal
import subprocess
import time

import simtest


def refreshes(bootstrap, tmp, groups, count, interval="0.2", env=None, limit_s=60):
    """The JSON documents of count refreshes of groups, interval seconds apart (bounded: limit_s), lagtop
    stopped with SIGINT."""
    args = [simtest.LAGTOP, "--record", os.path.join(tmp, "timelag.lt"), "--headless", "--format", "json",
            "-b", bootstrap, "--interval", interval]
    for g in groups:
        args += ["-g", g]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         text=True, env=env)
    docs = []
    deadline = time.time() + limit_s
    try:
        while len(docs) < count and time.time() < deadline:
            line = p.stdout.readline()
            if not line:
                break
            docs.append(json.loads(line))
    finally:
        p.send_signal(signal.SIGINT)
        try:
            p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
    return docs


def lagging(docs):
    """How many partition rows of the documents have a time lag above 0."""
    return sum(1 for d in docs for g in d["groups"] for p in g["partitions"] if p["time_lag_ms"])


def backwards(docs):
    """Where a partition's time lag grew less than the clock while its committed offset stood still behind
    the log end (a partition caught up, lag 0, has time lag 0 until a record arrives)."""
    found = []
    prev = {}
    for d in docs:
        for g in d["groups"]:
            for p in g["partitions"]:
                key = (g["group"], p["topic"], p["partition"])
                cur = (d["taken_at_ms"], p["committed"], p["time_lag_ms"], p["lag"])
                last = prev.get(key)
                prev[key] = cur
                if not last or last[2] is None or cur[2] is None or last[1] != cur[1] or not last[3]:
                    continue
                if cur[2] < last[2] + (cur[0] - last[0]):
                    found.append("%s %s:%d seq %d: %d ms, %d ms earlier %d ms" % (
                        key[0], key[1], key[2], d["seq"], cur[2], cur[0] - last[0], last[2]))
    return found


def not_from_records(docs, record_ts):
    """Time lags above 0 that are not the record's: marked estimated, or not taken_at_ms minus the timestamp
    of the record at the committed offset (record_ts: (topic, partition, offset) -> ms, read by kafka-python)."""
    found = []
    for d in docs:
        for g in d["groups"]:
            gone = any(p["log_start"] is not None and p["committed"] is not None and p["committed"] < p["log_start"]
                       for p in g["partitions"])
            if g["max_time_lag_ms"] and not gone and g["max_time_lag_estimated"] is not False:
                found.append("%s seq %d: max_time_lag_estimated %r" % (g["group"], d["seq"],
                                                                      g["max_time_lag_estimated"]))
            for p in g["partitions"]:
                if not p["time_lag_ms"]:
                    continue
                if p["log_start"] is not None and p["committed"] < p["log_start"]:
                    if p["time_lag_estimated"] is not True:  # the record is gone: an estimate, said so
                        found.append("%s %s:%d seq %d: deleted record, not estimated" % (
                            g["group"], p["topic"], p["partition"], d["seq"]))
                    continue
                ts = record_ts.get((p["topic"], p["partition"], p["committed"]))
                if p["time_lag_estimated"] is not False or ts is None or p["time_lag_ms"] != d["taken_at_ms"] - ts:
                    found.append("%s %s:%d seq %d: %r estimated %r, record %r" % (
                        g["group"], p["topic"], p["partition"], d["seq"], p["time_lag_ms"],
                        p["time_lag_estimated"], ts))
    return found


def read_record_ts(bootstrap, docs, **consumer_args):
    """The timestamp of the record at every committed offset the documents show, read by kafka-python."""
    from kafka import KafkaConsumer, TopicPartition
    wanted = {(p["topic"], p["partition"], p["committed"]) for d in docs for g in d["groups"]
              for p in g["partitions"] if p["committed"] is not None and p["time_lag_ms"]}
    found = {}
    c = KafkaConsumer(bootstrap_servers=bootstrap.split(","), enable_auto_commit=False, consumer_timeout_ms=5000,
                      **consumer_args)
    try:
        for topic, partition, offset in sorted(wanted):
            tp = TopicPartition(topic, partition)
            c.assign([tp])
            c.seek(tp, offset)
            for m in c:
                if m.offset == offset:
                    found[(topic, partition, offset)] = m.timestamp
                break
    finally:
        c.close()
    return found
