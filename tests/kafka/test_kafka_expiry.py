#!/usr/bin/python3
"""test_kafka_expiry.py — committed offsets that really expire on Apache Kafka 3.9 and 4.x.

One single-node cluster per line, one line after the other (a line's polling starts right after its
groups are set up; most of the wall time is the retention), with offsets.retention.minutes=1 (the smallest value the broker accepts: atLeast(1)) and
offsets.retention.check.interval.ms=5000. On each:
  - a simple group: a kafka-python consumer assigns, commits both partitions and closes (no JoinGroup:
    offsets counted from their commit);
  - an Empty group: a real member (Java kafka-clients, RefConsumer) joins, consumes, commits and leaves
    (offsets counted from when the group became Empty);
  - on 4.x, a consumer-protocol (KIP-848) group: a Java member with group.protocol=consumer commits and
    leaves (Kafka counts each offset from its commit, not from the leave).
lagtop's forecast (`--once --format json` expires_at_ms) must be within one check interval of the moment
the real kafka-consumer-groups --describe stops showing the offsets (polled through kafka_tool_batch, about once a
second, bounded). A `--once --samples` started before the expiry and ending after it shows every group's
partitions go from committed to expired (never absent). Afterwards lagtop, reading the tombstones Kafka wrote to __consumer_offsets, shows each
group's partitions as expired (flag expired, committed and lag null: not lag 0, not stale; the group Dead as
Kafka deleted it) and restart_from auto.offset.reset.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
from simtest import exit_status, lagtop, note, ok, require_built, results  # noqa: E402

BUILD = os.environ.get("LT_BUILDDIR") or os.path.dirname(os.path.dirname(HERE))
LAGTOP = os.environ.get("LAGTOP") or os.path.join(BUILD, "lagtop")
TMP = tempfile.mkdtemp(prefix="lagtop-expiry-")
CHECK_MS = 5000
LINES = ("3.9", "4")
BASE_GROUPS = ("xp-simple", "xp-empty")
KIP848_GROUP = "xp-kip848"


def groups_of(line):
    return BASE_GROUPS + ((KIP848_GROUP,) if line != "3.9" else ())


def planned(line):
    """Test points per line: the forecast, per group the real tool and the state after, the table's warning,
    the long-running --once."""
    return 3 + 2 * len(groups_of(line))


def now_ms():
    return int(time.time() * 1000)


def lagtop_once(bootstrap, *extra):
    env = dict(os.environ, HOME=TMP, XDG_CONFIG_HOME=os.path.join(TMP, "xdg"), XDG_STATE_HOME=TMP)
    env.pop("LAGTOP_CONFIG", None)
    return lagtop("--once", "-b", bootstrap, "--timeout", "20s", *extra, env=env, timeout=90)


def find(doc, group):
    for g in (doc or {}).get("groups", []):
        if g["group"] == group:
            return g
    return None


def shows_offsets(out, groups):
    """Whether kafka-consumer-groups --describe printed a row with a committed offset."""
    for line in out.splitlines():
        cols = line.split()
        if len(cols) >= 4 and cols[0] in groups and cols[3].isdigit():
            return True
    return False


class Line:
    """One Kafka line's cluster, groups and observations."""

    def __init__(self, line):
        self.line = line
        self.groups = groups_of(line)
        self.watch = None  # a --once --samples started before the expiry
        self.kc = K.KafkaCluster(line, extra={"offsets.retention.minutes": "1",
                                              "offsets.retention.check.interval.ms": str(CHECK_MS)})
        self.tools = None
        self.label = "Kafka " + line
        self.forecast = {}
        self.committed = {}
        self.last_seen = {}  # group -> start of the last describe that still showed offsets
        self.gone = {}       # group -> end of the first describe that showed none

    def start(self):
        self.kc.start()
        self.label = "Kafka %s" % self.kc.version
        from kafka_tool_batch import ToolBatch
        self.tools = ToolBatch(self.line)

    def setup(self):
        from kafka import KafkaConsumer, TopicPartition
        from kafka.structs import OffsetAndMetadata
        K.create_topic(self.kc.bootstrap, "xp", 2, per_partition=5)
        c = KafkaConsumer(bootstrap_servers=self.kc.bootstrap.split(","), group_id="xp-simple",
                          enable_auto_commit=False, api_version=(2, 5, 0))
        c.assign([TopicPartition("xp", 0), TopicPartition("xp", 1)])
        c.commit({TopicPartition("xp", 0): OffsetAndMetadata(2, ""), TopicPartition("xp", 1): OffsetAndMetadata(3, "")})
        c.close()
        m = K.Member(self.kc, "java", "xp-empty", ["xp"], extra={"auto.offset.reset": "earliest"})
        try:
            if not m.wait_assigned(60) or not m.wait_for("committed 10", 60):
                raise RuntimeError("the Java member did not consume and commit: %s" % m.seen[-5:])
        finally:
            m.stop()
        if KIP848_GROUP in self.groups:
            m = K.Member(self.kc, "java", KIP848_GROUP, ["xp"], protocol="consumer",
                         extra={"auto.offset.reset": "earliest"})
            try:
                if not m.wait_assigned(60) or not m.wait_for("committed 10", 60):
                    raise RuntimeError("the consumer-protocol member did not consume and commit: %s" % m.seen[-5:])
            finally:
                m.stop()

    def start_watch(self):
        """lagtop --once --samples, 2 s apart, from now until 20 s after the last forecast."""
        last = max(f for f in self.forecast.values() if f)
        samples = max(2, (last - now_ms() + 20000) // 2000 + 1)
        env = dict(os.environ, HOME=TMP, XDG_CONFIG_HOME=os.path.join(TMP, "xdg"), XDG_STATE_HOME=TMP)
        env.pop("LAGTOP_CONFIG", None)
        self.watch = subprocess.Popen([LAGTOP, "--once", "-b", self.kc.bootstrap, "--timeout", "20s", "--format",
                                       "json", "--samples", str(samples), "--interval", "2"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def forecast_now(self):
        rc, out, err = lagtop_once(self.kc.bootstrap, "--format", "json")
        doc = json.loads(out) if rc == 0 and out else None
        for gid in self.groups:
            g = find(doc, gid)
            self.forecast[gid] = g and g.get("expires_at_ms")
            self.committed[gid] = len([p for p in (g or {}).get("partitions", []) if p["committed"] is not None])
        return rc, err, doc

    def poll(self):
        """One describe per group still showing offsets; True when both are gone."""
        for gid in self.groups:
            if gid in self.gone:
                continue
            t0 = now_ms()
            rc, out, err = self.tools.run("--bootstrap-server", self.kc.bootstrap, "--describe", "--group", gid)
            t1 = now_ms()
            if shows_offsets(out, self.groups):
                self.last_seen[gid] = t0
            else:
                self.gone[gid] = t1
        return len(self.gone) == len(self.groups)

    def stop(self):
        if self.watch and self.watch.poll() is None:
            self.watch.kill()
            self.watch.wait()
        if self.tools:
            self.tools.close()
        self.kc.stop()


def all_expired(g):
    parts = (g or {}).get("partitions", [])
    return g and len(parts) == 2 and all("expired" in p["flags"] and p["committed"] is None and p["lag"] is None
                                         and "stale" not in p["flags"] for p in parts)


def check_watch(ln):
    """The --once --samples that ran across the expiry: the last sample shows every group expired."""
    try:
        out, err = ln.watch.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        ln.watch.kill()
        out, err = ln.watch.communicate()
    doc = json.loads(out) if ln.watch.returncode == 0 and out else None
    bad = {gid: find(doc, gid) for gid in ln.groups if not all_expired(find(doc, gid))}
    ok(doc and not bad, "%s: a --once --samples started before the expiry shows %s expired at its end (not absent)"
       % (ln.label, ", ".join(ln.groups)), (ln.watch.returncode, err[-600:], bad))


def check_after(ln):
    rc, out, err = lagtop_once(ln.kc.bootstrap, "--format", "json")
    doc = json.loads(out) if rc == 0 and out else None
    for gid in ln.groups:
        g = find(doc, gid)
        parts = (g or {}).get("partitions", [])
        ok(g and ln.committed[gid] == 2 and len(parts) == 2 and all(
            "expired" in p["flags"] and p["committed"] is None and p["lag"] is None and "stale" not in p["flags"]
            for p in parts) and g["expired_partitions"] == 2 and g["restart_from"] == "auto.offset.reset"
           and g["state"] == "Dead",
           "%s: %s after expiry: its 2 partitions expired (committed and lag null, not stale), group Dead, "
           "restart_from auto.offset.reset" % (ln.label, gid), (rc, err, g))
    rc, out, err = lagtop_once(ln.kc.bootstrap)
    warn = [l for l in err.splitlines() if "expired its committed offsets" in l]
    ok(rc == 0 and len(warn) == len(ln.groups) and all("auto.offset.reset" in l for l in warn),
       "%s: the table output warns for every group that it restarts from auto.offset.reset" % ln.label, err)


def run_line(ln):
    try:
        ln.start()
        ln.setup()
        rc, err, doc = ln.forecast_now()
        ok(rc == 0 and all(ln.forecast.values()),
           "%s: lagtop forecasts the expiry of every group (%s)" % (ln.label, ", ".join(ln.groups)),
           (rc, err, ln.forecast))
    except Exception:
        ok(False, "%s: cluster, groups and forecast set up" % ln.label, traceback.format_exc())
        return
    if not all(ln.forecast.values()):
        return
    ln.start_watch()
    deadline = time.monotonic() + 60 + 40
    while time.monotonic() < deadline and not ln.poll():
        time.sleep(0.5)
    for gid in ln.groups:
        f, seen, gone = ln.forecast.get(gid), ln.last_seen.get(gid), ln.gone.get(gid)
        ok(f and gone and seen and gone >= f and seen <= f + CHECK_MS,
           "%s: %s: the real tool stops showing the offsets within one check interval (%d ms) after "
           "lagtop's forecast" % (ln.label, gid, CHECK_MS),
           {"forecast": f, "last_seen": seen, "gone": gone, "gone - forecast": gone and f and gone - f})
        if f and gone:
            note("%s %s: forecast %d, last shown %d, gone by %d (%+d ms)" % (ln.label, gid, f, seen or 0,
                                                                             gone, gone - f))
    check_watch(ln)
    if all(ln.gone.get(g) for g in ln.groups):
        check_after(ln)


def main():
    kt.require_lines(LINES)
    require_built(LAGTOP)
    print("1..%d" % sum(planned(l) for l in LINES))
    t0 = time.monotonic()
    for line in LINES:  # one line after the other: a line's polling must start right after its setup
        ln = Line(line)
        try:
            run_line(ln)
        finally:
            ln.stop()
    while len(results) < sum(planned(l) for l in LINES):
        ok(False, "not reached (an earlier step failed)")
    note("%.1f s in all" % (time.monotonic() - t0))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
