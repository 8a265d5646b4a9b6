#!/usr/bin/python3
"""test_kafka_commit_end.py — `lagtop --once` knows where __consumer_offsets ends, on Apache Kafka 3.9 and 4.x.

The commit stream's reader takes each __consumer_offsets partition's end when it starts (ListOffsets latest
with read_committed: the last stable offset) and calls a partition loaded when its position reaches it;
the reference is the old rule, the partition-EOF event (LAGTOP_COMMIT_END=eof). On one single-node
cluster per line (both at once), confluent-kafka (the tests' virtual environment) writes:
  - plain commits (admin API) of 4 groups, several times each;
  - commits inside transactions (send_offsets_to_transaction, a producer with a transactional.id) of 4
    groups, 3 committed transactions each: their offsets records are followed by COMMIT markers, control
    records the application never sees — the last records of their partitions;
  - a transaction that commits offsets and aborts (its records are never applied, an ABORT marker ends it);
  - a transaction left open while lagtop runs (its records sit above the last stable offset).
Every value of `--once --format json` must be the same with the end read at the start and with EOF events
(except the fields that differ between two runs of the reference); the transactional groups show their
committed offsets and commit times, the aborted and the open transaction's offsets show nowhere; and the
partitions that end in markers were found loaded by their position (LAGTOP_DEBUG's counts), not at EOF.
--once takes committed offsets from the stream once it has caught up (OffsetFetch only for the groups it
cannot vouch for): every value equals a run that asks OffsetFetch for every group (LAGTOP_FULL_POLL=1).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import kafkatest as kt  # noqa: E402
from kafkatest import K  # noqa: E402
from simtest import flat, json_differences, exit_status, lagtop, note, ok, require_built, results  # noqa: E402

BUILD = os.environ.get("LT_BUILDDIR") or os.path.dirname(os.path.dirname(HERE))
LAGTOP = os.environ.get("LAGTOP") or os.path.join(BUILD, "lagtop")
TMP = tempfile.mkdtemp(prefix="lagtop-cend-")
LINES = ("3.9", "4")
PER_LINE = 9

# Runs under the virtual environment's python (confluent-kafka); prints "ready" once everything but the
# open transaction is written, then waits for stdin to close and aborts the open transaction.
WRITER = r'''
import sys, time
from confluent_kafka import Consumer, ConsumerGroupTopicPartitions, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic
b = sys.argv[1]
admin = AdminClient({"bootstrap.servers": b})
for f in admin.create_topics([NewTopic("ce-in", 4, 1), NewTopic("ce-out", 1, 1)]).values():
    f.result()
p = Producer({"bootstrap.servers": b})
for q in range(4):
    for i in range(50):
        p.produce("ce-in", b"r", partition=q)
p.flush(60)

def retry(fn):
    for attempt in range(60):  # the first group calls meet __consumer_offsets still loading
        try:
            return fn()
        except Exception as e:
            if attempt == 59:
                raise
            time.sleep(0.5)

def commit(g, tps):
    for f in admin.alter_consumer_group_offsets([ConsumerGroupTopicPartitions(g, tps)]).values():
        errs = [tp.error for tp in f.result().topic_partitions if tp.error]
        if errs:
            raise RuntimeError("commit of %s: %s" % (g, errs[0]))

for r in range(3):
    for g in range(4):
        tps = [TopicPartition("ce-in", q, 10 * r + q + g) for q in range(4)]
        retry(lambda: commit("ce-plain-%d" % g, tps))

tx = Producer({"bootstrap.servers": b, "transactional.id": "ce-writer"})
retry(lambda: tx.init_transactions(30))
meta = {}
def group_meta(g):
    if g not in meta:
        c = Consumer({"bootstrap.servers": b, "group.id": g})
        meta[g] = c.consumer_group_metadata()
        c.close()
    return meta[g]

for r in range(3):
    for g in range(4):
        tx.begin_transaction()
        tx.produce("ce-out", b"out")
        tx.send_offsets_to_transaction([TopicPartition("ce-in", q, 12 * r + q + g) for q in range(4)],
                                       group_meta("ce-txn-%d" % g), 30)
        tx.commit_transaction(30)
tx.begin_transaction()
tx.send_offsets_to_transaction([TopicPartition("ce-in", q, 44) for q in range(4)], group_meta("ce-abort"), 30)
tx.abort_transaction(30)

op = Producer({"bootstrap.servers": b, "transactional.id": "ce-open"})
retry(lambda: op.init_transactions(30))
op.begin_transaction()
op.send_offsets_to_transaction([TopicPartition("ce-in", q, 45) for q in range(4)], group_meta("ce-open"), 30)
print("ready", flush=True)
sys.stdin.read()
op.abort_transaction(30)
'''


def once(bootstrap, eof_only, debug=False, **extra):
    env = dict(os.environ, HOME=TMP, XDG_CONFIG_HOME=os.path.join(TMP, "xdg"), XDG_STATE_HOME=TMP)
    for k in ("LAGTOP_CONFIG", "LAGTOP_COMMIT_END", "LAGTOP_FULL_POLL", "LAGTOP_REFRESH_STATS"):
        env.pop(k, None)
    env.update(extra)
    if eof_only:
        env["LAGTOP_COMMIT_END"] = "eof"
    if debug:
        env["LAGTOP_DEBUG"] = "1"
    rc, out, err = lagtop("--once", "--format", "json", "-b", bootstrap, "--timeout", "30s", env=env, timeout=90)
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, None, err


def check(label, bootstrap):
    runs = {True: [], False: []}
    for _ in range(2):
        for eof_only in (True, False):
            runs[eof_only].append(once(bootstrap, eof_only))
    bad = [r for v in runs.values() for r in v if r[0] != 0 or r[1] is None]
    if not ok(not bad, "%s: every --once run printed JSON" % label, bad[0][2] if bad else None):
        return
    states = [r[1]["commit_stream"]["state"] for v in runs.values() for r in v]
    ok(all(s == "live" for s in states), "%s: the commit stream was loaded in every run" % label, states)
    diff, volatile, n_values = json_differences([r[1] for r in runs[True]], [r[1] for r in runs[False]])
    ref = [flat(r[1]) for r in runs[True]]
    ok(not diff, "%s: every value equal with the end read at the start and with EOF events (%d values, %d volatile)"
       % (label, n_values, len(volatile)),
       "\n".join("%s: %r vs %r" % (k, flat(runs[False][0][1]).get(k), ref[0].get(k)) for k in diff[:20]))
    doc = runs[False][0][1]
    groups = {g["group"]: g for g in doc["groups"]}
    txn = [groups.get("ce-txn-%d" % g) for g in range(4)]
    want = {(g, q): 24 + q + g for g in range(4) for q in range(4)}
    got = {(g, p["partition"]): p["committed"] for g in range(4) if txn[g] for p in txn[g]["partitions"]}
    ok(got == want and all(t and t["last_commit_ms"] for t in txn),
       "%s: the transactional groups' last committed offsets and commit times are shown" % label,
       {"got": got, "commit times": [t and t["last_commit_ms"] for t in txn]})
    hidden = [(g, p["partition"], p["committed"]) for g in ("ce-abort", "ce-open") if g in groups
              for p in groups[g]["partitions"] if p["committed"] is not None]
    plain = [groups.get("ce-plain-%d" % g) for g in range(4)]
    ok(not hidden and all(x and x["last_commit_ms"] for x in plain),
       "%s: no offsets from the aborted or the open transaction; plain groups' commit times shown" % label,
       {"hidden": hidden, "plain": [x and x["last_commit_ms"] for x in plain]})

    # offsets from the stream against OffsetFetch for every group
    rc, streamed, err = once(bootstrap, False, LAGTOP_REFRESH_STATS="1")
    rc2, polled, err2 = once(bootstrap, False, LAGTOP_FULL_POLL="1")
    m = re.search(r"lagtop: refresh 1: \w+, \d+ groups from the stream, (\d+) described, (\d+) offsets fetched", err)
    ok(rc == 0 and m and int(m.group(2)) <= int(m.group(1)) - len(txn) - len(plain),
       "%s: --once takes the plain and transactional groups' offsets from the stream (%s)"
       % (label, m and m.group(0)), err[-2000:])
    a, b = flat(streamed or {}), flat(polled or {})
    diff = [k for k in sorted(set(a) | set(b)) if k not in volatile and a.get(k) != b.get(k)]
    ok(rc2 == 0 and streamed and polled and not diff,
       "%s: every value equal with offsets from the stream and with OffsetFetch for every group" % label,
       "\n".join("%s: %r vs %r" % (k, a.get(k), b.get(k)) for k in diff[:20]) + err2[-500:])


def check_markers(label, bootstrap):
    rc, _, err = once(bootstrap, False, debug=True)
    m = re.search(r"commit stream: the history of (\d+) partitions loaded in \d+ ms: (\d+) empty, (\d+) at a "
                  r"record, (\d+) by position \(transaction markers\), (\d+) at partition EOF", err)
    counts = m and [int(x) for x in m.groups()]
    ok(counts and counts[3] >= 1 and sum(counts[1:]) == counts[0],
       "%s: partitions ending in transaction markers are loaded by their position (%s)" % (label, m and m.group(0)),
       err[-2000:])


def main():
    for line in LINES:
        kt.available(K.classpath, line)
    py = kt.available(K.confluent_python)
    require_built(LAGTOP)
    print("1..%d" % (PER_LINE * len(LINES)))
    t0 = time.monotonic()
    clusters = {line: K.KafkaCluster(line, nodes=1) for line in LINES}
    writers = []
    try:
        for line, kc in clusters.items():
            label = "Kafka %s" % line
            try:
                kc.start()
                label = "Kafka %s" % kc.version
                w = subprocess.Popen([py, "-c", WRITER, kc.bootstrap], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
                writers.append(w)
                first = w.stdout.readline()
                if not ok(first.strip() == "ready", "%s: plain, transactional, aborted and open commits written"
                          % label, first + (w.stderr.read() if w.poll() is not None else "")):
                    continue
                check(label, kc.bootstrap)
                check_markers(label, kc.bootstrap)
            except Exception:
                ok(False, "%s: cluster and commits set up" % label, traceback.format_exc())
    finally:
        for w in writers:
            try:
                w.stdin.close()
                w.wait(30)
            except (OSError, subprocess.TimeoutExpired):
                w.kill()
                w.wait()
        for kc in clusters.values():
            kc.stop()
    while len(results) < PER_LINE * len(LINES):
        ok(False, "not reached (an earlier step failed)")
    note("%.1f s in all" % (time.monotonic() - t0))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
