"""test_kafka_harness.py — the real-Kafka harness itself, on both pinned lines (3.9.x and 4.x).

Each line: a one-node cluster starts; the real kafka-consumer-groups answers; a topic made with
kafka-python is seen; a Java (kafka-clients) member, a confluent-kafka member and a kafka-python member
join a classic group and the real tool lists them; on 4.x, Java and confluent members join a
consumer-protocol (KIP-848) group and the real tool describes it as such; stop leaves no process and
no directory. Prints the start-up time of each line as a TAP comment.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
from simtest import exit_status, ok, plan  # noqa: E402


def wait_members(kc, group, n, timeout=60):
    rc, rows, text = kt.poll(lambda: kt.describe_members(kc, group), lambda r: r[0] == 0 and len(r[1]) == n,
                             timeout, step=0.5)
    return rows, text


def check_line(line):
    kc = K.KafkaCluster(line)
    if not kt.start(kc):
        return
    try:
        print("# Kafka %s (%s) started in %.1f s" % (line, kc.version, kc.started_in))
        ok(kc.version.startswith(line + "."), "Kafka %s: the pinned %s jars run" % (line, kc.version))
        rc, out, err = kc.consumer_groups("--list")
        ok(rc == 0 and out.strip() == "", "Kafka %s: kafka-consumer-groups --list answers (no groups yet)" % line,
           out + err)

        K.create_topic(kc.bootstrap, "harness", 3, 10)
        rc, out, err = kc.tool("org.apache.kafka.tools.GetOffsetShell", "--bootstrap-server", kc.bootstrap,
                               "--topic", "harness")
        ends = sorted(out.split())
        ok(rc == 0 and ends == ["harness:0:10", "harness:1:10", "harness:2:10"],
           "Kafka %s: records written by kafka-python are there (GetOffsetShell)" % line, out + err)

        members = [K.Member(kc, "java", "harness-classic", ["harness"], client_id="ref-java"),
                   K.Member(kc, "confluent", "harness-classic", ["harness"], client_id="ref-confluent"),
                   K.Member(kc, "kafka-python", "harness-classic", ["harness"], client_id="ref-kafka-python")]
        try:
            rows, text = wait_members(kc, "harness-classic", 3)
            ok(sorted(r[3] for r in rows) == ["ref-confluent", "ref-java", "ref-kafka-python"],
               "Kafka %s: Java, confluent-kafka and kafka-python members join one classic group" % line, text)
        finally:
            for m in members:
                m.stop()
        rows, text = wait_members(kc, "harness-classic", 0)
        ok(rows == [], "Kafka %s: members that stop leave the group" % line, text)

        if line != "3.9":
            members = [K.Member(kc, "java", "harness-kip848", ["harness"], protocol="consumer", client_id="k-java"),
                       K.Member(kc, "confluent", "harness-kip848", ["harness"], protocol="consumer",
                                client_id="k-confluent")]
            try:
                rows, text = wait_members(kc, "harness-kip848", 2)
                ok(sorted(r[3] for r in rows) == ["k-confluent", "k-java"],
                   "Kafka %s: Java and confluent-kafka members join a consumer-protocol group" % line, text)
                rc, out, err = kc.consumer_groups("--list", "--type")
                ok(rc == 0 and any(ln.split()[:2] == ["harness-kip848", "Consumer"] for ln in out.splitlines()),
                   "Kafka %s: kafka-consumer-groups lists it with type Consumer" % line, out + err)
            finally:
                for m in members:
                    m.stop()
    finally:
        pids = [p.pid for p in kc.procs.values()]
        d = kc.dir
        kc.stop()
        alive = [pid for pid in pids if os.path.exists("/proc/%d" % pid)]
        ok(not alive and not os.path.exists(d), "Kafka %s: stop leaves no process and no directory" % line,
           "alive: %s, dir %s" % (alive, d))


def main():
    kt.require_jdk()
    kt.available(K.confluent_python)
    for line in ("4", "3.9"):
        check_line(line)
    plan()
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
