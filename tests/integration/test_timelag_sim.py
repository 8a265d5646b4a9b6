"""test_timelag_sim.py — a stopped group's time lag, refresh after refresh, against lagtop-sim.

The demo's inventory-sync (Empty) and clickstream-replay (no members) never commit: their committed offsets
stand still while the log ends grow. Over 60 refreshes of `--record --headless --format json` (one JSON
document per refresh) the time lag of every partition whose committed offset did not move must grow at
least as fast as the clock, and never go back; every time lag above 0 is marked estimated, and so is the
group's largest.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import simtest  # noqa: E402
from simtest import ok, results  # noqa: E402

REFRESHES = 60
GROUPS = ("inventory-sync", "clickstream-replay")


def refreshes(bootstrap, tmp):
    """The JSON documents of REFRESHES refreshes 0.2 s apart (bounded: 60 s), lagtop stopped with SIGINT."""
    args = [simtest.LAGTOP, "--record", os.path.join(tmp, "rec.lt"), "--headless", "--format", "json",
            "-b", bootstrap, "--interval", "0.2"]
    for g in GROUPS:
        args += ["-g", g]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                         text=True)
    docs = []
    deadline = time.time() + 60
    try:
        while len(docs) < REFRESHES and time.time() < deadline:
            line = p.stdout.readline()
            if not line:
                break
            docs.append(json.loads(line))
    finally:
        p.send_signal(signal.SIGINT)
        try:
            p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
    return docs


def backwards(docs):
    """Where a partition's time lag grew less than the clock while its committed offset stood still."""
    found = []
    prev = {}
    for d in docs:
        for g in d["groups"]:
            for p in g["partitions"]:
                key = (g["group"], p["topic"], p["partition"])
                cur = (d["taken_at_ms"], p["committed"], p["time_lag_ms"])
                last = prev.get(key)
                prev[key] = cur
                if not last or last[2] is None or cur[2] is None or last[1] != cur[1]:
                    continue
                if cur[2] < last[2] + (cur[0] - last[0]):
                    found.append("%s %s:%d seq %d: %d ms, %d ms earlier %d ms" % (
                        key[0], key[1], key[2], d["seq"], cur[2], cur[0] - last[0], last[2]))
    return found


def unmarked(docs):
    """Time lags above 0 not marked estimated (partitions and groups)."""
    found = []
    for d in docs:
        for g in d["groups"]:
            if g["max_time_lag_ms"] and g["max_time_lag_estimated"] is not True:
                found.append("%s seq %d: max_time_lag_estimated %r" % (g["group"], d["seq"],
                                                                      g["max_time_lag_estimated"]))
            for p in g["partitions"]:
                if p["time_lag_ms"] and p["time_lag_estimated"] is not True:
                    found.append("%s %s:%d seq %d" % (g["group"], p["topic"], p["partition"], d["seq"]))
    return found


def main(tmp):
    os.environ["HOME"] = tmp
    os.environ["XDG_CONFIG_HOME"] = os.path.join(tmp, "xdg")
    os.environ.pop("LAGTOP_CONFIG", None)
    print("1..3")
    with simtest.Sim("--scenario", "demo", tmp=tmp) as sim:
        docs = refreshes(sim.bootstrap, tmp)
    lagging = sum(1 for d in docs for g in d["groups"] for p in g["partitions"] if p["time_lag_ms"])
    ok(len(docs) == REFRESHES and lagging > 0, "%d refreshes of the stopped groups, with time lags" % REFRESHES,
       "%d refreshes, %d time lags" % (len(docs), lagging))
    bad = backwards(docs)
    ok(not bad, "a committed offset standing still: its time lag grows with the clock, never back",
       "\n".join(bad[:20]))
    bad = unmarked(docs)
    ok(not bad, "every time lag above 0 is marked estimated, and the groups' largest", "\n".join(bad[:20]))
    return 0 if all(results) else 1


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="lagtop-test.") as TMP:
        sys.exit(main(TMP))
