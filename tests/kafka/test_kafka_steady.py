#!/usr/bin/python3
"""test_kafka_steady.py — the steady refresh against full polling on real Apache Kafka 4.x and 3.9.

With the commit stream live, lagtop builds quiet groups from the last snapshot and the stream's commits
and asks DescribeGroups/OffsetFetch only for groups that may have changed (src/kafka/refresh_steady.c). Here
the cluster is a real one and so are the changes. Two single-node clusters, started and run at once:
  - Kafka 4.x, PLAINTEXT;
  - Kafka 3.9 with a SASL_PLAINTEXT (SCRAM) listener and the StandardAuthorizer: lagtop's steady runs
    connect as alice, whom ACLs allow everything; the harness, the real tools and the members use the
    PLAINTEXT listener (a super user).
On each, 40 groups with commits (the real kafka-consumer-groups, one batch): the sweep (a 60 s slice per
refresh) cannot reach the last ones in a run, so a change to them shows only if the steady refresh
itself notices it. Each case runs `lagtop --once --format json --samples N --interval 1` with
LAGTOP_REFRESH_STATS=1 (one stderr line per refresh: steady or polled, and why), changes the cluster
once two refreshes were steady, and compares every number of the run's last sample with a run that
polls everything (LAGTOP_FULL_POLL=1) on the cluster left as it is:
  1. a reset by lagtop, a reset by the real kafka-consumer-groups, a real member (kafka-python) joining
     an Empty group (a rebalance; it consumes and commits);
  2. that member leaving, a group deleted by lagtop;
  3. (3.9) the commit stream cut off: an ACL denying alice Read on __consumer_offsets, then a reset by
     the real tool. lagtop must poll from then on, say why (stats line, JSON commit_stream), and still
     equal full polling.
Before the cases, a single `--once` (no last snapshot: every group described) takes every committed offset
from the stream, with no OffsetFetch, and equals full polling.
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
from simtest import diff_by_key as diff, find_group as group_of, group_numbers as numbers, json_from, note, ok, plan, \
    require_built, results  # noqa: E402

BUILD = os.environ.get("LT_BUILDDIR") or os.path.dirname(os.path.dirname(HERE))
LAGTOP = os.environ.get("LAGTOP") or os.path.join(BUILD, "lagtop")
TMP = tempfile.mkdtemp(prefix="lagtop-steady-kafka-")
PASSWORD = "steady-secret-1"
SAMPLES = 8
N_FILLER = 36
CHANGED = ("zz-lagtop-reset", "zz-tool-reset", "zz-join", "zz-delete")
# checks per line: the groups, the single --once's 2, 3 for each change case, and on 3.9 the cut-off's 3
PLAN = {"4": 9, "3.9": 12}


def lagtop_env(**extra):
    env = dict(os.environ, HOME=TMP, XDG_CONFIG_HOME=os.path.join(TMP, "xdg"), XDG_STATE_HOME=TMP)
    for k in ("LAGTOP_CONFIG", "LAGTOP_FULL_POLL", "LAGTOP_REFRESH_STATS"):
        env.pop(k, None)
    env.update(extra)
    return env


class Line:
    """One Kafka line's cluster, its tool batch and how lagtop connects to it."""

    def __init__(self, line):
        self.line = line
        self.secure = line == "3.9"
        sec = None
        if self.secure:
            sec = K.Security(listeners=[("SASL_PLAINTEXT", "SASL_PLAINTEXT", {})], scram={"alice": PASSWORD},
                             authorizer=True)
        self.kc = K.KafkaCluster(line, security=sec)
        self.tools = None
        self.label = "Kafka " + line
        self.member = None

    def connect_args(self):
        """How the steady runs connect: as alice over SCRAM on 3.9 (so an ACL can cut her stream off)."""
        if not self.secure:
            return ["-b", self.kc.bootstrap]
        return ["-b", self.kc.listener("SASL_PLAINTEXT"), "-X", "security.protocol=SASL_PLAINTEXT",
                "-X", "sasl.mechanism=SCRAM-SHA-512", "-X", "sasl.username=alice", "-X", "sasl.password=" + PASSWORD]

    def start(self):
        self.kc.start()
        self.label = "Kafka %s" % self.kc.version
        from kafka_tool_batch import ToolBatch
        self.tools = ToolBatch(self.line)
        if self.secure:
            for acl in (("--operation", "All", "--topic", "*"), ("--operation", "All", "--group", "*"),
                        ("--operation", "All", "--cluster")):
                rc, out, err = self.kc.acls("--add", "--allow-principal", "User:alice", *acl)
                if rc != 0:
                    raise RuntimeError("kafka-acls: %s" % (out + err))
        K.create_topic(self.kc.bootstrap, "st-a", 2, per_partition=6)
        K.create_topic(self.kc.bootstrap, "st-b", 3, per_partition=4)
        fillers = ["g-%02d" % i for i in range(N_FILLER)]
        for topic, groups in (("st-a", fillers[::2] + list(CHANGED)), ("st-b", fillers[1::2])):
            args = ["--bootstrap-server", self.kc.bootstrap, "--reset-offsets", "--topic", topic, "--to-offset",
                    "2", "--execute"]
            for g in groups:
                args += ["--group", g]
            rc, out, err = self.tools.run(*args, timeout=90)
            if rc != 0:
                raise RuntimeError("kafka-consumer-groups --reset-offsets: %s" % (out + err)[-2000:])

    def run_steady(self, change=None, after=2):
        """--once --samples N with a change once `after` refreshes were steady: (rc, doc, stats, stderr)."""
        outf = tempfile.TemporaryFile(mode="w+")
        p = subprocess.Popen([LAGTOP, "--once", "--format", "json", "--samples", str(SAMPLES), "--interval", "1",
                              "--timeout", "10s"] + self.connect_args(),
                             stdout=outf, stderr=subprocess.PIPE, text=True, env=lagtop_env(LAGTOP_REFRESH_STATS="1"))
        stats, other = [], []
        changed = change is None
        box = {}

        def read():
            for line in p.stderr:
                if line.startswith("lagtop: refresh "):
                    stats.append(line.strip())
                else:
                    other.append(line)
        t = threading.Thread(target=read, daemon=True)
        t.start()
        deadline = time.monotonic() + 100
        while p.poll() is None and time.monotonic() < deadline:
            if not changed and sum(": steady," in x for x in stats) >= after:
                try:
                    change()
                except Exception:  # noqa: BLE001 - reported with the case
                    box["error"] = traceback.format_exc()
                changed = True
            time.sleep(0.05)
        if p.poll() is None:
            p.kill()
        p.wait()
        t.join(5)
        doc = json_from(outf)
        if not changed or "error" in box:
            other.append("the change did not run: %s" % box.get("error", "no two steady refreshes"))
        return p.returncode, doc, stats, "".join(other)

    def run_polled(self):
        p = subprocess.run([LAGTOP, "--once", "--format", "json", "--timeout", "10s"] + self.connect_args(),
                           capture_output=True, text=True, env=lagtop_env(LAGTOP_FULL_POLL="1"), timeout=90)
        try:
            return p.returncode, json.loads(p.stdout), p.stderr
        except ValueError:
            return p.returncode, {}, p.stderr

    def check_case(self, title, change, want_steady=True):
        rc, doc, stats, err = self.run_steady(change)
        rc2, polled, err2 = self.run_polled()
        last = stats[-1] if stats else ""
        note("%s: %s: last refresh: %s" % (self.label, title, last[len("lagtop: "):]))
        if want_steady:
            ok(rc == 0 and len(stats) == SAMPLES and ": steady," in last
               and "the change did not run" not in err,
               "%s: %s: the run's last refresh was steady" % (self.label, title), (rc, err, stats))
        ok(rc2 == 0 and numbers(doc) and numbers(doc) == numbers(polled),
           "%s: %s: every number equals a full-polling refresh" % (self.label, title),
           diff(numbers(doc), numbers(polled)) + "\n" + err2)
        return doc, stats, err

    # ---- the cases ----
    def case_once(self, polled):
        """One --once refresh: every group described, its committed offsets from the stream."""
        p = subprocess.run([LAGTOP, "--once", "--format", "json", "--timeout", "10s"] + self.connect_args(),
                           capture_output=True, text=True, env=lagtop_env(LAGTOP_REFRESH_STATS="1"), timeout=90)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = {}
        stats = [x for x in p.stderr.splitlines() if x.startswith("lagtop: refresh ")]
        note("%s: --once: %s" % (self.label, stats and stats[0][len("lagtop: "):]))
        n = len(polled.get("groups", []))
        ok(p.returncode == 0 and len(stats) == 1 and ", %d described, 0 offsets fetched," % n in stats[0],
           "%s: --once: %d groups described, no OffsetFetch (offsets from the stream)" % (self.label, n),
           (p.returncode, p.stderr))
        ok(numbers(doc) and numbers(doc) == numbers(polled),
           "%s: --once with offsets from the stream: every number equals a full-polling refresh" % self.label,
           diff(numbers(doc), numbers(polled)))

    def case_changes(self):
        out = {}

        def change():
            p = subprocess.run([LAGTOP, "-b", self.kc.bootstrap, "--reset-offsets", "--group", "zz-lagtop-reset",
                                "--topic", "st-a", "--to-earliest", "--execute"], capture_output=True, text=True,
                               env=lagtop_env(), timeout=60)
            out["lagtop"] = (p.returncode, p.stdout + p.stderr)
            out["tool"] = self.tools.run("--bootstrap-server", self.kc.bootstrap, "--reset-offsets", "--group",
                                         "zz-tool-reset", "--topic", "st-a", "--to-latest", "--execute")
            self.member = K.Member(self.kc, "kafka-python", "zz-join", ["st-a"], client_id="steady-py")
            out["joined"] = self.member.wait_assigned(30)
            out["committed"] = self.member.wait_for("committed", 20)
        doc, _, _ = self.check_case("resets by lagtop and by kafka-consumer-groups, a member joins", change)
        a, b, j = group_of(doc, "zz-lagtop-reset"), group_of(doc, "zz-tool-reset"), group_of(doc, "zz-join")
        ok(out.get("lagtop", (1,))[0] == 0 and out.get("tool", (1,))[0] == 0 and out.get("joined")
           and a and all(p["committed"] == p["log_start"] for p in a["partitions"])
           and b and all(p["committed"] == p["log_end"] for p in b["partitions"])
           and j and j["state"] == "Stable" and j["members"] == 1
           and j["member_list"][0]["client_id"] == "steady-py",
           "%s: the steady run shows both resets and the new member" % self.label,
           (out, a and a["partitions"], b and b["partitions"], j))

    def case_leave_delete(self):
        out = {}

        def change():
            if self.member:
                out["member rc"] = self.member.stop()
                self.member = None
            p = subprocess.run([LAGTOP, "-b", self.kc.bootstrap, "--delete", "--group", "zz-delete"],
                               capture_output=True, text=True, env=lagtop_env(), timeout=60)
            out["delete"] = (p.returncode, p.stdout + p.stderr)
        doc, _, _ = self.check_case("the member leaves, a group deleted by lagtop", change)
        j = group_of(doc, "zz-join")
        ok(out.get("delete", (1,))[0] == 0 and group_of(doc, "zz-delete") is None and j and j["state"] == "Empty"
           and j["members"] == 0, "%s: the steady run shows the group Empty again and the deleted group gone"
           % self.label, (out, j))

    def case_cut_off(self):
        """An ACL denies alice Read on __consumer_offsets while the run is steady; then a commit."""
        out = {}

        def change():
            out["acl"] = self.kc.acls("--add", "--deny-principal", "User:alice", "--operation", "Read", "--topic",
                                      "__consumer_offsets")
            time.sleep(1.5)  # the reader's next Fetch meets the denial
            out["tool"] = self.tools.run("--bootstrap-server", self.kc.bootstrap, "--reset-offsets", "--group",
                                         "zz-tool-reset", "--topic", "st-a", "--to-offset", "1", "--execute")
        doc, stats, err = self.check_case("the commit stream cut off by an ACL (Read on __consumer_offsets denied)",
                                          change, want_steady=False)
        first = next((i for i, s in enumerate(stats) if ": steady," in s), len(stats))
        tail = stats[first:]
        cs = doc.get("commit_stream") or {}
        ok(out.get("acl", (1,))[0] == 0 and tail and ": polled," in tail[-1] and ": polled," in tail[-2]
           and cs.get("state") != "live" and "not authorized" in (cs.get("reason") or ""),
           "%s: steady before the ACL, then polled; the JSON's commit_stream says it is not authorized" % self.label,
           (out, err, stats, cs))
        b = group_of(doc, "zz-tool-reset")
        ok(out.get("tool", (1,))[0] == 0 and b and all(p["committed"] == 1 for p in b["partitions"]),
           "%s: the commit after the cut-off shows (committed 1)" % self.label, (out.get("tool"), b))

    def run(self):
        try:
            self.start()
            note("%s started in %.1f s" % (self.label, self.kc.started_in))
            rc, doc, err = self.run_polled()
            names = sorted(g["group"] for g in doc.get("groups", []))
            ok(rc == 0 and len(names) == N_FILLER + len(CHANGED) and names[-len(CHANGED):] == sorted(CHANGED),
               "%s: %d groups with commits, the changed ones last in name order (beyond the sweep)"
               % (self.label, N_FILLER + len(CHANGED)), (rc, err, names))
            self.case_once(doc)
            self.case_changes()
            self.case_leave_delete()
            if self.secure:
                self.case_cut_off()
        except Exception:
            ok(False, "%s: the cases ran" % self.label, traceback.format_exc())
        finally:
            if self.member:
                self.member.stop()
            if self.tools:
                self.tools.close()
            self.kc.stop()


def main():
    kt.require_lines(PLAN)
    require_built(LAGTOP)
    total = sum(PLAN.values())
    plan(total)
    t0 = time.monotonic()
    lines = [Line(l) for l in PLAN]
    threads = [threading.Thread(target=ln.run) for ln in lines]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    while len(results) < total:
        ok(False, "not reached (an earlier step failed)")
    note("%.1f s in all" % (time.monotonic() - t0))
    return 0 if all(results) and len(results) == total else 1


if __name__ == "__main__":
    sys.exit(main())
