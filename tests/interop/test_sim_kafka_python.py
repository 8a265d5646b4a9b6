# test_sim_kafka_python.py — an independent client (Debian's kafka-python 2.0.2) against lagtop-sim:
# what it sees must be exactly the sim's "fixture" scenario (documented in src/sim/sim.h), and what it
# commits must land. Also a few checks of the live "demo" scenario. Speaks TAP; run with /usr/bin/python3.
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from simtest import Sim, exit_status, missing_prereq, ok  # noqa: E402

BASE = 1700000000000
sims = []


def cleanup():
    for s in sims:
        s.stop()


def on_alarm(signum, frame):
    print("# timed out")
    cleanup()
    sys.exit(1)


def start_sim(scenario):
    try:
        s = Sim("--brokers", "3", "--scenario", scenario)
    except RuntimeError as e:
        cleanup()
        missing_prereq(str(e))
    sims.append(s)
    return s, s.bootstrap.split(",")


signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(90)
try:
    from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition
    from kafka.structs import OffsetAndMetadata
    from kafka.admin import NewTopic
    import kafka.errors as Errors
except ImportError as e:
    missing_prereq("kafka-python (%s)" % e)

print("1..24")
sim, bootstrap = start_sim("fixture")
common = dict(bootstrap_servers=bootstrap, api_version=(2, 0, 0), request_timeout_ms=15000)
try:
    admin = KafkaAdminClient(**common)
    groups = dict(admin.list_consumer_groups())
    ok(groups == {"fx-stable": "consumer", "fx-empty": "", "fx-rebalancing": "consumer", "fx-kip848": "consumer"},
       "list_consumer_groups: every group with its protocol type", groups)

    desc = {d.group: d for d in admin.describe_consumer_groups(["fx-stable", "fx-empty", "fx-rebalancing"])}
    d = desc["fx-stable"]
    ok(d.state == "Stable" and d.protocol_type == "consumer" and d.protocol == "range",
       "describe: fx-stable is Stable/consumer/range", d)
    members = sorted((m.member_id, m.client_id, m.client_host,
                      sorted((t, sorted(ps)) for t, ps in m.member_assignment.assignment))
                     for m in d.members)
    ok(members == [("fx-c1-member", "fx-c1", "/10.9.0.1", [("fx-orders", [0, 1])]),
                   ("fx-c2-member", "fx-c2", "/10.9.0.2", [("fx-orders", [2])])],
       "describe: members, hosts and assignments", members)
    subs = sorted(tuple(m.member_metadata.subscription) for m in d.members)
    ok(subs == [("fx-orders",), ("fx-orders",)], "describe: subscriptions", subs)
    ok(desc["fx-empty"].state == "Empty" and len(desc["fx-empty"].members) == 0, "describe: fx-empty is Empty",
       desc["fx-empty"])
    ok(desc["fx-rebalancing"].state == "PreparingRebalance" and len(desc["fx-rebalancing"].members) == 1,
       "describe: fx-rebalancing is PreparingRebalance with one member", desc["fx-rebalancing"])

    offs = admin.list_consumer_group_offsets("fx-empty")
    got = {(tp.topic, tp.partition): (om.offset, om.metadata) for tp, om in offs.items()}
    ok(got == {("fx-orders", 0): (10, "m0"), ("fx-orders", 2): (20, "")},
       "list_consumer_group_offsets: all committed partitions", got)
    offs = admin.list_consumer_group_offsets("fx-stable", partitions=[TopicPartition("fx-orders", p) for p in range(3)])
    got = {tp.partition: om.offset for tp, om in offs.items()}
    ok(got == {0: 500, 1: 600, 2: 700}, "list_consumer_group_offsets: explicit partitions", got)

    c = KafkaConsumer(**common)
    tps = [TopicPartition("fx-orders", p) for p in range(3)] + [TopicPartition("fx-audit", 0)]
    begin, end = c.beginning_offsets(tps), c.end_offsets(tps)
    got = [(tp.topic, tp.partition, begin[tp], end[tp]) for tp in tps]
    ok(got == [("fx-orders", 0, 100, 1000), ("fx-orders", 1, 0, 1000), ("fx-orders", 2, 0, 1000),
               ("fx-audit", 0, 0, 0)], "beginning_offsets / end_offsets", got)

    q = {tps[0]: BASE, tps[1]: BASE + 500500, tps[2]: BASE + 10 ** 7}
    r = c.offsets_for_times(q)
    got = {tp.partition: (v.offset, v.timestamp) if v else None for tp, v in r.items()}
    ok(got == {0: (100, BASE + 100000), 1: (501, BASE + 501000), 2: None},
       "offsets_for_times: first record at or after T, none after the last", got)
    c.close()

    # A new group, committed by a consumer with assign() (generation -1, no member): created Empty.
    nc = KafkaConsumer(group_id="fx-new", enable_auto_commit=False, **common)
    nc.assign([tps[1]])
    nc.commit({tps[1]: OffsetAndMetadata(42, "py")})
    nc.close()
    offs = admin.list_consumer_group_offsets("fx-new")
    got = {(tp.topic, tp.partition): (om.offset, om.metadata) for tp, om in offs.items()}
    ok(got == {("fx-orders", 1): (42, "py")}, "commit for a new group lands", got)
    d = admin.describe_consumer_groups(["fx-new"])[0]
    ok(d.state == "Empty" and d.protocol_type == "", "the new group is an Empty simple group", d)

    # The same commit into an active group is refused and changes nothing.
    sc = KafkaConsumer(group_id="fx-stable", enable_auto_commit=False, **common)
    sc.assign([tps[0]])
    refused = None
    try:
        sc.commit({tps[0]: OffsetAndMetadata(1, "")})
    except Exception as e:  # kafka-python raises CommitFailedError for UNKNOWN_MEMBER_ID
        refused = e
    sc.close()
    after = admin.list_consumer_group_offsets("fx-stable")[tps[0]].offset
    ok(refused is not None and after == 500, "commit into a Stable group is refused", (refused, after))

    res = dict((g, e.__name__) for g, e in admin.delete_consumer_groups(["fx-new", "fx-stable", "fx-nope"]))
    ok(res == {"fx-new": "NoError", "fx-stable": "NonEmptyGroupError", "fx-nope": "GroupIdNotFoundError"},
       "delete_consumer_groups: Empty deleted, active and unknown refused", res)
    left = sorted(g for g, _ in admin.list_consumer_groups())
    ok(left == ["fx-empty", "fx-kip848", "fx-rebalancing", "fx-stable"], "the deleted group is gone", left)

    # fx-kip848, a consumer-protocol (KIP-848) group, seen by a client that only knows classic groups:
    # DescribeGroups below v6 answers it like an unknown group, as Kafka 4.x does; offsets work as usual.
    d = admin.describe_consumer_groups(["fx-kip848"])[0]
    ok(d.state == "Dead" and d.protocol_type == "" and d.protocol == "" and len(d.members) == 0,
       "describe: the consumer-protocol group fx-kip848 looks Dead through DescribeGroups v3", d)
    offs = admin.list_consumer_group_offsets("fx-kip848")
    got = {(tp.topic, tp.partition): om.offset for tp, om in offs.items()}
    ok(got == {("fx-orders", 1): 650}, "list_consumer_group_offsets: fx-kip848's commit", got)
    kc = KafkaConsumer(group_id="fx-kip848", enable_auto_commit=False, **common)
    kc.assign([tps[1]])
    refused = None
    try:
        kc.commit({tps[1]: OffsetAndMetadata(1, "")})
    except Exception as e:  # UNKNOWN_MEMBER_ID, as for a classic group with members
        refused = e
    kc.close()
    after = admin.list_consumer_group_offsets("fx-kip848")[tps[1]].offset
    ok(refused is not None and after == 650, "commit into the Stable consumer-protocol group is refused",
       (refused, after))
    res = dict((g, e.__name__) for g, e in admin.delete_consumer_groups(["fx-kip848"]))
    ok(res == {"fx-kip848": "NonEmptyGroupError"}, "delete_consumer_groups: fx-kip848 has a member", res)

    admin.create_topics([NewTopic("fx-created", 4, 1)])
    again = None
    try:
        admin.create_topics([NewTopic("fx-created", 4, 1)])
    except Errors.TopicAlreadyExistsError as e:
        again = e
    c = KafkaConsumer(**common)
    ok(c.partitions_for_topic("fx-created") == {0, 1, 2, 3} and again is not None,
       "create_topics: created once, then TopicAlreadyExists", (c.partitions_for_topic("fx-created"), again))
    c.close()
    admin.close()
finally:
    sim.p.send_signal(signal.SIGTERM)
    try:
        sim.p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        sim.p.kill()
        sim.p.wait()
err = sim.stderr_text()
counts = {}
for line in err.splitlines():
    if line.startswith("{"):
        counts = json.loads(line)
ok(sim.p.returncode == 0 and counts.get("DescribeGroups", 0) >= 1 and counts.get("total", 0) > 10,
   "SIGTERM: clean exit with request counts as JSON", (sim.p.returncode, err[-500:]))

# The live demo: the story the dashboard tells.
demo, bootstrap = start_sim("demo")
common = dict(bootstrap_servers=bootstrap, api_version=(2, 0, 0), request_timeout_ms=15000)
try:
    admin = KafkaAdminClient(**common)
    names = sorted(g for g, _ in admin.list_consumer_groups())
    ok(len(names) >= 6 and "clickstream-replay" in names and "inventory-sync" in names,
       "demo: 6-10 groups", names)
    replay = admin.list_consumer_group_offsets("clickstream-replay")
    c = KafkaConsumer(**common)
    begin = c.beginning_offsets(list(replay.keys()))
    below = [tp.partition for tp, om in replay.items() if om.offset < begin[tp]]
    ok(len(replay) > 0 and len(below) == len(replay), "demo: clickstream-replay committed below log start",
       (replay, begin))
    def lag_sample():
        # Production and commits change together once a second: take a sample no tick fell into.
        for _ in range(20):
            committed = admin.list_consumer_group_offsets("clickstream-etl")
            e_a = c.end_offsets(list(committed.keys()))
            again = admin.list_consumer_group_offsets("clickstream-etl")
            e_b = c.end_offsets(list(committed.keys()))
            if e_a == e_b and again == committed:
                return sum(e_a.values()), sum(e_a[tp] - om.offset for tp, om in committed.items())
            time.sleep(0.1)
        return None, None
    end1, total1 = lag_sample()
    time.sleep(3.5)
    end2, total2 = lag_sample()
    ok(end1 is not None and end2 is not None and end2 > end1 and total2 > total1,
       "demo: traffic flows and clickstream-etl lags further", (total1, total2))
    c.close()
    admin.close()
finally:
    cleanup()
sys.exit(exit_status())
