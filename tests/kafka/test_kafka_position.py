"""test_kafka_position.py — consumers' own positions from real consumers on real Kafka.

On a one-node Apache Kafka 4.x, one topic of 2 partitions x 150 records, four real consumers, one group each:
  - two Java consumers (kafka-clients of the cluster's line) with the Prometheus JMX exporter's Java agent
    (io.prometheus.jmx:jmx_prometheus_javaagent, pinned in pom.xml; no rules: its default names), one
    committing after each poll, one never committing;
  - two librdkafka consumers (confluent-kafka, a current librdkafka) writing their statistics JSON to a file
    every 500 ms, one committing, one not.
Each reads slowly (5 records a poll, 200 ms apart), then pauses every partition after 250 records and keeps
polling, so it stays in its group with its position still. Checks:
 1. while they read: `lagtop --once --samples 3` with not_committing_after = 1 s flags the two consumers that
    never commit as not committing, and not the two that commit;
 2. once they paused: lagtop's position of every partition equals the position the consumer itself printed
    (c.position()), from its JMX exporter endpoint (position = log start + records-lead) or its statistics
    file (app_offset), and uncommitted = position - committed for the committing ones;
 3. every source's status is ok.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
from simtest import lagtop, ok  # noqa: E402

TOPIC = "pos-orders"
PARTS = 2
RECORDS = 150
PAUSE_AFTER = 250


def Proc(cmd):
    """A consumer process that prints events on stdout (RefConsumer.java or kafka_member.py)."""
    return K.EventProcess(subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           stderr=subprocess.DEVNULL, text=True), wait_timeout=90)


def paused_positions(line):
    """'paused t:0=12,t:1=40' -> {('t', 0): 12, ('t', 1): 40}"""
    got = {}
    for item in line.split(" ", 1)[1].split(","):
        tp, pos = item.rsplit("=", 1)
        t, p = tp.rsplit(":", 1)
        got[(t, int(p))] = int(pos)
    return got


def run(kc):
    K.create_topic(kc.bootstrap, TOPIC, PARTS, RECORDS)
    agent = K.jmx_exporter_agent()
    cp = K.java_classes(kc.line)
    jmx_conf = os.path.join(TMP, "jmx.yaml")
    with open(jmx_conf, "w") as f:  # no rules: the exporter's default names
        f.write('includeObjectNames: ["kafka.consumer:type=consumer-fetch-manager-metrics,*"]\n')
    ports = K.free_ports(2)
    procs, sources = {}, []
    slow = ["lagtop.poll-sleep-ms=200", "max.poll.records=5", "lagtop.pause-after=%d" % PAUSE_AFTER]
    for name, commit, port in (("java-c", True, ports[0]), ("java-nc", False, ports[1])):
        cmd = [K._which("java")] + K.TOOL_JVM + ["-javaagent:%s=127.0.0.1:%d:%s" % (agent, port, jmx_conf),
                                                "-cp", cp, "RefConsumer", kc.bootstrap, "pos-" + name, "classic",
                                                TOPIC, "client.id=" + name] + slow
        if not commit:
            cmd.append("lagtop.commit=false")
        procs[name] = Proc(cmd)
        sources.append("http://127.0.0.1:%d/metrics" % port)
    py = K.confluent_python()
    for name, commit in (("rdk-c", True), ("rdk-nc", False)):
        stats = os.path.join(TMP, name + ".json")
        cmd = [py, os.path.join(K.HERE, "kafka_member.py"), "--client", "confluent", "--bootstrap", kc.bootstrap, "--group",
               "pos-" + name, "--topics", TOPIC, "--client-id", name, "--stats", stats, "--batch", "5",
               "--poll-sleep-ms", "200", "--pause-after", str(PAUSE_AFTER)]
        if not commit:
            cmd.append("--no-commit")
        procs[name] = Proc(cmd)
        sources.append(stats)
    try:
        for name, pr in procs.items():
            ok(pr.wait_for("assigned ") is not None, "%s joined its group" % name, pr.seen[-5:])
        for name, pr in procs.items():
            pr.wait_for("co", 60)  # its first batch ("committed" or "consumed")
        conf = os.path.join(TMP, "lagtop.conf")
        with open(conf, "w") as f:
            f.write('clusters = { k = { bootstrap_servers = "%s";\n  position_sources = [ %s ];\n'
                    '  not_committing_after = "1s"; }; };\n' % (kc.bootstrap, ", ".join('"%s"' % s for s in sources)))
        base = ["--config", conf, "-c", "k", "--once", "--format", "json", "--no-commit-stream", "-G", "^pos-"]

        # 1. while they read. The verdict needs a position watched for the window (1 s) in the samples, so
        # first wait (bounded) until every consumer's source reports one: a statistics file written before the
        # first batch has no position yet, and a run started then gave rdk-nc no verdict (null).
        reported, deadline = {}, time.monotonic() + 30
        while time.monotonic() < deadline:
            rc, out, err = lagtop(*base, timeout=120)
            groups = json.loads(out)["groups"] if rc == 0 else []
            reported = {g["group"][4:]: any(p.get("position") is not None for p in g["partitions"]) for g in groups}
            if len(reported) == 4 and all(reported.values()):
                break
            time.sleep(0.5)
        ok(len(reported) == 4 and all(reported.values()), "every consumer's position source reports a position",
           reported)
        t0 = time.monotonic()
        rc, out, err = lagtop(*(base + ["--samples", "3", "--interval", "1"]), timeout=120)
        took = time.monotonic() - t0
        d = json.loads(out) if rc == 0 else {"groups": [], "position_sources": []}
        flags = {g["group"][4:]: g["not_committing"] for g in d["groups"]}
        moving = all(not any(l.startswith("paused") for l in pr.seen) for pr in procs.values())
        print("# --samples 3 took %.1f s; consumers still reading: %s" % (took, moving))
        ok(flags == {"java-c": False, "java-nc": True, "rdk-c": False, "rdk-nc": True},
           "while reading: the consumers that never commit are flagged not committing, the others not",
           (flags, err[-500:], d.get("position_sources")))

        # 2. once paused: positions equal what each consumer says
        said = {}
        for name, pr in procs.items():
            line = pr.wait_for("paused ", 90)
            said[name] = paused_positions(line) if line else None
        ok(all(said.values()), "every consumer paused after %d records" % PAUSE_AFTER, said)
        time.sleep(1.5)  # a statistics document written after the pause (every 500 ms)
        rc, out, err = lagtop(*base, timeout=120)
        d = json.loads(out) if rc == 0 else {"groups": [], "position_sources": []}
        got = {}
        for g in d["groups"]:
            for p in g["partitions"]:
                got.setdefault(g["group"][4:], {})[(p["topic"], p["partition"])] = p
        for name in procs:
            want = said.get(name) or {}
            have = {k: v["position"] for k, v in got.get(name, {}).items()}
            ok(want and have == want, "%s: lagtop's positions are the consumer's own" % name, (want, have))
        for name in ("java-c", "rdk-c"):
            parts = got.get(name, {})
            ok(parts and all(p["uncommitted"] == p["position"] - p["committed"] and p["committed"] is not None
                             for p in parts.values()),
               "%s: uncommitted = position - committed" % name, parts)
        srcs = d.get("position_sources", [])
        ok(len(srcs) == 4 and all(s["ok"] for s in srcs), "every source is ok",
           [(s["location"], s["status"]) for s in srcs])
        java = [p for n in ("java-c", "java-nc") for p in got.get(n, {}).values()]
        ok(java and all(p["position_source"].startswith("http://127.0.0.1:") and 0 <= p["position_age_ms"] < 5000
                        for p in java),
           "the Java consumers' positions come from their JMX exporter endpoints, fresh", java[:2])
    finally:
        for pr in procs.values():
            pr.stop()


def main():
    kt.require_jdk()
    kt.available(K.confluent_python)
    kt.available(K.jmx_exporter_agent)
    return kt.on_one_cluster(run)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="lagtop-position.") as TMP:
        sys.exit(main())
