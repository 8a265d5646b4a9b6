"""timelag.py — watching stopped groups' time lags over many refreshes, shared by the sim test
(tests/integration/test_timelag_sim.py) and the real-Kafka one (tests/kafka/test_kafka_describe.py).

refreshes() runs `lagtop --record --headless --format json` (one JSON document per refresh); backwards() and
not_from_records() say where a time lag broke its rules: while a committed offset stands still its time lag
grows at least as fast as the clock, and a time lag above 0 is the refresh's time minus the timestamp of the
record at the committed offset (exact), or, where retention deleted that record, an estimate marked as one.
"""
import os
import signal

import simtest


def refreshes(bootstrap, tmp, groups, count, interval="0.2", env=None, limit_s=60):
    """The JSON documents of count refreshes of groups, interval seconds apart (bounded: limit_s), recorded
    to tmp, lagtop stopped with SIGINT."""
    args = ["--record", os.path.join(tmp, "timelag.lt"), "-b", bootstrap, "--interval", interval]
    for g in groups:
        args += ["-g", g]
    return simtest.lagtop_headless(count, *args, limit_s=limit_s, stop=signal.SIGINT, env=env)[1]


def lagging(docs):
    """How many partition rows of the documents have a time lag above 0."""
    return sum(1 for d in docs for g in d["groups"] for p in g["partitions"] if p["time_lag_ms"])


def backwards(docs):
    """Where a partition's time lag grew less than the clock while its committed offset stood still behind
    the log end (a partition caught up, lag 0, has time lag 0 until a record arrives), but where an estimate
    was replaced by the exact time of the record at the committed offset (not_from_records checks those)."""
    found = []
    prev = {}
    for d in docs:
        for g in d["groups"]:
            for p in g["partitions"]:
                key = (g["group"], p["topic"], p["partition"])
                cur = (d["taken_at_ms"], p["committed"], p["time_lag_ms"], p["lag"], p["time_lag_estimated"])
                last = prev.get(key)
                prev[key] = cur
                if not last or last[2] is None or cur[2] is None or last[1] != cur[1] or not last[3]:
                    continue
                if last[4] and not cur[4]:
                    continue  # the record was read: the exact time replaces the estimate, up or down
                if cur[2] < last[2] + (cur[0] - last[0]):
                    found.append("%s %s:%d seq %d: %d ms, %d ms earlier %d ms" % (
                        key[0], key[1], key[2], d["seq"], cur[2], cur[0] - last[0], last[2]))
    return found


def not_from_records(docs, record_ts):
    """Time lags above 0 that break the record rule (record_ts: (topic, partition, offset) -> ms, read by
    kafka-python). Until its record is read a time lag is an estimate, marked (a refresh reads at most 32
    records within its budget, so on a busy machine the first refreshes may not reach them all); from the
    first exact one on it stays exact, taken_at_ms minus the record's timestamp, and by the last refresh every
    one is exact. A record deleted by retention (committed below the log start) is never read: an estimate,
    marked."""
    found = []
    exact_seen = set()
    last_state = {}
    for d in docs:
        for g in d["groups"]:
            all_exact = True
            for p in g["partitions"]:
                if not p["time_lag_ms"]:
                    continue
                where = "%s %s:%d seq %d" % (g["group"], p["topic"], p["partition"], d["seq"])
                if p["log_start"] is not None and p["committed"] < p["log_start"]:
                    all_exact = False
                    if p["time_lag_estimated"] is not True:
                        found.append("%s: deleted record, not estimated" % where)
                    continue
                key = (g["group"], p["topic"], p["partition"], p["committed"])
                ts = record_ts.get(key[1:])
                exact = p["time_lag_estimated"] is False
                last_state[key] = exact
                all_exact = all_exact and exact
                if exact and (ts is None or p["time_lag_ms"] != d["taken_at_ms"] - ts):
                    found.append("%s: exact %r, record %r" % (where, p["time_lag_ms"], ts))
                elif not exact and (key in exact_seen or p["time_lag_estimated"] is not True):
                    found.append("%s: %r estimated %r after it was exact" % (where, p["time_lag_ms"],
                                                                          p["time_lag_estimated"]))
                if exact:
                    exact_seen.add(key)
            if g["max_time_lag_ms"] and all_exact and g["max_time_lag_estimated"] is not False:
                found.append("%s seq %d: every time lag exact, max_time_lag_estimated %r" % (
                    g["group"], d["seq"], g["max_time_lag_estimated"]))
    found += ["%s %s:%d at %d: never read in %d refreshes" % (k + (len(docs),)) for k, exact in
              sorted(last_state.items()) if not exact]
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
