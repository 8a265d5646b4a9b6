"""test_commitstream_sim.py — the commit stream (__consumer_offsets) end to end: a real client (kafka-python,
Debian's) commits at known moments against lagtop-sim, and `lagtop --once` must report what it did:
the last commit's time, commits per minute, the time since the offset moved, and for the group once
it is Empty the offset-expiry forecast = when it became Empty (or its last commit) + the
offsets.retention.minutes the sim serves, with a warning when that is within the horizon. With the
stream switched off (config) or denied by the cluster (the sim's --deny-offsets-topic), lagtop still
works and the JSON says why the commit fields are empty.
"""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from simtest import (Sim, find_group as find, find_partition as part, lagtop_timed, kafka_python, now_ms, ok,  # noqa: E402
                     private_env, results)
TESTS = 21
RETENTION_MIN = 60

def java_hash(s):
    h = 0
    for ch in s.encode():
        h = (31 * h + ch) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def coordinator_node(group, brokers, partitions=50):
    """The sim's coordinator of a group: the leader of its __consumer_offsets partition (Kafka's
    abs(hashCode) % partitions; the sim puts partition p on broker p % brokers + 1)."""
    return abs(java_hash(group)) % partitions % brokers + 1


def commit_at(consumer, tp, offset):
    """One synchronous commit; returns the wall-clock interval it happened in."""
    from kafka.structs import OffsetAndMetadata
    before = now_ms()
    consumer.commit({tp: OffsetAndMetadata(offset, "")})
    return before, now_ms()


def main():
    KafkaConsumer, KafkaProducer, TopicPartition = kafka_python("KafkaConsumer", "KafkaProducer", "TopicPartition")
    print("1..%d" % TESTS)
    tmp = tempfile.mkdtemp(prefix="lagtop-cstream.")
    env = private_env(tmp, home=tmp, config=os.path.join(tmp, "xdg"))

    sim = Sim("--brokers", "1", "--offsets-retention-minutes", str(RETENTION_MIN), "--auto-create-partitions", "2",
              tmp=tmp)
    consumer = None
    try:
        producer = KafkaProducer(bootstrap_servers=sim.bootstrap)
        for i in range(60):
            producer.send("cs-orders", value=b"m%d" % i, partition=i % 2)
        producer.flush()
        producer.close()

        # A member of group cs-live commits partition 0 six times (moving), partition 1 twice: the
        # same offset, 3 s apart, so that "offset last moved" is the first of the two.
        consumer = KafkaConsumer(bootstrap_servers=sim.bootstrap, group_id="cs-live", client_id="cs-py",
                                 enable_auto_commit=False, auto_offset_reset="earliest")
        tp0, tp1 = TopicPartition("cs-orders", 0), TopicPartition("cs-orders", 1)
        consumer.subscribe(["cs-orders"])
        deadline = time.time() + 20
        while not consumer.assignment() and time.time() < deadline:
            consumer.poll(timeout_ms=200)
        ok(consumer.assignment() == {tp0, tp1}, "the kafka-python consumer joined and owns both partitions",
           consumer.assignment())
        p0 = [commit_at(consumer, tp0, 5 * (k + 1)) for k in range(6)]
        p1_first = commit_at(consumer, tp1, 7)
        time.sleep(3)
        p1_second = commit_at(consumer, tp1, 7)

        rc, out, err, t0, t1 = lagtop_timed("--once", "--format", "json", "-b", sim.bootstrap, "--timeout", "20s", env=env)
        doc = json.loads(out) if rc == 0 and out else {}
        ok(rc == 0 and doc.get("commit_stream", {}).get("state") == "live",
           "--once waits for the commit stream to load: state live", (rc, err, doc.get("commit_stream")))
        g = find(doc, "cs-live")
        a, b = part(g, "cs-orders", 0), part(g, "cs-orders", 1)
        ok(a and b and a["committed"] == 30 and b["committed"] == 7, "committed offsets as the client left them",
           (a, b))
        ok(a and p0[-1][0] - 5 <= a["last_commit_ms"] <= p0[-1][1] + 5
           and b and p1_second[0] - 5 <= b["last_commit_ms"] <= p1_second[1] + 5,
           "last_commit_ms is the time of each partition's last commit (a repeat of the same offset counts)",
           (a and a["last_commit_ms"], p0[-1], b and b["last_commit_ms"], p1_second))
        # all commits within a minute: the rate is the count over the minimum span of one minute
        ok(a and abs(a["commits_per_min"] - 6) < 1e-6 and b and abs(b["commits_per_min"] - 2) < 1e-6
           and g and abs(g["commits_per_min"] - 8) < 1e-6,
           "commits_per_min: 6 and 2 on the partitions, 8 for the group",
           (a and a["commits_per_min"], b and b["commits_per_min"], g and g["commits_per_min"]))
        # unmoved_ms is measured at some moment within [t0, t1]: the offset moved at the first commit of 7
        moved_lo, moved_hi = (t0 - b["unmoved_ms"], t1 - b["unmoved_ms"]) if b and b["unmoved_ms"] is not None \
            else (0, 0)
        ok(moved_lo <= p1_first[1] + 5 and moved_hi >= p1_first[0] - 5,
           "unmoved_ms counts from the first commit of the current offset, not from its repeat",
           (moved_lo, moved_hi, p1_first, p1_second))
        ok(a and a["repeating"] is False and b and b["repeating"] is False,
           "repeating is false (two commits of an offset in seconds are not a stuck consumer yet)", (a, b))
        ok(g and g["state"] == "Stable" and g["expires_at_ms"] is None and g["expiry_warning"] is False,
           "a Stable group keeps its subscribed offsets: no expiry forecast", g and {k: g[k] for k in (
               "state", "expires_at_ms", "expiry_warning")})

        # The member leaves: the group is Empty and its offsets expire RETENTION_MIN after that.
        left0 = now_ms()
        consumer.close()
        consumer = None
        left1 = now_ms()
        rc, out, err, t0, t1 = lagtop_timed("--once", "--format", "json", "-b", sim.bootstrap, "--timeout", "20s", env=env)
        doc = json.loads(out) if rc == 0 and out else {}
        g = find(doc, "cs-live")
        ok(g and g["state"] == "Empty", "after close() the group is Empty", g and g["state"])
        retention = RETENTION_MIN * 60000
        exp = g["expires_at_ms"] if g else None
        # Kafka (and the sim) write the group's metadata with currentStateTimestamp when it turns Empty
        ok(exp is not None and left0 - 5 <= exp - retention <= left1 + 5,
           "expires_at_ms = when the group became Empty + the sim's offsets.retention.minutes",
           (exp, exp and exp - retention, p0[-1], (left0, left1), doc.get("commit_stream")))
        ok(g and g["expiry_warning"] is True, "expiry within the 3-day horizon: expiry_warning", g)
        rc, out, err, t0, t1 = lagtop_timed("--once", "-b", sim.bootstrap, "--timeout", "20s", env=env)
        warn = [l for l in err.splitlines() if "cs-live" in l and "expire" in l]
        ok(rc == 0 and len(warn) == 1 and warn[0].startswith("lagtop: warning: group cs-live: committed offsets "
                                                             "expire in "),
           "table output: one warning line on stderr for the expiring group", err)

        # Switched off by the configuration: lagtop polls as before and says why the fields are empty.
        conf = os.path.join(tmp, "off.conf")
        with open(conf, "w") as f:
            f.write("general = { commit_stream = false; };\n")
        rc, out, err, t0, t1 = lagtop_timed("--once", "--format", "json", "-b", sim.bootstrap, "--config", conf, env=env)
        doc = json.loads(out) if rc == 0 and out else {}
        g = find(doc, "cs-live")
        cs = doc.get("commit_stream", {})
        ok(rc == 0 and err == "" and cs.get("state") == "off" and "commit_stream = false" in (cs.get("reason") or ""),
           "commit_stream = false: state off, the reason names the setting", (rc, err, cs))
        a = part(g, "cs-orders", 0)
        ok(a and a["committed"] == 30 and a["last_commit_ms"] is None and a["commits_per_min"] is None
           and a["unmoved_ms"] is None and a["repeating"] is None and g["expires_at_ms"] is None,
           "off: committed offsets still polled, the commit fields are null", a)
        rc, out, err, t0, t1 = lagtop_timed("--once", "--format", "json", "-b", sim.bootstrap, "--no-commit-stream", env=env)
        doc = json.loads(out) if rc == 0 and out else {}
        a = part(find(doc, "cs-live"), "cs-orders", 0)
        ok(rc == 0 and doc.get("commit_stream", {}).get("state") == "off" and a and a["committed"] == 30
           and a["last_commit_ms"] is None, "--no-commit-stream: the same, for one run", (rc, err, doc.get("commit_stream"), a))
    finally:
        if consumer is not None:
            consumer.close()
        sim.stop()

    # A cluster that denies __consumer_offsets: polling alone, and the reason says so.
    sim = Sim("--brokers", "1", "--deny-offsets-topic", tmp=tmp)
    try:
        consumer = KafkaConsumer(bootstrap_servers=sim.bootstrap, group_id="cs-denied", enable_auto_commit=False)
        from kafka.structs import OffsetAndMetadata
        tp = TopicPartition("cs-orders", 0)
        producer = KafkaProducer(bootstrap_servers=sim.bootstrap)
        for i in range(10):
            producer.send("cs-orders", value=b"m", partition=0)
        producer.flush()
        producer.close()
        consumer.commit({tp: OffsetAndMetadata(4, "")})
        consumer.close()
        rc, out, err, t0, t1 = lagtop_timed("--once", "--format", "json", "-b", sim.bootstrap, "--timeout", "10s", env=env)
        doc = json.loads(out) if rc == 0 and out else {}
        cs = doc.get("commit_stream", {})
        ok(rc == 0 and err == "" and cs.get("state") == "denied", "denied: exit 0, no warning, state denied",
           (rc, err, cs))
        ok("not authorized to read __consumer_offsets" in (cs.get("reason") or "")
           and "polling only" in (cs.get("reason") or ""), "denied: the reason says why, in one line", cs)
        g = find(doc, "cs-denied")
        a = part(g, "cs-orders", 0)
        ok(a and a["committed"] == 4 and a["lag"] == 6 and a["last_commit_ms"] is None
           and a["commits_per_min"] is None and g["expires_at_ms"] is None,
           "denied: committed offset and lag from polling, the commit fields are null", g)
        rc, out, err, t0, t1 = lagtop_timed("--once", "-b", sim.bootstrap, "--timeout", "10s", env=env)
        ok(rc == 0 and "cs-denied" in out and err == "", "denied: the table works as before", (rc, out, err))
    finally:
        sim.stop()

    # The retention answer comes after the history: broker 1 (whom the reader asks) holds back
    # DescribeConfigs, while the group's commits live on another broker's partition, so the history is
    # loaded long before the answer. --once must wait for it, not print a snapshot without the forecast
    # (seen on a loaded CI machine, where the answer was merely late).
    sim = Sim("--brokers", "3", "--offsets-retention-minutes", str(RETENTION_MIN), "--fault-broker", "1",
              "--latency-api", "32", "--latency-ms", "3000", tmp=tmp)
    try:
        group = next(n for n in ("cs-slow-%d" % k for k in range(100)) if coordinator_node(n, 3) != 1)
        producer = KafkaProducer(bootstrap_servers=sim.bootstrap)
        for i in range(10):
            producer.send("cs-orders", value=b"m", partition=0)
        producer.flush()
        producer.close()
        consumer = KafkaConsumer(bootstrap_servers=sim.bootstrap, group_id=group, enable_auto_commit=False)
        committed = commit_at(consumer, TopicPartition("cs-orders", 0), 4)
        consumer.close()
        # two samples a second apart: the last refresh ends with the history loaded, the answer not in
        rc, out, err, t0, t1 = lagtop_timed("--once", "--samples", "2", "--interval", "1", "--format", "json",
                                      "-b", sim.bootstrap, "--timeout", "20s", env=env)
        doc = json.loads(out) if rc == 0 and out else {}
        cs = doc.get("commit_stream", {})
        g = find(doc, group)
        ok(rc == 0 and cs.get("state") == "live" and cs.get("reason") is None,
           "slow retention answer: --once waited for it (commit stream live, no reason)", (rc, err, cs))
        exp = g["expires_at_ms"] if g else None
        ok(exp is not None and committed[0] - 5 <= exp - RETENTION_MIN * 60000 <= committed[1] + 5,
           "slow retention answer: the simple group's forecast = its last commit + offsets.retention.minutes",
           (exp, committed, g))
    finally:
        sim.stop()
    return 0 if all(results) and len(results) == TESTS else 1


if __name__ == "__main__":
    sys.exit(main())
