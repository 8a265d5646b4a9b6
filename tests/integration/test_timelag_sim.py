"""test_timelag_sim.py — a stopped group's time lag, refresh after refresh, against lagtop-sim.

The demo's inventory-sync (Empty) and clickstream-replay (no members) never commit: their committed offsets
stand still while the log ends grow. Over 60 refreshes of `--record --headless --format json` (one JSON
document per refresh) the time lag of every partition whose committed offset did not move must grow at
least as fast as the clock, and never go back. Their committed offsets lie before lagtop's log-end history, so
each time lag comes from the timestamp of the record at the committed offset: exact (not marked estimated,
nor the group's largest), and equal to the refresh's time minus the timestamp kafka-python reads there; where
retention deleted that record (committed below the log start), an estimate marked as one.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import simtest  # noqa: E402
from simtest import ok, results  # noqa: E402

REFRESHES = 60
GROUPS = ("inventory-sync", "clickstream-replay")


def refreshes(bootstrap, tmp):
    """The JSON documents of REFRESHES refreshes 0.2 s apart (bounded: 60 s), lagtop stopped with SIGINT."""
    args = [simtest.LAGTOP, "--record", os.path.join(tmp, "rec.lt"), "--headless", "--format", "json",
            "-b", bootstrap, "--interval", "0.2"]
    for g in GROUPS:
        args += ["-g", g]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         text=True)
    docs = []
    deadline = time.time() + 60
    try:
        while len(docs) < REFRESHES and time.time() < deadline:
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


def backwards(docs):
    """Where a partition's time lag grew less than the clock while its committed offset stood still."""
    found = []
    prev = {}
    for d in docs:
        for g in d["groups"]:
            for p in g["partitions"]:
                key = (g["group"], p["topic"], p["partition"])
                cur = (d["taken_at_ms"], p["committed"], p["time_lag_ms"])
                last = prev.get(key)
                prev[key] = cur
                if not last or last[2] is None or cur[2] is None or last[1] != cur[1]:
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


def read_record_ts(bootstrap, docs):
    """The timestamp of the record at every committed offset the documents show, read by kafka-python."""
    from kafka import KafkaConsumer, TopicPartition
    wanted = {(p["topic"], p["partition"], p["committed"]) for d in docs for g in d["groups"]
              for p in g["partitions"] if p["committed"] is not None and p["time_lag_ms"]}
    found = {}
    c = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, consumer_timeout_ms=5000)
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


def main(tmp):
    os.environ["HOME"] = tmp
    os.environ["XDG_CONFIG_HOME"] = os.path.join(tmp, "xdg")
    os.environ.pop("LAGTOP_CONFIG", None)
    try:
        import kafka  # noqa: F401
    except ImportError:
        simtest.missing_prereq("kafka-python (Debian package python3-kafka)")
    print("1..3")
    with simtest.Sim("--scenario", "demo", tmp=tmp) as sim:
        docs = refreshes(sim.bootstrap, tmp)
        record_ts = read_record_ts(sim.bootstrap, docs)
    lagging = sum(1 for d in docs for g in d["groups"] for p in g["partitions"] if p["time_lag_ms"])
    ok(len(docs) == REFRESHES and lagging > 0, "%d refreshes of the stopped groups, with time lags" % REFRESHES,
       "%d refreshes, %d time lags" % (len(docs), lagging))
    bad = backwards(docs)
    ok(not bad, "a committed offset standing still: its time lag grows with the clock, never back",
       "\n".join(bad[:20]))
    bad = not_from_records(docs, record_ts)
    ok(not bad and record_ts, "committed offsets before the history: every time lag is exact, the refresh's time "
       "minus the timestamp of the record at the committed offset (as kafka-python reads it)", "\n".join(bad[:20]))
    return 0 if all(results) else 1


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="lagtop-test.") as TMP:
        sys.exit(main(TMP))
