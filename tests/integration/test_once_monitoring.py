"""test_once_monitoring.py — `lagtop --once` for monitoring (status, Prometheus, --fail-on), against lagtop-sim.

- `--format prometheus` is parsed by a real parser (Debian's python3-prometheus-client, under
  /usr/bin/python3) and every sample equals the JSON of the same refresh: `once_formats` (a test helper,
  tests/integration/once_formats.c) writes one snapshot in both formats; the lagtop binary's own output is
  checked the same way on the static "fixture" scenario, where only this process's clock moves values.
- The text itself: one HELP and TYPE per metric, metrics sorted, no duplicate series, no NaN, unknown
  values left out.
- Status honesty: with fewer samples than the window a status is null ("complete": false) in JSON, absent
  in Prometheus and "-" in the table, except what needs no window (below the log start: STOP, so ERR);
  with the window full it is a verdict.
- `--fail-on warn|err`: exit 4 on a group at or above the level (ERR, and a WARN made by a consumer this
  test drives), 0 on OK, 0 (and a line on stderr) when the status is not evaluated yet.
"""
import json
import os
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import simtest  # noqa: E402
from simtest import LAGTOP, lagtop, missing_prereq, ok, results  # noqa: E402,F401

HELPER = os.path.join(os.environ.get("LT_BUILDDIR", os.path.dirname(LAGTOP)), "tests", "integration", "once_formats")
TMP = tempfile.mkdtemp(prefix="lagtop-mon-")
from prom_check import compare, expected_samples, parse, text_rules  # noqa: E402

def Sim(*args):
    return simtest.Sim(*args, tmp=TMP)


def prometheus_equals_json_of_the_same_refresh(bootstrap, samples, label):
    jpath, ppath = os.path.join(TMP, "once.json"), os.path.join(TMP, "once.prom")
    p = subprocess.run([HELPER, bootstrap, str(samples), "100", jpath, ppath], capture_output=True, text=True,
                       timeout=60)
    if p.returncode != 0:
        ok(False, "%s: once_formats ran" % label, p.stderr)
        return None
    doc = json.load(open(jpath))
    text = open(ppath).read()
    got, every = parse(text)
    want = expected_samples(doc)
    diffs = compare(want, got)
    ok(not diffs and len(every) == len(got) and len(got) > 20,
       "%s: every Prometheus sample (%d) equals the JSON of the same refresh, no duplicates" % (label, len(got)),
       "\n".join(diffs[:20]))
    ok(not text_rules(text), "%s: HELP and TYPE once per metric, metrics sorted, no NaN" % label, text_rules(text))
    return doc, got


class DrivenGroup:
    """A simple (memberless) group kept falling behind: every 40 ms 4 messages are produced and the group's
    offset moves 2 forward, so its lag grows while it commits (Burrow's WARN). kafka-python, Debian's.
    Between two samples (0.5 s apart) the lag can only shrink if this thread made at most one step in
    that time (a commit seen without the produce before it), so it tolerates a loaded machine."""

    def __init__(self, bootstrap, topic, group):
        from kafka import KafkaConsumer, KafkaProducer, TopicPartition
        from kafka.structs import OffsetAndMetadata
        self.servers = bootstrap.split(",")
        self.producer = KafkaProducer(bootstrap_servers=self.servers, acks=1, linger_ms=0)
        for _ in range(20):
            self.producer.send(topic, b"x", partition=0)
        self.producer.flush(10)
        self.consumer = KafkaConsumer(bootstrap_servers=self.servers, group_id=group, enable_auto_commit=False)
        self.tp = TopicPartition(topic, 0)
        self.OffsetAndMetadata = OffsetAndMetadata
        self.topic = topic
        self.offset = 1
        self.commit()
        self.stop_flag = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def commit(self):
        self.consumer.commit({self.tp: self.OffsetAndMetadata(self.offset, "")})

    def run(self):
        while not self.stop_flag.wait(0.04):
            for _ in range(4):
                self.producer.send(self.topic, b"x", partition=0)
            self.producer.flush(10)
            self.offset += 2
            self.commit()

    def stop(self):
        self.stop_flag.set()
        self.thread.join(10)
        self.producer.close(5)
        self.consumer.close(autocommit=False)


def main():
    os.environ["HOME"] = TMP
    os.environ["XDG_CONFIG_HOME"] = os.path.join(TMP, "xdg")
    os.environ.pop("LAGTOP_CONFIG", None)
    try:
        import prometheus_client.parser  # noqa: F401
    except ImportError:
        missing_prereq("python3-prometheus-client (Debian's, for /usr/bin/python3)")
    if not os.access(HELPER, os.X_OK):
        missing_prereq("tests/integration/once_formats (make check builds it)")
    print("1..17")

    # The fixture scenario is static and exactly known (src/sim/sim.h): fx-empty is Empty and committed
    # below the log start on fx-orders/0; fx-stable has two members that never move; fx-kip848 is a
    # consumer-protocol group; fx-rebalancing has no partitions.
    fx = Sim("--brokers", "3", "--scenario", "fixture")
    try:
        r = prometheus_equals_json_of_the_same_refresh(fx.bootstrap, 1, "fixture, 1 sample")
        if r:
            doc, got = r
            st = {g["group"]: (g["status"], g["complete"]) for g in doc["groups"]}
            pst = {(g["group"], p["partition"]): (p["status"], p["complete"]) for g in doc["groups"]
                   for p in g["partitions"]}
            # 1 sample of 10: only the fact that needs no window (fx-empty/0 below the log start) is a status
            ok(st == {"fx-empty": ("ERR", False), "fx-stable": (None, False), "fx-kip848": (None, False),
                      "fx-rebalancing": (None, False)}
               and pst[("fx-empty", 0)] == ("STOP", True) and pst[("fx-empty", 2)] == (None, False)
               and all(v == (None, False) for (g, _), v in pst.items() if g != "fx-empty"),
               "1 sample: status null and not complete, except below the log start (STOP, group ERR)", (st, pst))
            # one sample: a time lag only where it was read from the record at the committed offset (exact)
            timed = {(g["group"], p["topic"], str(p["partition"])) for g in doc["groups"] for p in g["partitions"]
                     if p["time_lag_ms"] is not None}
            exact = all(p["time_lag_estimated"] is False for g in doc["groups"] for p in g["partitions"]
                        if p["time_lag_ms"] is not None)
            sampled = {(dict(k[1])["group"], dict(k[1])["topic"], dict(k[1])["partition"]) for k in got
                       if k[0] == "kafka_consumergroup_group_lag_seconds"}
            untimed = any(p["time_lag_ms"] is None and p["lag"] for g in doc["groups"] for p in g["partitions"])
            ok(exact and sampled == timed and untimed
               and not any(k[0] == "lagtop_consumergroup_status" and ("group", "fx-stable") in k[1] for k in got),
               "1 sample: time lags only from records (exact); unknown time lag and unevaluated status are "
               "absent from Prometheus, not 0", (exact, sorted(sampled ^ timed)[:5], untimed))
        r = prometheus_equals_json_of_the_same_refresh(fx.bootstrap, 10, "fixture, 10 samples")
        if r:
            doc, got = r
            st = {g["group"]: (g["status"], g["complete"]) for g in doc["groups"]}
            # a full window: the static owned partitions of fx-stable do not move (STALL, so ERR); fx-kip848's
            # owner is unknown and its log idle: leftover lag, OK (status.c, rule 7)
            ok(doc["status_window"] == 10 and st["fx-stable"] == ("ERR", True) and st["fx-empty"] == ("ERR", True)
               and st["fx-kip848"][1] is True and st["fx-kip848"][0] in ("OK", "ERR")
               and st["fx-rebalancing"] == (None, False),
               "10 samples: every partition evaluated (complete), statuses are verdicts", st)

        # the binary itself: its Prometheus output parses and equals its JSON, two runs on a static cluster;
        # only the clock moves values: time lags read from records grow with it between the two runs, and a record
        # read that missed its refresh's budget in one run leaves that time lag estimated there (both are true
        # answers), so time lags are compared by presence and labels, every other value exactly
        rc1, jout, err1 = lagtop("--once", "--format", "json", "-b", fx.bootstrap, "--samples", "3",
                                 "--interval", "0.1")
        rc2, pout, err2 = lagtop("--once", "--format", "prometheus", "-b", fx.bootstrap, "--samples", "3",
                                 "--interval", "0.1")
        if rc1 == 0 and rc2 == 0:
            doc = json.loads(jout)
            got, every = parse(pout)
            any_time = 1e12
            clock = {"kafka_consumergroup_group_lag_seconds": any_time,
                     "kafka_consumergroup_group_max_lag_seconds": any_time,
                     "lagtop_refresh_timestamp_seconds": 60, "lagtop_refresh_duration_seconds": 5}
            diffs = compare(expected_samples(doc), got, clock)
            ok(not diffs and len(every) == len(got), "lagtop --once --format prometheus parses and equals its JSON",
               "\n".join(diffs[:20]))
            ok(not text_rules(pout), "lagtop --once --format prometheus: text rules", text_rules(pout))
        else:
            ok(False, "lagtop --once --format prometheus parses and equals its JSON", err1 + err2)
            ok(False, "lagtop --once --format prometheus: text rules")

        # the table and CSV say "-" / nothing for a status not evaluated yet, never OK
        rc, out, err = lagtop("--once", "-b", fx.bootstrap, "-G", "^fx-(stable|empty)$")
        rows = [l.split() for l in out.splitlines()]
        col = {c: i for i, c in enumerate(rows[0])} if rows else {}
        cells = [(r[0], r[col["PARTITION"]], r[col["STATUS"]]) for r in rows[1:]] if "STATUS" in col else []
        ok(rc == 0 and sorted(cells) == [("fx-empty", "0", "STOP"), ("fx-empty", "2", "-"), ("fx-stable", "0", "-"),
                                         ("fx-stable", "1", "-"), ("fx-stable", "2", "-")],
           "table, 1 sample: STATUS '-' until evaluated, STOP below the log start", out)
        rc, out, err = lagtop("--once", "--format", "csv", "-b", fx.bootstrap, "-G", "^fx-stable$")
        import csv
        import io
        st = [r["status"] for r in csv.DictReader(io.StringIO(out))]
        ok(rc == 0 and st == ["", "", ""], "CSV, 1 sample: an empty status field, not OK", out)

        # --fail-on
        rc, out, err = lagtop("--once", "-b", fx.bootstrap, "-G", "^fx-empty$", "--fail-on", "err")
        ok(rc == 4 and "fx-empty" in out, "--fail-on err: exit 4 on an ERR group (below the log start), output printed",
           (rc, out, err))
        rc, out, err = lagtop("--once", "-b", fx.bootstrap, "-G", "^fx-stable$", "--fail-on", "warn")
        ok(rc == 0 and "1 of 1 groups have no status yet" in err and "--samples 10" in err,
           "--fail-on warn: a status not evaluated yet does not fail (exit 0) and is reported", (rc, err))
        rc, out, err = lagtop("--once", "-b", fx.bootstrap, "-G", "^fx-stable$", "--fail-on", "err", "--samples", "10",
                              "--interval", "0.1", "--format", "json")
        ok(rc == 4 and json.loads(out)["groups"][0]["status"] == "ERR",
           "--fail-on err with a full window: the stalled group fails (exit 4)", (rc, err))
    finally:
        fx.stop()

    # WARN and OK on a moving cluster: one group this test keeps behind, and a caught-up one
    sim = Sim("--brokers", "1", "--scenario", "fixture", "--auto-create-partitions", "1")
    driven = None
    try:
        driven = DrivenGroup(sim.bootstrap, "mon-topic", "mon-slow")
        from kafka import KafkaConsumer, TopicPartition
        from kafka.structs import OffsetAndMetadata
        done = KafkaConsumer(bootstrap_servers=sim.bootstrap.split(","), group_id="mon-done",
                             enable_auto_commit=False)
        tp = TopicPartition("fx-orders", 0)
        done.commit({tp: OffsetAndMetadata(1000, "")})  # fx-orders/0 ends at 1000: caught up
        done.close(autocommit=False)
        rc, out, err = lagtop("--once", "--format", "json", "-b", sim.bootstrap, "-G", "^mon-(slow|done)$",
                              "--samples", "10", "--interval", "0.5", "--fail-on", "warn")
        d = json.loads(out) if out else {"groups": []}
        st = {g["group"]: (g["status"], g["complete"]) for g in d["groups"]}
        ok(rc == 4 and st == {"mon-slow": ("WARN", True), "mon-done": ("OK", True)},
           "--fail-on warn: a group falling behind while committing is WARN: exit 4", (rc, st, err))
        rc, out, err = lagtop("--once", "-b", sim.bootstrap, "-G", "^mon-slow$", "--samples", "10",
                              "--interval", "0.5", "--fail-on", "err")
        ok(rc == 0 and "no status yet" not in err, "--fail-on err: a WARN group does not fail (exit 0)", (rc, out, err))
        rc, out, err = lagtop("--once", "-b", sim.bootstrap, "-G", "^mon-done$", "--fail-on", "warn")
        ok(rc == 0 and " OK" in out, "--fail-on warn: a caught-up group is OK from the first sample (exit 0)",
           (rc, out, err))
    finally:
        if driven:
            driven.stop()
        sim.stop()
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
