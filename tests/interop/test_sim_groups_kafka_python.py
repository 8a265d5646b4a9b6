#!/usr/bin/python3
"""test_sim_groups_kafka_python.py — kafka-python (Debian's python3-kafka) producing and consuming in a
consumer group against lagtop-sim, checked at each step through kafka-python's own admin client.

The story of tests/integration/test_sim_consumers.c with an independent client: a producer writes records
with known timestamps (and auto-creates a topic); two consumers in a group split the partitions, consume
and commit; one leaves and the other gets everything; both leave and the group is Empty. Then a commit
without membership (generation -1, like an admin commit) is refused while a consumer is a member, accepted
once it closed, and a new consumer resumes from it. TAP output; run with /usr/bin/python3.
"""
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from simtest import Sim, exit_status, missing_prereq, note as log, ok, plan  # noqa: E402

try:
    from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
    from kafka.admin import NewTopic
    from kafka.errors import KafkaError
    from kafka.structs import OffsetAndMetadata
except ImportError:
    missing_prereq("kafka-python (Debian package python3-kafka)")

TOPIC = "py-orders"
NPART = 4
T0 = 1700000000000
API = (2, 0, 0)
WAIT = 15.0

sim = None

def stop_sim():
    if sim:
        sim.stop()


def on_alarm(signum, frame):
    print("Bail out! test took too long", flush=True)
    stop_sim()
    os._exit(1)


def start_sim():
    global sim
    try:
        sim = Sim("--brokers", "3", "--group-min-session-timeout", "1000")
    except RuntimeError as e:
        print("Bail out! %s" % e, flush=True)
        sys.exit(1)
    return sim.bootstrap.split(",")


def wait_until(cond, timeout=WAIT):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


class Seen:
    """Records a consumer received, checked against what was produced."""

    def __init__(self):
        self.records = set()

    def poll(self, consumer):
        for tp, recs in consumer.poll(timeout_ms=50).items():
            for r in recs:
                i = r.offset * NPART + r.partition
                assert r.value == b"msg-%d" % i, (r.partition, r.offset, r.value)
                assert r.timestamp == T0 + i * 1000, (r.partition, r.offset, r.timestamp)
                assert r.timestamp_type == 0  # CreateTime
                self.records.add((r.partition, r.offset))


class Consumer(threading.Thread):
    """A KafkaConsumer polled by a thread of its own: kafka-python's poll() blocks while it (re)joins a
    group, so two consumers polled in turns by one thread would starve each other's rebalance. Other
    calls are shipped to that thread (KafkaConsumer is not thread-safe)."""

    def __init__(self, bs, client_id, group, session_timeout_ms=6000):
        super().__init__(daemon=True)
        self.args = (bs, client_id, group, session_timeout_ms)
        self.seen = Seen()
        self.cmds = queue.Queue()
        self.stopping = False
        self.start()

    def run(self):
        bs, client_id, group, session_timeout_ms = self.args
        c = KafkaConsumer(TOPIC, bootstrap_servers=bs, api_version=API, client_id=client_id, group_id=group,
                          enable_auto_commit=False, auto_offset_reset="earliest",
                          session_timeout_ms=session_timeout_ms,
                          heartbeat_interval_ms=300, fetch_max_wait_ms=100, request_timeout_ms=7000,
                          max_poll_interval_ms=10000)
        while not self.stopping:
            try:
                self.seen.poll(c)
            except Exception as e:  # surfaces through the next call()
                log("poll: %r" % e)
            while True:
                try:
                    fn, box = self.cmds.get_nowait()
                except queue.Empty:
                    break
                try:
                    box.put((True, fn(c)))
                except Exception as e:
                    box.put((False, e))

    def call(self, fn, timeout=WAIT):
        box = queue.Queue()
        self.cmds.put((fn, box))
        ok, v = box.get(timeout=timeout)
        if not ok:
            raise v
        return v

    def assignment(self):
        return self.call(lambda c: {tp.partition for tp in c.assignment()})

    def positions(self):
        return self.call(lambda c: {tp.partition: c.position(tp) for tp in c.assignment()})

    def commit(self):
        self.call(lambda c: c.commit())

    def close(self):
        def close(c):
            self.stopping = True
            c.close()
        self.call(close)
        self.join(10)


def describe(admin, group):
    g = admin.describe_consumer_groups([group])[0]
    members = {}
    for m in g.members:
        parts = set()
        if m.member_assignment:
            for topic, ps in m.member_assignment.assignment:
                assert topic == TOPIC, topic
                parts.update(ps)
        sub = list(m.member_metadata.subscription) if m.member_metadata else None
        members[m.client_id] = (m.client_host, parts, m.member_id, sub)
    return g.state, g.protocol_type, members


def lagtop_once(bs, group):
    """lagtop's own collection path (--once --format json) for one group; None when lagtop is not built."""
    exe = os.environ.get("LAGTOP")
    if not exe or not os.access(exe, os.X_OK):
        return None
    out = subprocess.run([exe, "--once", "--format", "json", "-b", ",".join(bs), "-g", group],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    groups = json.loads(out.stdout)["groups"]
    assert len(groups) == 1, groups
    return groups[0]


def committed(admin, group):
    offs = admin.list_consumer_group_offsets(group)
    return {tp.partition: om.offset for tp, om in offs.items() if tp.topic == TOPIC}


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(90)
    bs = start_sim()
    admin = KafkaAdminClient(bootstrap_servers=bs, client_id="py-admin")
    state = {"produced": 0}
    steps = []

    def step(fn):
        steps.append(fn)
        return fn

    @step
    def producer_writes_with_timestamps():
        admin.create_topics([NewTopic(TOPIC, NPART, 1)])
        p = KafkaProducer(bootstrap_servers=bs, api_version=API, acks="all", linger_ms=5)
        t = time.time()
        futs = []
        for i in range(200):
            futs.append((i, p.send(TOPIC, value=b"msg-%d" % i, partition=i % NPART, timestamp_ms=T0 + i * 1000)))
        p.flush(10)
        log("produced 200 records in %.0f ms" % ((time.time() - t) * 1000))
        for i, f in futs:
            md = f.get(timeout=5)
            assert (md.partition, md.offset) == (i % NPART, i // NPART), (i, md)
        state["produced"] = 200
        # Kafka creates topics on first use (Metadata v0-v3): one partition by default
        md = p.send("py-auto", value=b"x").get(timeout=10)
        assert (md.topic, md.partition, md.offset) == ("py-auto", 0, 0), md
        assert p.partitions_for("py-auto") == {0}
        p.close()
        c = KafkaConsumer(bootstrap_servers=bs, api_version=API)
        tps = [TopicPartition(TOPIC, i) for i in range(NPART)]
        assert c.end_offsets(tps) == {tp: 50 for tp in tps}
        assert c.beginning_offsets(tps) == {tp: 0 for tp in tps}
        found = c.offsets_for_times({tp: T0 + 100 * 1000 for tp in tps})
        assert {tp: o.offset for tp, o in found.items()} == {tp: 25 for tp in tps}, found
        c.close()


    @step
    def two_consumers_split_partitions():
        t = time.time()
        c1 = state["c1"] = Consumer(bs, "py1", "pyg")
        c2 = state["c2"] = Consumer(bs, "py2", "pyg")
        ok = wait_until(lambda: len(c1.assignment()) == 2 and len(c2.assignment()) == 2
                        and describe(admin, "pyg")[0] == "Stable")
        log("two consumers assigned after %.0f ms" % ((time.time() - t) * 1000))
        assert ok, (c1.assignment(), c2.assignment())
        st, ptype, members = describe(admin, "pyg")
        assert st == "Stable" and ptype == "consumer", (st, ptype)
        assert set(members) == {"py1", "py2"}, members
        for cid, c in (("py1", c1), ("py2", c2)):
            host, parts, member_id, sub = members[cid]
            assert host == "/127.0.0.1", host
            assert sub == [TOPIC], sub  # the subscription the client sent in JoinGroup
            assert member_id.startswith(cid + "-"), member_id
            assert parts == c.assignment(), (cid, parts, c.assignment())
        assert members["py1"][1] | members["py2"][1] == set(range(NPART))
        assert not (members["py1"][1] & members["py2"][1])

    @step
    def consume_and_commit():
        c1, c2 = state["c1"], state["c2"]

        def done():
            return (len(set(c1.seen.records) | set(c2.seen.records)) == 200
                    and all(o == 50 for c in (c1, c2) for o in c.positions().values()))
        assert wait_until(done), (len(set(c1.seen.records) | set(c2.seen.records)), c1.positions(), c2.positions())
        c1.commit()
        c2.commit()
        assert committed(admin, "pyg") == {p: 50 for p in range(NPART)}
        # lagtop itself sees the same: two real members, their partitions, nothing left to read
        g = lagtop_once(bs, "pyg")
        if g is None:
            log("lagtop not built: its view is not checked")
            return
        assert g["state"] == "Stable" and g["members"] == 2 and g["lag"] == 0, g
        owner = {p: cid for cid, c in (("py1", c1), ("py2", c2)) for p in c.assignment()}
        parts = {p["partition"]: p for p in g["partitions"] if p["topic"] == TOPIC}
        assert sorted(parts) == list(range(NPART)), parts
        for n, p in parts.items():
            assert (p["committed"], p["log_end"], p["lag"]) == (50, 50, 0), p
            assert p["client_id"] == owner[n] and p["host"] == "/127.0.0.1", (p, owner)

    @step
    def one_leaves_other_gets_everything():
        c1 = state["c1"]
        c2_parts = state["c2"].assignment()
        state.pop("c2").close()
        before = set(c1.seen.records)
        t = time.time()
        assert wait_until(lambda: len(c1.assignment()) == NPART)
        log("rebalance after a leave took %.0f ms" % ((time.time() - t) * 1000))
        st, _, members = describe(admin, "pyg")
        assert st == "Stable" and set(members) == {"py1"}, (st, members)
        assert members["py1"][1] == set(range(NPART))
        p = KafkaProducer(bootstrap_servers=bs, api_version=API, acks="all", linger_ms=5)
        for i in range(200, 240):
            p.send(TOPIC, value=b"msg-%d" % i, partition=i % NPART, timestamp_ms=T0 + i * 1000)
        p.flush(10)
        p.close()
        state["produced"] = 240
        assert wait_until(lambda: c1.positions() == {p: 60 for p in range(NPART)}), c1.positions()
        # c2's partitions resumed from c2's committed offsets
        new = set(c1.seen.records) - before
        for p in c2_parts:
            assert min(o for (q, o) in new if q == p) == 50, (p, sorted(new))
        c1.commit()
        assert committed(admin, "pyg") == {p: 60 for p in range(NPART)}

    @step
    def both_left_group_empty():
        state.pop("c1").close()
        st, ptype, members = describe(admin, "pyg")
        assert st == "Empty" and members == {}, (st, members)
        assert committed(admin, "pyg") == {p: 60 for p in range(NPART)}

    @step
    def memberless_commit_refused_while_member():
        c3 = state["c3"] = Consumer(bs, "py3", "pyg2")
        assert wait_until(lambda: len(c3.seen.records) == 240 and c3.positions() == {p: 60 for p in range(NPART)})
        c3.commit()
        assert describe(admin, "pyg2")[0] == "Stable"
        # a commit outside the group (generation -1, no member id), as an admin tool makes it
        m = state["m"] = KafkaConsumer(bootstrap_servers=bs, api_version=API, group_id="pyg2",
                                       enable_auto_commit=False)
        tps = [TopicPartition(TOPIC, i) for i in range(NPART)]
        m.assign(tps)
        try:
            m.commit({tp: OffsetAndMetadata(10, None) for tp in tps})
            raise AssertionError("commit accepted while a consumer is a member")
        except KafkaError as e:
            log("refused as expected: %s" % type(e).__name__)
        assert committed(admin, "pyg2") == {p: 60 for p in range(NPART)}
        st, _, members = describe(admin, "pyg2")
        assert st == "Stable" and set(members) == {"py3"}, (st, members)

    @step
    def memberless_commit_after_close_then_resume():
        state.pop("c3").close()
        assert describe(admin, "pyg2")[0] == "Empty"
        m = state.pop("m")
        tps = [TopicPartition(TOPIC, i) for i in range(NPART)]
        m.commit({tp: OffsetAndMetadata(10, None) for tp in tps})
        m.close()
        assert committed(admin, "pyg2") == {p: 10 for p in range(NPART)}
        c4 = Consumer(bs, "py4", "pyg2")
        assert wait_until(lambda: len(c4.seen.records) == 200), len(c4.seen.records)
        for p in range(NPART):
            assert min(o for (q, o) in c4.seen.records if q == p) == 10
        c4.close()

    @step
    def killed_consumer_evicted_after_session_timeout():
        # a consumer in another process that dies without LeaveGroup: only its session timeout removes it
        code = ("import sys, time\n"
                "from kafka import KafkaConsumer\n"
                "c = KafkaConsumer(%r, bootstrap_servers=%r, api_version=%r, client_id='py-doomed',\n"
                "                  group_id='pyg3', session_timeout_ms=2000, heartbeat_interval_ms=300,\n"
                "                  enable_auto_commit=False, request_timeout_ms=3000)\n"
                "while True:\n"
                "    c.poll(timeout_ms=100)\n" % (TOPIC, bs, API))
        doomed = subprocess.Popen([sys.executable, "-c", code])
        try:
            a = state["a"] = Consumer(bs, "py-a", "pyg3", session_timeout_ms=2000)
            assert wait_until(lambda: len(a.assignment()) == 2 and describe(admin, "pyg3")[0] == "Stable"
                              and set(describe(admin, "pyg3")[2]) == {"py-a", "py-doomed"}), \
                (a.assignment(), describe(admin, "pyg3"))
        finally:
            doomed.kill()
            doomed.wait()
        t = time.time()
        assert wait_until(lambda: set(describe(admin, "pyg3")[2]) == {"py-a"} and len(a.assignment()) == NPART)
        log("dead member evicted and its partitions reassigned after %.0f ms (session timeout 2000 ms)"
            % ((time.time() - t) * 1000))
        st, _, members = describe(admin, "pyg3")
        assert st == "Stable" and members["py-a"][1] == set(range(NPART)), (st, members)
        state.pop("a").close()
        assert describe(admin, "pyg3")[0] == "Empty"

    @step
    def synthetic_records_readable():
        # records the sim made up (the fixture scenario) read by an independent decoder that checks CRCs
        fx = Sim("--brokers", "1", "--scenario", "fixture")
        try:
            fbs = fx.bootstrap.split(",")
            c = KafkaConsumer(bootstrap_servers=fbs, api_version=API, check_crcs=True, enable_auto_commit=False,
                              fetch_max_wait_ms=100)
            tps = [TopicPartition("fx-orders", p) for p in range(3)]
            c.assign(tps)
            c.seek_to_beginning()
            got = {}
            end = time.time() + WAIT
            while sum(len(v) for v in got.values()) < 2900 and time.time() < end:
                for tp, recs in c.poll(timeout_ms=100).items():
                    for r in recs:
                        assert r.value == b"sim-%d" % r.offset, r
                        assert r.timestamp == 1700000000000 + r.offset * 1000, r
                        got.setdefault(tp.partition, []).append(r.offset)
            c.close()
            assert {p: (min(v), max(v), len(v)) for p, v in got.items()} == \
                {0: (100, 999, 900), 1: (0, 999, 1000), 2: (0, 999, 1000)}, \
                {p: (min(v), max(v), len(v)) for p, v in got.items()}
        finally:
            fx.stop()

    plan(len(steps))
    for fn in steps:
        try:
            fn()
            ok(True, fn.__name__)
        except Exception as e:  # report and go on: later steps say what still works
            ok(False, fn.__name__, "%s: %r" % (type(e).__name__, e))
    for c in list(state.values()):
        if hasattr(c, "close"):
            try:
                c.close()
            except Exception:
                pass
    admin.close()
    stop_sim()
    return exit_status()


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        stop_sim()
