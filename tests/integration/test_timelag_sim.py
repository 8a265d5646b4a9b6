"""test_timelag_sim.py — a stopped group's time lag, refresh after refresh, against lagtop-sim.

The demo's inventory-sync (Empty) and clickstream-replay (no members) never commit: their committed offsets
stand still while the log ends grow. Over 60 refreshes of `--record --headless --format json` (one JSON
document per refresh) the time lag of every partition whose committed offset did not move must grow at
least as fast as the clock, and never go back (but where the record's exact time replaces an estimate).
Their committed offsets lie before lagtop's log-end history, so each time lag comes from the timestamp of the
record at the committed offset once lagtop has read it (estimated and marked before: a refresh reads at most 32
records within its budget): exact (not marked estimated, nor the group's largest), and equal to the refresh's
time minus the timestamp kafka-python reads there, every one by the last refresh; where retention deleted that
record (committed below the log start), an estimate marked as one. The checks are tests/lib/timelag.py's.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import simtest  # noqa: E402
from simtest import ok, results  # noqa: E402
from timelag import backwards, lagging, not_from_records, read_record_ts, refreshes  # noqa: E402

REFRESHES = 60
GROUPS = ("inventory-sync", "clickstream-replay")


def main(tmp):
    os.environ["HOME"] = tmp
    os.environ["XDG_CONFIG_HOME"] = os.path.join(tmp, "xdg")
    os.environ.pop("LAGTOP_CONFIG", None)
    try:
        import kafka  # noqa: F401
    except ImportError:
        simtest.missing_prereq("kafka-python (Debian package python3-kafka)")
    print("1..3")
    with simtest.Sim("--scenario", "demo", tmp=tmp) as sim:
        docs = refreshes(sim.bootstrap, tmp, GROUPS, REFRESHES)
        record_ts = read_record_ts(sim.bootstrap, docs)
    n_lagging = lagging(docs)
    ok(len(docs) == REFRESHES and n_lagging > 0, "%d refreshes of the stopped groups, with time lags" % REFRESHES,
       "%d refreshes, %d time lags" % (len(docs), n_lagging))
    bad = backwards(docs)
    ok(not bad, "a committed offset standing still: its time lag grows with the clock, never back",
       "\n".join(bad[:20]))
    bad = not_from_records(docs, record_ts)
    ok(not bad and record_ts, "committed offsets before the history: every time lag is exact once its record is "
       "read (the refresh's time minus the timestamp of the record at the committed offset, as kafka-python reads "
       "it), estimated and marked before, and by the last refresh all are read", "\n".join(bad[:20]))
    return 0 if all(results) else 1


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="lagtop-test.") as TMP:
        sys.exit(main(TMP))
