"""test_expiry_sim.py — offsets that really expire, against lagtop-sim: the sim expires committed
offsets by Kafka's rule (offsets.retention.minutes = 1, checked every second) and writes their tombstones to
__consumer_offsets; lagtop's forecast (`--once --format json` expires_at_ms) must be within one check
interval of the moment the offsets are really gone (kafka-python's admin client polled), for an Empty group
(a member committed, then left: counted from when it became Empty) and a simple group (commits without
joining: counted from the commit). After the expiry lagtop shows the partitions as expired — not lag 0,
not stale — and says the group restarts from auto.offset.reset; a group deleted before its expiry is not
shown as expired. Meanwhile the sim's retention by size moves a topic's log start: ListOffsets earliest
follows, a Fetch below it is OFFSET_OUT_OF_RANGE. About 70 s: the offsets retention cannot be shorter than a
minute (Kafka counts it in minutes).
"""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from simtest import Sim, find_group as find, kafka_python, lagtop, now_ms, ok, private_env, results  # noqa: E402

TESTS = 14
CHECK_MS = 1000
POLL_S = 0.2

def main():
    KafkaConsumer, KafkaAdminClient, TopicPartition, OffsetAndMetadata = kafka_python("KafkaConsumer", "KafkaAdminClient", "TopicPartition", "OffsetAndMetadata")
    print("1..%d" % TESTS)
    tmp = tempfile.mkdtemp(prefix="lagtop-expiry.")
    env = private_env(tmp, home=tmp, config=os.path.join(tmp, "xdg"))
    sim = Sim("--brokers", "1", "--auto-create-partitions", "2", "--offsets-retention-minutes", "1",
              "--offsets-retention-check-interval-ms", str(CHECK_MS), "--retention-bytes", "2000",
              "--log-retention-check-interval-ms", str(CHECK_MS), tmp=tmp)
    admin = None
    try:
        bs = sim.bootstrap
        admin = KafkaAdminClient(bootstrap_servers=bs)
        tp0, tp1 = TopicPartition("ex-orders", 0), TopicPartition("ex-orders", 1)

        # a simple group: commits without joining (generation -1); and one deleted before it expires
        for gid in ("ex-simple", "ex-deleted"):
            c = KafkaConsumer(bootstrap_servers=bs, group_id=gid, enable_auto_commit=False)
            c.assign([tp0, tp1])
            c.commit({tp0: OffsetAndMetadata(3, ""), tp1: OffsetAndMetadata(4, "")})
            c.close()
        admin.delete_consumer_groups(["ex-deleted"])
        # an Empty group: a member joins, commits and leaves
        c = KafkaConsumer(bootstrap_servers=bs, group_id="ex-empty", enable_auto_commit=False,
                          auto_offset_reset="earliest")
        c.subscribe(["ex-orders"])
        deadline = time.time() + 20
        while not c.assignment() and time.time() < deadline:
            c.poll(timeout_ms=200)
        c.commit({tp0: OffsetAndMetadata(1, ""), tp1: OffsetAndMetadata(2, "")})
        c.close()

        # meanwhile, retention by size (--retention-bytes 2000, checked every second): 40 batches of ~150 bytes
        from kafka import KafkaProducer
        from kafka.errors import OffsetOutOfRangeError
        prod = KafkaProducer(bootstrap_servers=bs, linger_ms=0)
        for i in range(40):
            prod.send("ex-logs", value=b"v" * 80, partition=0).get(timeout=10)
        prod.close()
        logs = TopicPartition("ex-logs", 0)
        c = KafkaConsumer(bootstrap_servers=bs, enable_auto_commit=False, auto_offset_reset="none")
        c.assign([logs])
        start = 0
        deadline = time.time() + 10
        while start == 0 and time.time() < deadline:
            start = c.beginning_offsets([logs])[logs]
            time.sleep(0.2)
        end = c.end_offsets([logs])[logs]
        ok(end == 40 and 20 <= start < 40, "retention by size: the log start moved (ListOffsets earliest follows), "
           "the end stayed", (start, end))
        c.seek(logs, 0)
        try:
            got = c.poll(timeout_ms=3000)
            err = None
        except OffsetOutOfRangeError as e:
            got, err = None, e
        ok(err is not None, "a Fetch below the log start answers OFFSET_OUT_OF_RANGE", got)
        c.seek(logs, start)
        recs = []
        deadline = time.time() + 10
        while not recs and time.time() < deadline:
            recs = c.poll(timeout_ms=500).get(logs, [])
        ok(recs and recs[0].offset == start, "a Fetch at the new log start reads from there", recs[:1])
        c.close()

        rc, out, err = lagtop("--once", "--format", "json", "-b", bs, "--timeout", "20s", env=env)
        doc = json.loads(out) if rc == 0 and out else {}
        forecast = {gid: (find(doc, gid) or {}).get("expires_at_ms") for gid in ("ex-simple", "ex-empty")}
        ok(all(forecast.values()), "lagtop forecasts the expiry of the simple and the Empty group", (rc, err, forecast))

        # poll the real offsets until they are gone (bounded: retention + 20 s)
        gone = {}
        deadline = time.time() + 80
        while len(gone) < 2 and time.time() < deadline:
            for gid in ("ex-simple", "ex-empty"):
                if gid in gone:
                    continue
                t = now_ms()
                try:
                    offs = admin.list_consumer_group_offsets(gid)
                except Exception:  # the group itself is gone too
                    offs = {}
                if not offs:
                    gone[gid] = t
            time.sleep(POLL_S)
        for gid in ("ex-simple", "ex-empty"):
            f, g = forecast.get(gid), gone.get(gid)
            ok(f and g and f <= g <= f + CHECK_MS + int(POLL_S * 1000) + 500,
               "%s: the offsets are gone within one check interval after lagtop's forecast" % gid,
               {"forecast": f, "gone": g, "late_ms": g and f and g - f})

        rc, out, err = lagtop("--once", "--format", "json", "-b", bs, "--timeout", "20s", env=env)
        doc = json.loads(out) if rc == 0 and out else {}
        for gid in ("ex-simple", "ex-empty"):
            g = find(doc, gid)
            parts = g["partitions"] if g else []
            ok(g and len(parts) == 2 and all("expired" in p["flags"] and p["committed"] is None and p["lag"] is None
                                             and "stale" not in p["flags"] for p in parts),
               "%s after expiry: both partitions flagged expired, committed and lag null (not 0), not stale" % gid, g)
            ok(g and g["expired_partitions"] == 2 and g["restart_from"] == "auto.offset.reset"
               and g["expired_at_ms"] and g["expired_at_ms"] >= forecast[gid],
               "%s: expired_partitions 2, restart_from auto.offset.reset, expired_at_ms after the forecast" % gid,
               g and {k: g.get(k) for k in ("expired_partitions", "restart_from", "expired_at_ms", "state")})
        ok(find(doc, "ex-deleted") is None, "a group deleted before its expiry is not shown as expired",
           find(doc, "ex-deleted"))
        cs = doc.get("commit_stream", {})
        ok(cs.get("state") == "live", "the commit stream read the tombstones and is live", cs)

        rc, out, err = lagtop("--once", "-b", bs, "--timeout", "20s", env=env)
        rows = [l.split() for l in out.splitlines() if l.startswith("ex-empty") or l.startswith("ex-simple")]
        ok(rc == 0 and len(rows) == 4 and all("expired" in r for r in rows),
           "table: the CURRENT-OFFSET of each expired partition reads 'expired'", out)
        warn = [l for l in err.splitlines() if "ex-empty" in l and "expired" in l]
        ok(len(warn) == 1 and "auto.offset.reset" in warn[0] and "does not know" in warn[0],
           "table: one warning line says the group restarts from auto.offset.reset, unknown to the broker", err)
    finally:
        if admin is not None:
            admin.close()
        sim.stop()
    return 0 if all(results) and len(results) == TESTS else 1


if __name__ == "__main__":
    sys.exit(main())
