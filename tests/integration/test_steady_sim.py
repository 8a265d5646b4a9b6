"""test_steady_sim.py — the steady refresh against full polling on one simulated cluster.

With the commit stream live, lagtop builds quiet groups from the last snapshot and the stream's commits
and asks DescribeGroups/OffsetFetch only for groups that may have changed (src/kafka/refresh_steady.c). Each
case runs `lagtop --once --samples N` with LAGTOP_REFRESH_STATS=1 (one stderr line per refresh says
whether it was steady), changes the cluster while that run is in its steady refreshes (a reset by
lagtop, a real kafka-python member joining, then leaving, a group deletion), and then compares every
number of the run's last sample with a run that polls everything (LAGTOP_FULL_POLL=1) on the cluster
left as it is. A sim whose Fetch answers are held back makes the stream fall behind: lagtop must poll
and say so in the commit stream's reason. A single `--once` (no previous snapshot: every group described)
takes committed offsets from the stream instead of OffsetFetch, except for a group whose commit carries
metadata (which the stream does not keep), with the same numbers as full polling.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import simtest  # noqa: E402
from simtest import (LAGTOP, diff_by_key as diff, group_numbers as numbers, json_from, kafka_python, ok,  # noqa: E402
                     private_env, results)

TESTS = 21
SAMPLES = 8

SCALE = ("--brokers", "3", "--scenario", "scale", "--groups", "30", "--partitions", "4", "--topics", "2")


def Sim(tmp, name, *args):
    """The scale scenario the cases share, on the sim of tests/lib (stderr in tmp/name.err)."""
    return simtest.Sim(*(SCALE + args), tmp=tmp, name=name)


def run_steady(env, bootstrap, change=None, after=2, extra=(), samples=SAMPLES):
    """--once --samples N with a change once `after` refreshes were steady; returns (rc, doc, stats, stderr)."""
    e = dict(env, LAGTOP_REFRESH_STATS="1")
    e.pop("LAGTOP_FULL_POLL", None)
    # stdout into a file: the JSON is larger than a pipe holds while stderr is being read line by line
    outf = tempfile.TemporaryFile(mode="w+")
    p = subprocess.Popen([LAGTOP, "--once", "--format", "json", "--samples", str(samples), "--interval", "1",
                          "-b", bootstrap, "--timeout", "10s"] + list(extra),
                         stdout=outf, stderr=subprocess.PIPE, text=True, env=e)
    stats, other = [], []
    changed = change is None
    deadline = time.time() + 90
    for line in p.stderr:
        if line.startswith("lagtop: refresh "):
            stats.append(line.strip())
            if not changed and sum(": steady," in x for x in stats) >= after:
                change()
                changed = True
        else:
            other.append(line)
        if time.time() > deadline:
            break
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    return p.returncode, json_from(outf), stats, "".join(other)


def run_polled(env, bootstrap):
    e = dict(env, LAGTOP_FULL_POLL="1")
    p = subprocess.run([LAGTOP, "--once", "--format", "json", "-b", bootstrap, "--timeout", "10s"],
                       capture_output=True, text=True, env=e, timeout=60)
    try:
        return p.returncode, json.loads(p.stdout)
    except ValueError:
        return p.returncode, {}


def steady_count(line):
    """Groups built from the stream by the refresh the stats line describes."""
    try:
        return int(line.split(", ")[1].split()[0])
    except (IndexError, ValueError):
        return -1


def group_of(doc, name):
    return next((g for g in doc.get("groups", []) if g["group"] == name), None)


def fetched_count(line):
    """(groups described, groups whose offsets were fetched) by the refresh the stats line describes."""
    try:
        parts = line.split(", ")
        return int(parts[2].split()[0]), int(parts[3].split()[0])
    except (IndexError, ValueError):
        return -1, -1


def check_once(env, sim, first):
    """One --once refresh: committed offsets from the stream, OffsetFetch only where it cannot vouch."""
    from kafka import KafkaConsumer, TopicPartition
    from kafka.structs import OffsetAndMetadata
    meta_group = "zz-once-meta"  # last by name: the sweep of the cases below never reaches it
    topic = first["groups"][0]["partitions"][0]["topic"]
    c = KafkaConsumer(bootstrap_servers=sim.bootstrap, group_id=meta_group, enable_auto_commit=False)
    try:
        c.commit({TopicPartition(topic, 0): OffsetAndMetadata(1, "with metadata")})
    finally:
        c.close()
    rc, doc, stats, err = run_steady(env, sim.bootstrap, samples=1)
    rc2, polled = run_polled(env, sim.bootstrap)
    described, fetched = fetched_count(stats[0] if stats else "")
    ok(rc == 0 and described == len(first["groups"]) + 1 and fetched == 1,
       "--once: every group described, OffsetFetch only for the group whose commit carries metadata",
       (rc, err, stats))
    g = group_of(doc, meta_group)
    ok(g and any(p["metadata"] == "with metadata" for p in g["partitions"]),
       "--once: the commit's metadata (from OffsetFetch) is shown", g)
    ok(rc2 == 0 and numbers(doc) and numbers(doc) == numbers(polled),
       "--once with offsets from the stream: every number equals a full-polling refresh",
       diff(numbers(doc), numbers(polled)))


def check_case(env, sim, title, change):
    rc, doc, stats, err = run_steady(env, sim.bootstrap, change)
    rc2, polled = run_polled(env, sim.bootstrap)
    last = stats[-1] if stats else ""
    ok(rc == 0 and len(stats) == SAMPLES and ": steady," in last and steady_count(last) > 0,
       "%s: the run's last refresh was steady (groups built from the stream)" % title, (rc, err, stats))
    ok(rc2 == 0 and numbers(doc) and numbers(doc) == numbers(polled),
       "%s: every number equals a full-polling refresh" % title, diff(numbers(doc), numbers(polled)))
    return doc


def main():
    KafkaConsumer, = kafka_python("KafkaConsumer")
    print("1..%d" % TESTS)
    tmp = tempfile.mkdtemp(prefix="lagtop-steady.")
    env = private_env(tmp, home=tmp, config=os.path.join(tmp, "xdg"))
    sim = Sim(tmp, "sim")
    box = {}
    try:
        # The scale scenario: group 0 and every fifth are Empty; each group reads one topic.
        rc, first = run_polled(env, sim.bootstrap)
        # The sweep describes one group per refresh here (30 groups, 60 s at a 1 s interval), in name order
        # from the first: a run of SAMPLES refreshes never reaches the groups from the tenth on, so a change
        # to them shows only if the steady refresh itself notices it.
        names = sorted(g["group"] for g in first.get("groups", []))
        empty = [n for n in names[10:] if group_of(first, n)["state"] == "Empty"]
        ok(rc == 0 and len(empty) >= 3, "the scenario has Empty groups beyond the sweep's reach", (rc, empty))
        if len(empty) < 3:
            return 1

        check_once(env, sim, first)
        check_case(env, sim, "quiet cluster", None)

        reset_group = empty[0]
        reset_topic = group_of(first, reset_group)["partitions"][0]["topic"]
        reset_out = []

        def reset():
            p = subprocess.run([LAGTOP, "-b", sim.bootstrap, "--reset-offsets", "--group", reset_group, "--topic",
                                reset_topic, "--to-earliest", "--execute"], capture_output=True, text=True,
                               env=env, timeout=60)
            reset_out.append((p.returncode, p.stdout, p.stderr))
        doc = check_case(env, sim, "a reset by lagtop during the run", reset)
        g = group_of(doc, reset_group)
        ok(reset_out and reset_out[0][0] == 0 and g and all(
            p["committed"] == p["log_start"] for p in g["partitions"] if p["topic"] == reset_topic),
           "the reset shows in the steady run: committed = log start", (reset_out, g and g["partitions"]))

        join_group = empty[1]
        join_topic = group_of(first, join_group)["partitions"][0]["topic"]

        def join():
            c = KafkaConsumer(bootstrap_servers=sim.bootstrap, group_id=join_group, client_id="steady-py",
                              enable_auto_commit=False, auto_offset_reset="latest")
            c.subscribe([join_topic])
            deadline = time.time() + 20
            while not c.assignment() and time.time() < deadline:
                c.poll(timeout_ms=200)
            box["c"] = c
            # keep heartbeating on this thread's behalf while lagtop refreshes
            import threading
            stop = threading.Event()

            def beat():
                while not stop.is_set():
                    c.poll(timeout_ms=200)
            t = threading.Thread(target=beat, daemon=True)
            t.start()
            box["stop"], box["thread"] = stop, t
        doc = check_case(env, sim, "a member joins during the run (rebalance)", join)
        g = group_of(doc, join_group)
        ok(g and g["state"] == "Stable" and g["members"] == 1 and g["member_list"][0]["client_id"] == "steady-py",
           "the joined member shows in the steady run", g and {k: g[k] for k in ("state", "members", "member_list")})

        def leave():
            box["stop"].set()
            box["thread"].join(5)
            box.pop("stop")
            box.pop("c").close()
        doc = check_case(env, sim, "the member leaves during the run", leave)
        g = group_of(doc, join_group)
        ok(g and g["state"] == "Empty" and g["members"] == 0, "the group is Empty again in the steady run",
           g and {k: g[k] for k in ("state", "members")})

        del_group = empty[2]
        del_out = []

        def delete():
            p = subprocess.run([LAGTOP, "-b", sim.bootstrap, "--delete", "--group", del_group], capture_output=True,
                               text=True, env=env, timeout=60)
            del_out.append((p.returncode, p.stdout, p.stderr))
        doc = check_case(env, sim, "a group deleted during the run", delete)
        ok(del_out and del_out[0][0] == 0 and group_of(doc, del_group) is None,
           "the deleted group is gone from the steady run", (del_out, group_of(doc, del_group)))
    finally:
        if box.get("stop"):
            box["stop"].set()
            box["thread"].join(5)
        if box.get("c"):
            box["c"].close()
        sim.stop()

    # A stream that falls behind: every Fetch answer held 2.5 s, longer than the refresh waits for the
    # stream (a fifth of --timeout 5s). A commit during the run: lagtop polls and says why.
    slow = Sim(tmp, "slow", "--latency-api", "1", "--latency-ms", "2500")
    try:
        rc, first = run_polled(env, slow.bootstrap)
        empty = [g["group"] for g in first.get("groups", []) if g["state"] == "Empty"]
        target = empty[0] if empty else "none"

        def reset_slow():
            subprocess.run([LAGTOP, "-b", slow.bootstrap, "--reset-offsets", "--group", target, "--all-topics",
                            "--to-earliest", "--execute"], capture_output=True, text=True, env=env, timeout=60)
        rc, doc, stats, err = run_steady(env, slow.bootstrap, reset_slow, after=1, extra=("--timeout", "5s"),
                                         samples=12)
        rc2, polled = run_polled(env, slow.bootstrap)
        first = next((i for i, s in enumerate(stats) if ": steady," in s), len(stats))
        behind = [s for s in stats[first:] if ": polled," in s and "commit stream behind" in s]
        ok(rc == 0 and first < len(stats) and behind,
           "a stream behind: steady before the commit, then polled with the reason", (rc, err, stats))
        reason = (doc.get("commit_stream") or {}).get("reason") or ""
        last = stats[-1] if stats else ""
        ok((": polled," not in last) or "commit stream behind" in reason,
           "the JSON's commit_stream reason says the stream is behind when the last refresh polled for it",
           (last, doc.get("commit_stream")))
        ok(rc2 == 0 and numbers(doc) == numbers(polled), "a stream behind: every number equals full polling",
           diff(numbers(doc), numbers(polled)))
    finally:
        slow.stop()
    return 0 if all(results) and len(results) == TESTS else 1


if __name__ == "__main__":
    sys.exit(main())
